#include "app/cli/ctl.h"
#include "app/cli/ctl_p.h"

namespace Eddy::Cli {

void Ctl::cmdSessions()
{
    if (m_args.size() != 1)
        return fail(QStringLiteral("usage: eddyctl sessions"), Usage);
    if (!openEngine(false))
        return;
    const auto sessions = m_engine.catalogue().sessions();
    if (m_json) {
        json arr = json::array();
        for (const auto &s : sessions)
            arr.push_back({{"id", s.id}, {"name", s.name.toStdString()}, {"tasks", s.taskCount},
                           {"createdAt", isoMs(s.createdAtMs).toStdString()}});
        m_out << QString::fromStdString(arr.dump(2)) << Qt::endl;
    } else {
        for (const auto &s : sessions)
            m_out << QStringLiteral("%1  %2  (%3 task(s))\n").arg(s.id, -4).arg(s.name).arg(s.taskCount);
    }
    finish(Ok);
}

void Ctl::cmdAttach()
{
    if (m_args.size() < 3)
        return fail(QStringLiteral("usage: eddyctl attach SESSION QUERY (e.g. tool=run_cfd_case status=completed reynolds=400)"), Usage);
    Store::TaskQuery q;
    const QStringList terms = m_args.mid(2).join(QLatin1Char(' ')).split(QRegularExpression(QStringLiteral("[\\s,]+")), Qt::SkipEmptyParts);
    for (const QString &term : terms) {
        const int eq = term.indexOf(QLatin1Char('='));
        if (eq <= 0)
            return fail(QStringLiteral("query term \"%1\" is not NAME=VALUE.").arg(term), Usage);
        const QString key = term.left(eq);
        const QString value = term.mid(eq + 1);
        if (key == QLatin1String("server")) {
            q.serverUrl = value;
        } else if (key == QLatin1String("tool")) {
            q.tool = value;
        } else if (key == QLatin1String("status")) {
            q.status = Store::taskStatusFromString(value);
            if (!q.status)
                return fail(QStringLiteral("unknown status \"%1\".").arg(value), Usage);
        } else if (key == QLatin1String("sweep")) {
            q.sweepId = value.toLongLong();
        } else if (key == QLatin1String("from") || key == QLatin1String("to")) {
            QDateTime t = QDateTime::fromString(value, Qt::ISODate);
            if (!t.isValid())
                t = QDate::fromString(value, Qt::ISODate).startOfDay(Qt::UTC);
            if (!t.isValid())
                return fail(QStringLiteral("%1=%2: use an ISO date such as 2026-11-29 or 2026-11-29T20:00:00Z.").arg(key, value), Usage);
            (key == QLatin1String("from") ? q.fromMs : q.toMs) = t.toMSecsSinceEpoch();
        } else {
            q.arguments.append({key.startsWith(QLatin1String("arg.")) ? key.mid(4) : key, value});
        }
    }
    if (!openEngine(false))
        return;
    qint64 session = -1;
    if (auto s = m_engine.catalogue().sessionByName(m_args[1]))
        session = s->id;
    else
        session = m_engine.createSession(m_args[1]);
    if (session < 0)
        return finish(Failure);
    const int n = m_engine.attachTasks(session, q);
    if (n < 0)
        return finish(Failure);
    if (m_json)
        m_out << QString::fromStdString(json{{"session", m_args[1].toStdString()}, {"attached", n}}.dump()) << Qt::endl;
    else
        m_out << QStringLiteral("attached %1 task(s) to session \"%2\"").arg(n).arg(m_args[1]) << Qt::endl;
    finish(Ok);
}

void Ctl::cmdAgent()
{
    if (m_args.size() != 2 || m_args[1].trimmed().isEmpty())
        return fail(QStringLiteral("usage: eddyctl agent \"PROMPT\" [--session NAME] [--yes] [--agent-url URL]"), Usage);
    if (!m_agentContext.isEmpty()) {
        bool ok = false;
        m_agentSettings.contextTokens = m_agentContext.toInt(&ok);
        if (!ok)
            return fail(QStringLiteral("--agent-context needs a number of tokens, e.g. 8192."), Usage);
    }
    if (const QString problem = m_agentSettings.problem(); !problem.isEmpty())
        return fail(problem, Usage);
    if (!openEngine(true))
        return;
    m_agent = new Agent::Agent(&m_engine, this);
    m_agent->setSettings(m_agentSettings);
    // Headless: nobody can confirm, so destructive calls run only with --yes, and answers to a
    // task's questions are never sent (Agent refuses them outside Ask).
    m_agent->setConfirmationPolicy(m_yes ? Agent::Agent::ConfirmationPolicy::AllowAll
                                         : Agent::Agent::ConfirmationPolicy::DenyAll);
    if (!m_agent->openConversation(m_session))
        return fail(m_agent->errorString());
    m_err << "conversation: " << m_agent->sessionName() << Qt::endl;
    connect(m_agent, &Agent::Agent::contentDelta, this, [this](const QString &text) {
        m_out << text;
        m_out.flush();
        m_atLineStart = text.endsWith(QLatin1Char('\n'));
    });
    connect(m_agent, &Agent::Agent::toolCardReady, this,
            [this](const QString &tool, const QString &card, const QList<qint64> &, bool ok) {
        if (!m_atLineStart)
            m_out << Qt::endl;
        m_out << (ok ? "[tool] " : "[tool failed] ") << (card.isEmpty() ? tool : card) << Qt::endl;
        m_atLineStart = true;
    });
    connect(m_agent, &Agent::Agent::turnFinished, this, [this](bool ok, const QString &error) {
        if (!m_atLineStart)
            m_out << Qt::endl;
        if (!ok)
            return fail(error);
        finish(Ok);
    });
    m_agent->send(m_args[1]);
}

} // namespace Eddy::Cli
