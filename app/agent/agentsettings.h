#pragma once

#include <QMetaType>
#include <QString>

namespace Eddy::Agent {

// Where the agent's model lives and how the agent behaves: an OpenAI-compatible Chat Completions
// endpoint (llama.cpp's llama-server, Ollama, vLLM or a hosted one). A plain value; the API key is
// a secret like a server token: never logged, never shown in full.
struct AgentSettings
{
    QString baseUrl;            // e.g. http://127.0.0.1:8080/v1 ("/chat/completions" is appended)
    QString model;              // sent as "model"; local servers mostly ignore it
    QString apiKey;             // sent as a bearer token when not empty
    int contextTokens = 8192;   // estimated tokens (messages + tools) before compaction
    bool stream = true;         // SSE streaming; off = one JSON answer per request
    bool continueOnTaskEvents = false; // a task event starts a turn at once
    int requestTimeoutMs = 300000;     // one model request, whole exchange
    int maxToolRounds = 8;             // model requests per user turn
    // Task events and summaries in the middle of a conversation: false (the default) sends them
    // as user messages starting with "[Eddy] " (folded into the neighbouring user message), which
    // every chat template accepts; true sends "system" messages, which some templates (Gemma,
    // some Mistral ones) reject after the first message.
    bool notesAsSystem = false;
    bool notesRoleError = false;       // EDDY_AGENT_NOTES was neither; problem() says so

    bool isConfigured() const { return !baseUrl.trimmed().isEmpty(); }
    // Empty when usable, else one sentence that says what to fix.
    QString problem() const;
    // EDDY_AGENT_URL, EDDY_AGENT_MODEL, EDDY_AGENT_KEY, EDDY_AGENT_CONTEXT, EDDY_AGENT_STREAM (0/1),
    // EDDY_AGENT_NOTES (user/system) over `base`.
    static AgentSettings fromEnvironment(AgentSettings base);
    static AgentSettings fromEnvironment() { return fromEnvironment(AgentSettings()); }
    QString chatUrl() const;
};

} // namespace Eddy::Agent

Q_DECLARE_METATYPE(Eddy::Agent::AgentSettings)
