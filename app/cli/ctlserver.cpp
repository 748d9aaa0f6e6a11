#include "app/cli/ctl.h"
#include "app/cli/ctl_p.h"

namespace Eddy::Cli {

// ---------------------------------------------------------------- commands

void Ctl::cmdDiscover()
{
    if (m_args.size() != 2)
        return fail(QStringLiteral("usage: eddyctl discover URL"), Usage);
    if (!openEngine(false))
        return;
    const auto id = serverFor(m_args[1]);
    if (!id)
        return;
    connect(&m_engine, &Monitor::Engine::serverStateChanged, this,
            [this, sid = *id](qint64 serverId, Monitor::Engine::ServerState state, const QString &message) {
                if (serverId != sid || m_finished)
                    return;
                if (state != Monitor::Engine::ServerState::Online)
                    return fail(QStringLiteral("cannot reach %1: %2").arg(m_args[1], message));
                const auto rec = m_engine.catalogue().server(sid);
                const json d = parseJsonText(rec ? rec->discovery : QString());
                if (m_json) {
                    m_out << QString::fromStdString(d.dump(2)) << Qt::endl;
                } else {
                    m_out << QStringLiteral("server:    %1 %2\n").arg(QString::fromStdString(d.value("serverName", std::string())),
                                                                 QString::fromStdString(d.value("serverVersion", std::string())));
                    m_out << QStringLiteral("protocol:  %1 (%2)\n").arg(QString::fromStdString(d.value("protocolVersion", std::string())),
                                                                   QString::fromStdString(d.value("era", std::string())));
                    m_out << QStringLiteral("versions:  %1\n").arg(QString::fromStdString(d.value("supportedVersions", json::array()).dump()));
                    m_out << QStringLiteral("tasks:     %1\n").arg(d.value("offersTasks", false) ? QStringLiteral("offered") : QStringLiteral("not offered"));
                    const std::string instr = d.value("instructions", std::string());
                    if (!instr.empty())
                        m_out << QStringLiteral("about:     %1\n").arg(QString::fromStdString(instr));
                }
                finish(Ok);
            });
    m_engine.refreshServer(*id);
}

void Ctl::cmdTools()
{
    if (m_args.size() != 2)
        return fail(QStringLiteral("usage: eddyctl tools URL"), Usage);
    if (!openEngine(false))
        return;
    const auto id = serverFor(m_args[1]);
    if (!id)
        return;
    connect(&m_engine, &Monitor::Engine::serverStateChanged, this,
            [this, sid = *id](qint64 serverId, Monitor::Engine::ServerState state, const QString &message) {
                if (serverId == sid && state == Monitor::Engine::ServerState::Unreachable)
                    fail(QStringLiteral("cannot reach %1: %2").arg(m_args[1], message));
            });
    connect(&m_engine, &Monitor::Engine::toolsChanged, this, [this, sid = *id](qint64 serverId) {
        if (serverId != sid || m_finished)
            return;
        const auto rec = m_engine.catalogue().server(sid);
        const json tools = parseJsonText(rec ? rec->tools : QString());
        if (m_json) {
            m_out << QString::fromStdString(tools.dump(2)) << Qt::endl;
        } else {
            for (const json &t : tools) {
                m_out << QString::fromStdString(t.value("name", std::string()));
                const std::string title = t.value("title", std::string());
                if (!title.empty())
                    m_out << "  " << QString::fromStdString(title);
                m_out << "\n";
                const json props = t.value("inputSchema", json::object()).value("properties", json::object());
                for (auto p = props.begin(); p != props.end(); ++p)
                    m_out << "    " << QString::fromStdString(p.key()) << ": "
                          << QString::fromStdString(p.value().value("type", std::string("any"))) << "\n";
            }
        }
        finish(Ok);
    });
    m_engine.refreshServer(*id);
}

void Ctl::cmdCall()
{
    if (m_args.size() != 4)
        return fail(QStringLiteral("usage: eddyctl call URL TOOL ARGS_JSON [--wait] [--answers FILE]"), Usage);
    const json args = parseJson(m_args[3]);
    if (args.is_discarded() || !args.is_object())
        return fail(QStringLiteral("ARGS_JSON must be a JSON object, e.g. '{\"reynolds\": 100, \"grid\": 32}'."), Usage);
    if (!openEngine(true) || !loadAnswers())
        return;
    hookInput();
    const auto id = serverFor(m_args[1]);
    if (!id)
        return;
    connect(&m_engine, &Monitor::Engine::submissionRejected, this, [this](const QString &m) { fail(m); });
    connect(&m_engine, &Monitor::Engine::callJournalled, this, [this](qint64 caseId) { m_waitCase = caseId; });
    connect(&m_engine, &Monitor::Engine::caseRejected, this, [this](qint64 caseId, const QString &m) {
        if (caseId == m_waitCase)
            fail(QStringLiteral("the server refused the call: %1").arg(m));
    });
    connect(&m_engine, &Monitor::Engine::caseDeferred, this, [this](qint64 caseId, const QString &m) {
        if (caseId == m_waitCase)
            fail(m);
    });
    connect(&m_engine, &Monitor::Engine::caseSubmitted, this, [this](qint64 caseId, qint64 taskId) {
        if (caseId != m_waitCase)
            return;
        m_waitTask = taskId;
        const auto t = m_engine.catalogue().task(taskId);
        if (!m_wait && t && t->isLive() && t->pattern == Pattern::Streamed) {
            // Its result comes only on this connection: leaving now would lose it.
            m_wait = true;
            m_err << QStringLiteral("task %1 is a streamed call (the server offers no task for "
                                    "it): waiting for its result on this connection")
                         .arg(taskId)
                  << Qt::endl;
        } else if (!m_wait) {
            if (m_json)
                m_out << QString::fromStdString(taskJson(*t).dump()) << Qt::endl;
            else
                m_out << QStringLiteral("task %1 %2").arg(taskId).arg(Store::toText(t->status)) << Qt::endl;
            finish(Ok);
        } else if (!m_interactive && !m_answers) {
            m_err << QStringLiteral("task %1 submitted; waiting for it to finish").arg(taskId) << Qt::endl;
        }
    });
    connect(&m_engine, &Monitor::Engine::taskFinished, this, [this](const Store::TaskRecord &t) {
        if (!m_wait || t.id != m_waitTask)
            return;
        if (!t.result.isEmpty())
            m_out << QString::fromStdString(parseJsonText(t.result).dump(2)) << Qt::endl;
        else if (!t.error.isEmpty())
            m_out << QString::fromStdString(parseJsonText(t.error).dump(2)) << Qt::endl;
        if (t.status == Store::TaskStatus::Completed && !t.isToolError)
            return finish(Ok);
        m_err << QStringLiteral("task %1 ended %2%3%4").arg(t.id).arg(Store::toText(t.status),
                                                               t.isToolError ? QStringLiteral(" with a tool error") : QString(),
                                                               t.statusMessage.isEmpty() ? QString()
                                                                                         : QStringLiteral(": ") + t.statusMessage)
              << Qt::endl;
        finish(Failure);
    });
    m_engine.callOnce(*id, m_args[2], m_args[3].toUtf8(), std::nullopt);
}

} // namespace Eddy::Cli
