#pragma once

#include "app/vocab/records.h"

#include <QByteArray>
#include <QString>

#include <nlohmann/json.hpp>

#include <optional>

namespace Eddy::Monitor {

class Engine;

// The answers to a task's questions: checks an answer, records it in the inbox (or through
// Sharing, which holds it for this process), hands it to the task's follower by its pattern,
// sends again the answers a crash left unacknowledged, and answers new questions from
// eddyctl --answers. Lives on the engine's thread; the engine (its hub) owns it and the sender
// emits the hub's signals.
class AnswerSender final
{
    Q_DISABLE_COPY_MOVE(AnswerSender)

public:
    explicit AnswerSender(Engine &hub);

    // Engine::setAutoAnswers(): the values new questions are answered from (none: a human).
    void setAutoAnswers(std::optional<nlohmann::json> values) { m_autoAnswers = std::move(values); }
    const std::optional<nlohmann::json> &autoAnswers() const { return m_autoAnswers; }

    // Engine::answerInput().
    void answerInput(qint64 taskId, const QString &key, const QByteArray &elicitResultJson,
                     const QString &answeredBy);
    // An answer already recorded goes to the task's follower (attempt: of a retry).
    void send(qint64 taskId, const QString &key, const nlohmann::json &answer, int attempt = 0);
    // Answers stored but maybe never acknowledged before a crash are sent again.
    void resume();
    // Answers `request` from the auto answers, when set.
    void autoAnswer(const Store::InputRequestRecord &request);

private:
    Engine &m_hub;
    std::optional<nlohmann::json> m_autoAnswers;
};

} // namespace Eddy::Monitor
