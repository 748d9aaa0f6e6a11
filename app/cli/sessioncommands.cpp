#include "app/cli/sessioncommands.h"

#include "app/cli/ctl_p.h"
#include "app/cli/invocation.h"

namespace Eddy::Cli {

SessionCommands::SessionCommands(Invocation &run)
    : m_run(run)
{}

void SessionCommands::sessions()
{
    if (m_run.args().size() != 1)
        return m_run.fail(QStringLiteral("usage: eddyctl sessions"), Usage);
    if (!m_run.openEngine(false))
        return;
    const auto sessions = m_run.engine().catalogue().sessions();
    if (m_run.options().jsonOutput) {
        json arr = json::array();
        for (const auto &s : sessions)
            arr.push_back({{"id", s.id},
                           {"name", s.name.toStdString()},
                           {"tasks", s.taskCount},
                           {"createdAt", isoMs(s.createdAtMs).toStdString()}});
        m_run.out() << QString::fromStdString(arr.dump(2)) << Qt::endl;
    } else {
        for (const auto &s : sessions)
            m_run.out() << QStringLiteral("%1  %2  (%3 task(s))\n")
                               .arg(s.id, -4)
                               .arg(s.name)
                               .arg(s.taskCount);
    }
    m_run.finish(Ok);
}

void SessionCommands::attach()
{
    if (m_run.args().size() < 3)
        return m_run.fail(QStringLiteral("usage: eddyctl attach SESSION QUERY (e.g. "
                                         "tool=run_cfd_case status=completed reynolds=400)"),
                          Usage);
    Store::TaskQuery q;
    const QStringList terms
        = m_run.args()
              .mid(2)
              .join(QLatin1Char(' '))
              .split(QRegularExpression(QStringLiteral("[\\s,]+")), Qt::SkipEmptyParts);
    for (const QString &term : terms) {
        const int eq = term.indexOf(QLatin1Char('='));
        if (eq <= 0)
            return m_run.fail(QStringLiteral("query term \"%1\" is not NAME=VALUE.").arg(term),
                              Usage);
        const QString key = term.left(eq);
        if (const QString problem = addQueryTerm(key, term.mid(eq + 1), q); !problem.isEmpty())
            return m_run.fail(problem, Usage);
    }
    if (!m_run.openEngine(false))
        return;
    qint64 session = -1;
    if (auto s = m_run.engine().catalogue().sessionByName(m_run.args()[1]))
        session = s->id;
    else
        session = m_run.engine().createSession(m_run.args()[1]);
    if (session < 0)
        return m_run.finish(Failure);
    const int n = m_run.engine().attachTasks(session, q);
    if (n < 0)
        return m_run.finish(Failure);
    if (m_run.options().jsonOutput)
        m_run.out() << QString::fromStdString(
            json{{"session", m_run.args()[1].toStdString()}, {"attached", n}}.dump())
                    << Qt::endl;
    else
        m_run.out()
            << QStringLiteral("attached %1 task(s) to session \"%2\"").arg(n).arg(m_run.args()[1])
            << Qt::endl;
    m_run.finish(Ok);
}

void SessionCommands::agent()
{
    Agent::AgentSettings settings = m_run.options().agentSettings;
    if (m_run.args().size() != 2 || m_run.args()[1].trimmed().isEmpty())
        return m_run.fail(
            QStringLiteral(
                "usage: eddyctl agent \"PROMPT\" [--session NAME] [--yes] [--agent-url URL]"),
            Usage);
    if (!m_run.options().agentContext.isEmpty()) {
        bool ok = false;
        settings.contextTokens = m_run.options().agentContext.toInt(&ok);
        if (!ok)
            return m_run.fail(
                QStringLiteral("--agent-context needs a number of tokens, e.g. 8192."), Usage);
    }
    if (const QString problem = settings.problem(); !problem.isEmpty())
        return m_run.fail(problem, Usage);
    if (!m_run.openEngine(true))
        return;
    m_agent = new Agent::Agent(&m_run.engine(), &m_run);
    m_agent->setSettings(settings);
    // Headless: nobody can confirm, so destructive calls run only with --yes, and answers to a
    // task's questions are never sent (Agent refuses them outside Ask).
    m_agent->setConfirmationPolicy(m_run.options().yes ? Agent::Agent::ConfirmationPolicy::AllowAll
                                                       : Agent::Agent::ConfirmationPolicy::DenyAll);
    if (!m_agent->openConversation(m_run.options().session))
        return m_run.fail(m_agent->errorString());
    m_run.err() << "conversation: " << m_agent->sessionName() << Qt::endl;
    QObject::connect(m_agent, &Agent::Agent::contentDelta, &m_run, [this](const QString &text) {
        m_run.out() << text;
        m_run.out().flush();
        m_atLineStart = text.endsWith(QLatin1Char('\n'));
    });
    QObject::connect(
        m_agent,
        &Agent::Agent::toolCardReady,
        &m_run,
        [this](const QString &tool, const QString &card, const QList<qint64> &, bool ok) {
            if (!m_atLineStart)
                m_run.out() << Qt::endl;
            m_run.out() << (ok ? "[tool] " : "[tool failed] ") << (card.isEmpty() ? tool : card)
                        << Qt::endl;
            m_atLineStart = true;
        });
    QObject::connect(
        m_agent, &Agent::Agent::turnFinished, &m_run, [this](bool ok, const QString &error) {
            if (!m_atLineStart)
                m_run.out() << Qt::endl;
            if (!ok)
                return m_run.fail(error);
            m_run.finish(Ok);
        });
    m_agent->send(m_run.args()[1]);
}

} // namespace Eddy::Cli
