#include "app/monitor/answersender.h"
#include "app/monitor/engine_p.h"
#include "app/monitor/sharing.h"

namespace Eddy::Monitor {

AnswerSender::AnswerSender(Engine &hub)
    : m_hub(hub)
{
}

void AnswerSender::answerInput(qint64 taskId, const QString &key, const QByteArray &elicitResultJson,
                               const QString &answeredBy)
{
    const json answer = json::parse(elicitResultJson.constBegin(), elicitResultJson.constEnd(), nullptr, false);
    QString error;
    if (m_hub.isReadOnly()) {
        emit m_hub.inputAnswered(taskId, key, false, Engine::readOnlyMessage());
        return;
    }
    if (answer.is_discarded()) {
        emit m_hub.inputAnswered(taskId, key, false,
                                 Engine::tr("The answer is not valid JSON; give an object like "
                                                "{\"action\": \"accept\", \"content\": {...}}."));
        return;
    }
    const auto t = m_hub.m_store.task(taskId);
    if (!t || !t->isLive()) {
        // Said of "its task": the window puts the case's own label in front ("Sweep 1 · case 7"),
        // eddyctl the task it was given; a bare number here would name it a second, other way.
        emit m_hub.inputAnswered(taskId, key, false, t ? Engine::tr("Its task has already ended.")
                                                       : Engine::tr("There is no such task."));
        return;
    }
    if (m_hub.m_sharing ? !m_hub.m_sharing->beginAnswer(taskId, key, answer, answeredBy, &error)
                        : !m_hub.m_inbox->beginAnswer(taskId, key, answer, &error, answeredBy)) {
        emit m_hub.inputAnswered(taskId, key, false, error);
        return;
    }
    send(taskId, key, answer);
}

void AnswerSender::send(qint64 taskId, const QString &key, const json &answer, int attempt)
{
    const auto t = m_hub.m_store.task(taskId);
    if (t && !t->isLive()) {
        // The task ended while its answer was on the way: after a crash between the server
        // taking the answer and its ack being stored (a poll may well have stored the end
        // first), or during a retry. Either way the question closed with the task and can never
        // be asked again, so it is not reopened; the engineer's answer stays on record.
        m_hub.m_inbox->answerSent(taskId, key, true);
        emit m_hub.inputAnswered(taskId, key, true, {});
        return;
    }
    ServerLink *l = t ? m_hub.link(t->serverId) : nullptr;
    if (!l) {
        m_hub.m_inbox->answerSent(taskId, key, false);
        emit m_hub.inputAnswered(taskId, key, false, Engine::tr("The task's server is not configured."));
        return;
    }
    m_hub.followerFor(t->pattern).answer(*t, key, answer, attempt);
}

void AnswerSender::resume()
{
    // Answers stored but maybe never acknowledged before a crash: the server ignores a key it
    // already has, so sending again is safe.
    for (const Store::InputRequestRecord &r : m_hub.m_store.answeringInputRequests()) {
        if (m_hub.m_sharing && !m_hub.m_sharing->takeAnswer(r.taskId, r.key))
            continue; // another process is sending it
        const json answer = json::parse(r.answer.toStdString(), nullptr, false);
        if (!answer.is_discarded())
            send(r.taskId, r.key, answer);
    }
}

void AnswerSender::autoAnswer(const Store::InputRequestRecord &request)
{
    if (!m_autoAnswers)
        return;
    if (const auto now = m_hub.m_store.inputRequest(request.taskId, request.key);
        now && now->state != Store::InputState::Pending)
        return; // answered meanwhile (by another process on the database)
    const json req = json::parse(request.request.toStdString(), nullptr, false);
    QString error;
    const json answer = InputInbox::answerFromValues(req, *m_autoAnswers, &error);
    if (answer.is_null()) {
        emit m_hub.operationFailed(
            Engine::tr("Task %1, question \"%2\": %3").arg(request.taskId).arg(request.key, error));
        return;
    }
    answerInput(request.taskId, request.key, QByteArray::fromStdString(answer.dump()), QStringLiteral("eddyctl"));
}

} // namespace Eddy::Monitor
