#include "app/monitor/inputinbox.h"
#include "app/vocab/schemavalidator.h"
#include "app/store/taskstore.h"

#include <QDateTime>

#include <functional>
#include <string_view>

namespace Eddy::Monitor {

using json = nlohmann::json;

QList<Store::InputRequestRecord> InputInbox::observe(qint64 taskId, const json &inputRequests)
{
    bool complete = false;
    return record(taskId, inputRequests, &complete);
}

QList<Store::InputRequestRecord> InputInbox::observe(qint64 taskId, const Mcp::RawJson &inputRequests)
{
    if (!inputRequests.is_object())
        return {};
    const size_t hash = std::hash<std::string_view>()(inputRequests.text());
    if (const auto last = m_lastSeen.constFind(taskId); last != m_lastSeen.cend() && *last == hash)
        return {}; // the questions of the last poll again: every key is on record already
    bool complete = false;
    const QList<Store::InputRequestRecord> fresh = record(taskId, inputRequests.parsed(), &complete);
    if (complete)
        m_lastSeen.insert(taskId, hash);
    else
        m_lastSeen.remove(taskId); // try every key again on the next poll
    return fresh;
}

QList<Store::InputRequestRecord> InputInbox::record(qint64 taskId, const json &inputRequests,
                                                    bool *complete)
{
    QList<Store::InputRequestRecord> fresh;
    *complete = inputRequests.is_object();
    if (!inputRequests.is_object())
        return fresh;
    for (auto it = inputRequests.begin(); it != inputRequests.end(); ++it) {
        bool isNew = false;
        const auto rec = m_store.recordInputRequest(taskId, QString::fromStdString(it.key()),
                                                    QString::fromStdString(it.value().dump()), &isNew);
        if (!rec)
            *complete = false;
        else if (isNew)
            fresh << *rec;
    }
    return fresh;
}

bool InputInbox::beginAnswer(qint64 taskId, const QString &key, const json &answer, QString *error,
                             const QString &answeredBy)
{
    const auto rec = m_store.inputRequest(taskId, key);
    if (!rec) {
        if (error)
            *error = InputInbox::tr("Task %1 has no question \"%2\"; list open questions with "
                                    "eddyctl tasks --status input_required.").arg(taskId).arg(key);
        return false;
    }
    if (rec->state != Store::InputState::Pending) {
        if (error)
            *error = InputInbox::tr("The question \"%1\" of task %2 was already answered; each "
                                    "question is answered once.").arg(key).arg(taskId);
        return false;
    }
    if (!answer.is_object() || !answer.contains("action") || !answer["action"].is_string()) {
        if (error)
            *error = InputInbox::tr("An answer is a JSON object like {\"action\": \"accept\", "
                                    "\"content\": {...}} (or action decline/cancel).");
        return false;
    }
    if (!m_store.beginAnswer(taskId, key, QString::fromStdString(answer.dump()), answeredBy)) {
        if (error)
            *error = m_store.lastError();
        return false;
    }
    return true;
}

void InputInbox::answerSent(qint64 taskId, const QString &key, bool ok)
{
    m_store.finishAnswer(taskId, key, ok);
}

QList<Store::InputRequestRecord> InputInbox::pending() const
{
    return m_store.pendingInputRequests();
}

QString InputInbox::answerSummary(const QList<Store::InputRequestRecord> &requests)
{
    QStringList parts;
    for (const Store::InputRequestRecord &r : requests) {
        if (r.state == Store::InputState::Pending || r.state == Store::InputState::Closed)
            continue; // not answered (a closed question's answer, if any, was never sent)
        const json answer = json::parse(r.answer.toStdString(), nullptr, false);
        QString part = answer.is_object() && answer.value("action", json()).is_string()
                           ? QString::fromStdString(answer["action"].get<std::string>())
                           : QStringLiteral("answered");
        if (answer.is_object() && answer.contains("content"))
            part += QLatin1Char(' ') + QString::fromStdString(answer["content"].dump());
        if (!r.answeredBy.isEmpty())
            part += QStringLiteral(" by ") + r.answeredBy;
        if (r.answeredAtMs)
            part += QStringLiteral(" at ")
                    + QDateTime::fromMSecsSinceEpoch(*r.answeredAtMs, Qt::UTC).toString(Qt::ISODate);
        parts << part;
    }
    return parts.join(QStringLiteral("; "));
}

json InputInbox::answerFromValues(const json &request, const json &values, QString *error)
{
    const json params = request.is_object() ? request.value("params", json::object()) : json::object();
    const std::string method = request.is_object() ? request.value("method", std::string()) : std::string();
    if (method != "elicitation/create" || params.value("mode", std::string("form")) != "form")
        return json{{"action", "decline"}};
    const json schema = params.value("requestedSchema", json::object());
    const json props = schema.value("properties", json::object());
    json content = json::object();
    for (auto it = props.begin(); it != props.end(); ++it) {
        if (values.is_object() && values.contains(it.key()))
            content[it.key()] = values[it.key()];
        else if (it.value().is_object() && it.value().contains("default"))
            content[it.key()] = it.value()["default"];
    }
    const QStringList problems = SchemaValidator::validate(content, schema, QStringLiteral("answer"));
    if (!problems.isEmpty()) {
        if (error)
            *error = InputInbox::tr("Cannot answer \"%1\" from the given values: %2")
                         .arg(QString::fromStdString(params.value("message", std::string())),
                              problems.join(QStringLiteral("; ")));
        return {};
    }
    return json{{"action", "accept"}, {"content", content}};
}

} // namespace Eddy::Monitor
