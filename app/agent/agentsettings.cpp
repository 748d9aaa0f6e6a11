#include "app/agent/agentsettings.h"

#include <QUrl>

namespace Eddy::Agent {

QString AgentSettings::problem() const
{
    if (!isConfigured())
        return QStringLiteral("No model endpoint is configured: set the agent's base URL, e.g. "
                              "http://127.0.0.1:8080/v1 for llama-server or "
                              "http://127.0.0.1:11434/v1 for Ollama (eddyctl: --agent-url or "
                              "EDDY_AGENT_URL).");
    const QUrl url(baseUrl.trimmed());
    if (!url.isValid() || (url.scheme() != QLatin1String("http") && url.scheme() != QLatin1String("https"))
        || url.host().isEmpty())
        return QStringLiteral("The agent's base URL \"%1\" is not an http(s) URL; give one like "
                              "http://127.0.0.1:8080/v1.").arg(baseUrl);
    if (notesRoleError)
        return QStringLiteral("EDDY_AGENT_NOTES must be \"user\" or \"system\".");
    if (contextTokens < 256)
        return QStringLiteral("The context budget of %1 tokens is too small; give at least 256.")
            .arg(contextTokens);
    return {};
}

AgentSettings AgentSettings::fromEnvironment(AgentSettings s)
{
    if (qEnvironmentVariableIsSet("EDDY_AGENT_URL"))
        s.baseUrl = qEnvironmentVariable("EDDY_AGENT_URL");
    if (qEnvironmentVariableIsSet("EDDY_AGENT_MODEL"))
        s.model = qEnvironmentVariable("EDDY_AGENT_MODEL");
    if (qEnvironmentVariableIsSet("EDDY_AGENT_KEY"))
        s.apiKey = qEnvironmentVariable("EDDY_AGENT_KEY");
    if (qEnvironmentVariableIsSet("EDDY_AGENT_CONTEXT")) {
        bool ok = false;
        const int n = qEnvironmentVariableIntValue("EDDY_AGENT_CONTEXT", &ok);
        s.contextTokens = ok ? n : 0; // 0 makes problem() say what is wrong
    }
    if (qEnvironmentVariableIsSet("EDDY_AGENT_STREAM"))
        s.stream = qEnvironmentVariable("EDDY_AGENT_STREAM") != QLatin1String("0");
    if (qEnvironmentVariableIsSet("EDDY_AGENT_NOTES")) {
        const QString v = qEnvironmentVariable("EDDY_AGENT_NOTES").trimmed().toLower();
        s.notesAsSystem = v == QLatin1String("system");
        s.notesRoleError = v != QLatin1String("system") && v != QLatin1String("user");
    }
    return s;
}

QString AgentSettings::chatUrl() const
{
    QString base = baseUrl.trimmed();
    while (base.endsWith(QLatin1Char('/')))
        base.chop(1);
    if (base.endsWith(QLatin1String("/chat/completions")))
        return base;
    return base + QStringLiteral("/chat/completions");
}

} // namespace Eddy::Agent
