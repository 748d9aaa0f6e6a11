#include "app/cli/toolcommands.h"

#include "app/cli/ctl_p.h"
#include "app/cli/invocation.h"

namespace Eddy::Cli {

ToolCommands::ToolCommands(Invocation &run)
    : m_run(run)
{}

std::optional<qint64> ToolCommands::urlArgument(const QString &usage)
{
    if (m_run.args().size() != 2) {
        m_run.fail(usage, Usage);
        return std::nullopt;
    }
    if (!m_run.openEngine(false))
        return std::nullopt;
    return m_run.serverFor(m_run.args()[1]);
}

void ToolCommands::discover()
{
    const auto id = urlArgument(QStringLiteral("usage: eddyctl discover URL"));
    if (!id)
        return;
    QObject::connect(
        &m_run.engine(),
        &Monitor::Engine::serverStateChanged,
        &m_run,
        [this,
         sid = *id](qint64 serverId, Monitor::Engine::ServerState state, const QString &message) {
            if (serverId != sid || m_run.isFinished())
                return;
            if (state != Monitor::Engine::ServerState::Online)
                return m_run.fail(
                    QStringLiteral("cannot reach %1: %2").arg(m_run.args()[1], message));
            const auto rec = m_run.engine().catalogue().server(sid);
            const json d = parseJsonText(rec ? rec->discovery : QString());
            if (m_run.options().jsonOutput) {
                m_run.out() << QString::fromStdString(d.dump(2)) << Qt::endl;
            } else {
                m_run.out()
                    << QStringLiteral("server:    %1 %2\n")
                           .arg(QString::fromStdString(d.value("serverName", std::string())),
                                QString::fromStdString(d.value("serverVersion", std::string())));
                m_run.out() << QStringLiteral("protocol:  %1 (%2)\n")
                                   .arg(QString::fromStdString(
                                            d.value("protocolVersion", std::string())),
                                        QString::fromStdString(d.value("era", std::string())));
                m_run.out() << QStringLiteral("versions:  %1\n")
                                   .arg(QString::fromStdString(
                                       d.value("supportedVersions", json::array()).dump()));
                m_run.out() << QStringLiteral("tasks:     %1\n")
                                   .arg(d.value("offersTasks", false)
                                            ? QStringLiteral("offered")
                                            : QStringLiteral("not offered"));
                const std::string instr = d.value("instructions", std::string());
                if (!instr.empty())
                    m_run.out()
                        << QStringLiteral("about:     %1\n").arg(QString::fromStdString(instr));
            }
            m_run.finish(Ok);
        });
    m_run.engine().refreshServer(*id);
}

void ToolCommands::tools()
{
    const auto id = urlArgument(QStringLiteral("usage: eddyctl tools URL"));
    if (!id)
        return;
    QObject::connect(
        &m_run.engine(),
        &Monitor::Engine::serverStateChanged,
        &m_run,
        [this,
         sid = *id](qint64 serverId, Monitor::Engine::ServerState state, const QString &message) {
            if (serverId == sid && state == Monitor::Engine::ServerState::Unreachable)
                m_run.fail(QStringLiteral("cannot reach %1: %2").arg(m_run.args()[1], message));
        });
    QObject::connect(
        &m_run.engine(),
        &Monitor::Engine::toolsChanged,
        &m_run,
        [this, sid = *id](qint64 serverId) {
            if (serverId != sid || m_run.isFinished())
                return;
            const auto rec = m_run.engine().catalogue().server(sid);
            const json tools = parseJsonText(rec ? rec->tools : QString());
            if (m_run.options().jsonOutput) {
                m_run.out() << QString::fromStdString(tools.dump(2)) << Qt::endl;
            } else {
                for (const json &t : tools) {
                    m_run.out() << QString::fromStdString(t.value("name", std::string()));
                    const std::string title = t.value("title", std::string());
                    if (!title.empty())
                        m_run.out() << "  " << QString::fromStdString(title);
                    m_run.out() << "\n";
                    const json props = t.value("inputSchema", json::object())
                                           .value("properties", json::object());
                    for (auto p = props.begin(); p != props.end(); ++p)
                        m_run.out()
                            << "    " << QString::fromStdString(p.key()) << ": "
                            << QString::fromStdString(p.value().value("type", std::string("any")))
                            << "\n";
                }
            }
            m_run.finish(Ok);
        });
    m_run.engine().refreshServer(*id);
}

void ToolCommands::call()
{
    m_wait = m_run.options().wait;
    if (m_run.args().size() != 4)
        return m_run.fail(
            QStringLiteral("usage: eddyctl call URL TOOL ARGS_JSON [--wait] [--answers FILE]"),
            Usage);
    const json args = parseJson(m_run.args()[3]);
    if (args.is_discarded() || !args.is_object())
        return m_run.fail(
            QStringLiteral(
                "ARGS_JSON must be a JSON object, e.g. '{\"reynolds\": 100, \"grid\": 32}'."),
            Usage);
    if (!m_run.openEngine(true) || !m_run.loadAnswers())
        return;
    m_run.hookInput();
    const auto id = m_run.serverFor(m_run.args()[1]);
    if (!id)
        return;
    QObject::connect(&m_run.engine(),
                     &Monitor::Engine::submissionRejected,
                     &m_run,
                     [this](const QString &m) { m_run.fail(m); });
    QObject::connect(&m_run.engine(),
                     &Monitor::Engine::callJournalled,
                     &m_run,
                     [this](qint64 caseId) { m_run.setWaitCase(caseId); });
    QObject::connect(&m_run.engine(),
                     &Monitor::Engine::caseRejected,
                     &m_run,
                     [this](qint64 caseId, const QString &m) {
                         if (caseId == m_run.waitCase())
                             m_run.fail(QStringLiteral("the server refused the call: %1").arg(m));
                     });
    QObject::connect(&m_run.engine(),
                     &Monitor::Engine::caseDeferred,
                     &m_run,
                     [this](qint64 caseId, const QString &m) {
                         if (caseId == m_run.waitCase())
                             m_run.fail(m);
                     });
    QObject::connect(
        &m_run.engine(),
        &Monitor::Engine::caseSubmitted,
        &m_run,
        [this](qint64 caseId, qint64 taskId) {
            if (caseId != m_run.waitCase())
                return;
            m_waitTask = taskId;
            const auto t = m_run.engine().catalogue().task(taskId);
            if (!m_wait && t && t->isLive() && t->pattern == Pattern::Streamed) {
                // Its result comes only on this connection: leaving now would lose it.
                m_wait = true;
                m_run.err() << QStringLiteral(
                                   "task %1 is a streamed call (the server offers no task for "
                                   "it): waiting for its result on this connection")
                                   .arg(taskId)
                            << Qt::endl;
            } else if (!m_wait) {
                if (m_run.options().jsonOutput)
                    m_run.out() << QString::fromStdString(m_run.taskJson(*t).dump()) << Qt::endl;
                else
                    m_run.out()
                        << QStringLiteral("task %1 %2").arg(taskId).arg(Store::toText(t->status))
                        << Qt::endl;
                m_run.finish(Ok);
            } else if (!m_run.isInteractive() && !m_run.hasAnswers()) {
                m_run.err()
                    << QStringLiteral("task %1 submitted; waiting for it to finish").arg(taskId)
                    << Qt::endl;
            }
        });
    QObject::connect(
        &m_run.engine(),
        &Monitor::Engine::taskFinished,
        &m_run,
        [this](const Store::TaskRecord &t) {
            if (!m_wait || t.id != m_waitTask)
                return;
            if (!t.result.isEmpty())
                m_run.out() << QString::fromStdString(parseJsonText(t.result).dump(2)) << Qt::endl;
            else if (!t.error.isEmpty())
                m_run.out() << QString::fromStdString(parseJsonText(t.error).dump(2)) << Qt::endl;
            if (t.status == Store::TaskStatus::Completed && !t.isToolError)
                return m_run.finish(Ok);
            m_run.err() << QStringLiteral("task %1 ended %2%3%4")
                               .arg(t.id)
                               .arg(Store::toText(t.status),
                                    t.isToolError ? QStringLiteral(" with a tool error")
                                                  : QString(),
                                    t.statusMessage.isEmpty()
                                        ? QString()
                                        : QStringLiteral(": ") + t.statusMessage)
                        << Qt::endl;
            m_run.finish(Failure);
        });
    m_run.engine().callOnce(*id, m_run.args()[2], m_run.args()[3].toUtf8(), std::nullopt);
}

void ToolCommands::adapter()
{
    const QString sub = m_run.args().value(1);
    const bool show = sub == QLatin1String("show") && m_run.args().size() == 3;
    const bool set = sub == QLatin1String("set") && m_run.args().size() == 4;
    if (!show && !set)
        return m_run.fail(
            QStringLiteral("usage: eddyctl adapter show URL | eddyctl adapter set URL FILE"),
            Usage);
    std::optional<Monitor::JobAdapter> toStore;
    if (set) {
        QFile f(m_run.args()[3]);
        if (!f.open(QIODevice::ReadOnly))
            return m_run.fail(QStringLiteral("cannot read the adapter file %1: %2")
                                  .arg(m_run.args()[3], f.errorString()));
        QString error;
        toStore = Monitor::JobAdapter::fromText(QString::fromUtf8(f.readAll()), &error);
        if (!toStore)
            return m_run.fail(
                QStringLiteral("the adapter in %1 is not valid; nothing was stored. Fix:\n%2")
                    .arg(m_run.args()[3], error),
                Usage);
    }
    if (!m_run.openEngine(false))
        return;
    const auto id = m_run.serverFor(m_run.args()[2]);
    if (!id)
        return;
    if (set) {
        if (!m_run.engine().setJobAdapter(*id, *toStore))
            return m_run.fail(
                QStringLiteral("cannot store the adapter: %1").arg(m_run.engine().storeError()));
        m_run.err() << QStringLiteral(
                           "stored the job adapter of %1: %2 starts jobs, %3 follows them")
                           .arg(m_run.args()[2], toStore->submitTool, toStore->statusTool)
                    << Qt::endl;
        return m_run.finish(Ok);
    }
    QString error;
    if (const auto stored = m_run.engine().jobAdapter(*id, &error)) {
        m_run.out() << QString::fromStdString(stored->toJson().dump(2)) << Qt::endl;
        m_run.err() << QStringLiteral("(the adapter stored with %1)").arg(m_run.args()[2])
                    << Qt::endl;
        return m_run.finish(Ok);
    }
    if (!error.isEmpty())
        m_run.err()
            << QStringLiteral("the stored adapter is not valid (%1); proposing one").arg(error)
            << Qt::endl;
    m_run.engine().proposeJobAdapter(
        *id, [this](const Monitor::AdapterProposal &p, const QString &e) {
            if (m_run.isFinished())
                return;
            if (!e.isEmpty())
                return m_run.fail(e);
            if (!p.adapter)
                return m_run.fail(QStringLiteral("no adapter to propose: %1").arg(p.reason));
            m_run.out() << QString::fromStdString(p.adapter->toJson().dump(2)) << Qt::endl;
            m_run.err() << QStringLiteral("(proposed, not stored; confidence %1 %)\n")
                               .arg(qRound(p.confidence * 100));
            for (const QString &why : p.why)
                m_run.err() << "  " << why << "\n";
            m_run.err() << QStringLiteral(
                               "Save it to a file, edit it if needed, and store it with: eddyctl "
                               "adapter set %1 FILE")
                               .arg(m_run.args()[2])
                        << Qt::endl;
            m_run.finish(Ok);
        });
}

} // namespace Eddy::Cli
