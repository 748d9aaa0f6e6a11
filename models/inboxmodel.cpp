#include "models/inboxmodel.h"

#include "models/tasktablemodel.h"

#include <QDateTime>
#include <QLocale>
#include <QPalette>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <set>
#include <utility>

namespace Eddy {

using json = nlohmann::json;

namespace {

QString str(const json &j)
{
    return j.is_string() ? QString::fromStdString(j.get<std::string>()) : QString::fromStdString(j.dump());
}

// The requestedSchema of a stored InputRequest (empty object when it has none).
json schemaOf(const Store::InputRequestRecord &r)
{
    const auto j = json::parse(r.request.toStdString(), nullptr, false);
    if (!j.is_object())
        return json::object();
    const json params = j.value("params", json::object());
    const json schema = params.is_object() ? params.value("requestedSchema", json::object()) : json::object();
    return schema.is_object() ? schema : json::object();
}

// A field's value as the form showed it: an enum's title rather than its constant.
QString valueText(const json &property, const json &value)
{
    if (property.is_object() && property.contains("oneOf") && property["oneOf"].is_array()) {
        for (const auto &option : property["oneOf"]) {
            if (option.is_object() && option.value("const", json()) == value && option.value("title", json()).is_string())
                return QString::fromStdString(option["title"].get<std::string>());
        }
    }
    if (value.is_boolean())
        return value.get<bool>() ? InboxModel::tr("yes") : InboxModel::tr("no");
    return str(value);
}

} // namespace

InboxModel::InboxModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

InboxModel::~InboxModel() = default;

int InboxModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int InboxModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString InboxModel::messageOf(const Store::InputRequestRecord &request)
{
    const auto j = json::parse(request.request.toStdString(), nullptr, false);
    if (j.is_object()) {
        const auto params = j.value("params", json::object());
        if (params.is_object() && params.value("message", json()).is_string())
            return QString::fromStdString(params["message"].get<std::string>());
        if (j.value("method", json()).is_string())
            return tr("The server asks: %1").arg(QString::fromStdString(j["method"].get<std::string>()));
    }
    return tr("The server asks for input.");
}

QString InboxModel::answerSummary(const Store::InputRequestRecord &request)
{
    if (request.state == Store::InputState::Pending)
        return {};
    if (request.state == Store::InputState::Closed)
        return tr("Closed, not answered");
    const auto answer = json::parse(request.answer.toStdString(), nullptr, false);
    const std::string action = answer.is_object() ? answer.value("action", std::string()) : std::string();
    if (action == "decline")
        return tr("Declined");
    if (action == "cancel")
        return tr("Dismissed");
    if (action != "accept")
        return tr("Answered");
    const json content = answer.value("content", json());
    if (!content.is_object() || content.empty())
        return tr("Accepted");
    const json props = schemaOf(request).value("properties", json::object());
    QStringList parts;
    for (auto it = content.begin(); it != content.end(); ++it) {
        const json property = props.is_object() ? props.value(it.key(), json::object()) : json::object();
        const QString title = property.is_object() && property.value("title", json()).is_string()
                                  ? QString::fromStdString(property["title"].get<std::string>())
                                  : QString::fromStdString(it.key());
        parts << tr("%1: %2").arg(title, valueText(property, it.value()));
    }
    return parts.join(QStringLiteral("; "));
}

QString InboxModel::answerText(const Store::InputRequestRecord &request, std::optional<Store::TaskStatus> endedAs)
{
    if (request.state == Store::InputState::Pending)
        return tr("Not answered yet.");
    if (request.state == Store::InputState::Closed) {
        if (const QString why = closedWhy(request, endedAs); !why.isEmpty())
            return tr("Not answered: %1.").arg(why);
        // Closed by the server's removal (TaskStore::removeServer); an answer being sent then
        // never went out.
        return request.answer.isEmpty()
                   ? tr("Not answered: the question was closed when its server was removed "
                        "from Eddy.")
                   : tr("Not sent: the question was closed when its server was removed from "
                        "Eddy, before the answer went out.");
    }
    QString text = answerSummary(request);
    const QString when = request.answeredAtMs
                             ? QLocale().toString(QDateTime::fromMSecsSinceEpoch(*request.answeredAtMs), QLocale::ShortFormat)
                             : QString();
    if (!request.answeredBy.isEmpty() && !when.isEmpty())
        text = tr("%1 — by %2, %3").arg(text, request.answeredBy, when);
    else if (!request.answeredBy.isEmpty())
        text = tr("%1 — by %2").arg(text, request.answeredBy);
    else if (!when.isEmpty())
        text = tr("%1 — %2").arg(text, when);
    if (request.state == Store::InputState::Answering)
        text = tr("%1 (sending...)").arg(text);
    return text;
}

QString InboxModel::closedWhy(const Store::InputRequestRecord &request, std::optional<Store::TaskStatus> endedAs)
{
    if (request.state != Store::InputState::Closed || !endedAs || !isTerminal(*endedAs))
        return {};
    if (*endedAs == Store::TaskStatus::Cancelled)
        return tr("its case was cancelled before an answer was given");
    return tr("its task ended (%1) before an answer was given").arg(TaskTableModel::statusText(*endedAs));
}

QVariant InboxModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case MessageColumn: return tr("Question");
    case CaseColumn: return tr("Case");
    case ServerColumn: return tr("Server");
    case WaitingColumn: return tr("Waiting");
    case AnswerColumn: return tr("Answer");
    default: return {};
    }
}

QVariant InboxModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Store::InputRequestRecord &r = m_rows[index.row()];
    const bool open = r.state == Store::InputState::Pending;
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case MessageColumn: return messageOf(r).simplified(); // one line; the tooltip keeps it as sent
        case CaseColumn: return m_describe ? m_describe(r.taskId).first : tr("Task %1").arg(r.taskId);
        case ServerColumn: return m_describe ? m_describe(r.taskId).second : QString();
        case WaitingColumn: {
            if (!open)
                return r.state == Store::InputState::Answering ? tr("sending")
                       : r.state == Store::InputState::Closed  ? tr("closed")
                                                               : tr("answered");
            const qint64 now = m_fixedNow ? m_fixedNow : QDateTime::currentMSecsSinceEpoch();
            return TaskTableModel::durationText(now - r.firstSeenAtMs);
        }
        case AnswerColumn: return open ? QString() : answerSummary(r);
        default: return {};
        }
    case Qt::ToolTipRole: {
        QString tip = messageOf(r);
        if (m_describe)
            tip = tr("%1\n\nAsked by %2 (%3).").arg(tip, m_describe(r.taskId).first, m_describe(r.taskId).second);
        return tr("%1\n\nAnswer: %2").arg(tip, answerText(r, endedAs(r.taskId)));
    }
    case Qt::ForegroundRole:
        if (!open)
            return QPalette().brush(QPalette::Disabled, QPalette::Text);
        return {};
    case TaskIdRole: return r.taskId;
    case KeyRole: return r.key;
    case RequestRole: return r.request;
    case StateRole: return int(r.state);
    case AnswerTextRole: return answerText(r, endedAs(r.taskId));
    case BeforeTaskRole:
        return isCaseKey(r.taskId);
    default: return {};
    }
}

int InboxModel::rowOf(qint64 taskId, const QString &key) const
{
    for (int i = 0; i < m_rows.size(); ++i) {
        if (m_rows[i].taskId == taskId && m_rows[i].key == key)
            return i;
    }
    return -1;
}

int InboxModel::pendingCount() const
{
    return int(std::count_if(m_rows.begin(), m_rows.end(),
                             [](const auto &r) { return r.state == Store::InputState::Pending; }));
}

int InboxModel::firstPendingRow() const
{
    for (int i = 0; i < m_rows.size(); ++i) {
        if (m_rows[i].state == Store::InputState::Pending)
            return i;
    }
    return -1;
}

QList<const Store::InputRequestRecord *> InboxModel::pendingOf(qint64 taskId) const
{
    QList<const Store::InputRequestRecord *> out;
    for (const auto &r : m_rows) {
        if (r.taskId == taskId && r.state == Store::InputState::Pending)
            out << &r;
    }
    return out;
}

void InboxModel::setRequests(const QList<Store::InputRequestRecord> &requests)
{
    beginResetModel();
    // The store's list has tasks' questions only: the pre-task ones stay (they come from the
    // engine and go when their case gets a task or is answered).
    QList<Store::InputRequestRecord> before;
    for (const auto &r : std::as_const(m_rows)) {
        if (isCaseKey(r.taskId))
            before << r;
    }
    m_rows = before;
    for (const auto &r : requests) {
        if (rowOf(r.taskId, r.key) < 0)
            m_rows.push_back(r);
    }
    std::stable_sort(m_rows.begin(), m_rows.end(), [](const auto &a, const auto &b) { return a.id < b.id; });
    endResetModel();
    Q_EMIT countChanged(pendingCount());
}

int InboxModel::addRequests(const QList<Store::InputRequestRecord> &requests)
{
    int added = 0;
    bool answered = false;
    QList<Store::InputRequestRecord> fresh;
    std::set<std::pair<qint64, QString>> freshKeys; // a question twice in one batch is listed once
    for (const auto &r : requests) {
        if (const int row = rowOf(r.taskId, r.key); row >= 0) {
            Store::InputRequestRecord &listed = m_rows[row];
            if (r.state != Store::InputState::Pending && listed.state != Store::InputState::Answered) {
                listed = r;
                emitRow(row);
                answered = true;
            }
            continue;
        }
        if (r.state != Store::InputState::Pending || !freshKeys.insert({r.taskId, r.key}).second)
            continue;
        fresh.push_back(r);
    }
    // New questions in one insertion: one per row made every view redo its layout per row.
    if (!fresh.isEmpty()) {
        beginInsertRows({}, rowCount(), rowCount() + int(fresh.size()) - 1);
        m_rows.append(fresh);
        endInsertRows();
        added = int(fresh.size());
    }
    if (added || answered)
        Q_EMIT countChanged(pendingCount());
    return added;
}

bool InboxModel::addCaseQuestion(const Store::CaseRecord &caseRecord,
                                 const QString &key,
                                 const QString &request)
{
    if (caseRecord.id <= 0)
        return false;
    const qint64 rowKey = caseKey(caseRecord.id);
    m_cases.insert(caseRecord.id, caseRecord);
    if (const int row = rowOf(rowKey, key); row >= 0) {
        Store::InputRequestRecord &r = m_rows[row];
        if (r.state == Store::InputState::Pending || r.request == request)
            return false; // listed already (or its answer is on its way)
        // A later round of the same call asks under the same key: open again, in place.
        r.request = request;
        r.state = Store::InputState::Pending;
        r.answer.clear();
        r.answeredBy.clear();
        r.answeredAtMs.reset();
        r.firstSeenAtMs = m_fixedNow ? m_fixedNow : QDateTime::currentMSecsSinceEpoch();
        emitRow(row);
        Q_EMIT countChanged(pendingCount());
        return true;
    }
    Store::InputRequestRecord r;
    r.taskId = rowKey;
    r.key = key;
    r.request = request;
    r.state = Store::InputState::Pending;
    r.firstSeenAtMs = m_fixedNow ? m_fixedNow : QDateTime::currentMSecsSinceEpoch();
    const int row = rowCount();
    beginInsertRows({}, row, row);
    m_rows.push_back(r);
    endInsertRows();
    Q_EMIT countChanged(pendingCount());
    return true;
}

const Store::CaseRecord *InboxModel::caseOf(qint64 taskId) const
{
    if (!isCaseKey(taskId))
        return nullptr;
    const auto it = m_cases.constFind(-taskId);
    return it == m_cases.constEnd() ? nullptr : &it.value();
}

bool InboxModel::removeRequest(qint64 taskId, const QString &key)
{
    const int row = rowOf(taskId, key);
    if (row < 0)
        return false;
    beginRemoveRows({}, row, row);
    m_rows.removeAt(row);
    endRemoveRows();
    Q_EMIT countChanged(pendingCount());
    return true;
}

bool InboxModel::addRecord(const Store::InputRequestRecord &request)
{
    if (request.state == Store::InputState::Pending || rowOf(request.taskId, request.key) >= 0)
        return false;
    // Where setRequests() puts it: in the order asked, after the pre-task questions.
    int row = 0;
    while (row < rowCount() && m_rows[row].id <= request.id)
        ++row;
    beginInsertRows({}, row, row);
    m_rows.insert(row, request);
    endInsertRows();
    return true;
}

std::optional<Store::TaskStatus> InboxModel::endedAs(qint64 taskId) const
{
    return m_endedAs ? m_endedAs(taskId) : std::nullopt;
}

void InboxModel::closeTask(qint64 taskId, qint64 atMs)
{
    bool closed = false;
    for (int row = 0; row < rowCount(); ++row) {
        Store::InputRequestRecord &r = m_rows[row];
        if (r.taskId != taskId || r.state != Store::InputState::Pending)
            continue;
        r.state = Store::InputState::Closed;
        r.answeredAtMs = atMs;
        emitRow(row);
        closed = true;
    }
    if (closed)
        Q_EMIT countChanged(pendingCount());
}

void InboxModel::removeTask(qint64 taskId)
{
    bool removed = false;
    for (int row = rowCount() - 1; row >= 0; --row) {
        if (m_rows[row].taskId != taskId || m_rows[row].state != Store::InputState::Pending)
            continue;
        beginRemoveRows({}, row, row);
        m_rows.removeAt(row);
        endRemoveRows();
        removed = true;
    }
    if (removed)
        Q_EMIT countChanged(pendingCount());
}

void InboxModel::setAnswering(qint64 taskId, const QString &key, const QString &answerJson,
                              const QString &answeredBy, qint64 atMs)
{
    const int row = rowOf(taskId, key);
    if (row < 0)
        return;
    Store::InputRequestRecord &r = m_rows[row];
    r.state = Store::InputState::Answering;
    r.answer = answerJson;
    r.answeredBy = answeredBy;
    r.answeredAtMs = atMs;
    emitRow(row);
    Q_EMIT countChanged(pendingCount());
}

void InboxModel::setAnswerSent(qint64 taskId, const QString &key, bool ok)
{
    const int row = rowOf(taskId, key);
    if (row < 0 || m_rows[row].state != Store::InputState::Answering)
        return;
    Store::InputRequestRecord &r = m_rows[row];
    if (ok) {
        r.state = Store::InputState::Answered;
    } else {
        r.state = Store::InputState::Pending; // open again: the answer did not arrive
        r.answer.clear();
        r.answeredBy.clear();
        r.answeredAtMs.reset();
    }
    emitRow(row);
    Q_EMIT countChanged(pendingCount());
}

void InboxModel::emitRow(int row)
{
    Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
}

void InboxModel::refreshDescriptions()
{
    if (!m_rows.isEmpty())
        Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
}

const Store::InputRequestRecord *InboxModel::request(int row) const
{
    return row >= 0 && row < m_rows.size() ? &m_rows[row] : nullptr;
}

} // namespace Eddy
