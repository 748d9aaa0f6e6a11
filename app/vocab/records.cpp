#include "app/vocab/records.h"

#include <QDir>
#include <QStandardPaths>

#include <array>

namespace Eddy::Store {

namespace {
constexpr std::array<const char *, 7> s_statusNames = {
    "working", "input_required", "completed", "failed", "cancelled", "expired", "lost"};
constexpr std::array<const char *, 5> s_caseNames = {
    "pending", "sent", "submitted", "completed", "rejected"};
} // namespace

QString toText(TaskStatus status)
{
    return QString::fromLatin1(s_statusNames[size_t(status)]);
}

std::optional<TaskStatus> taskStatusFromString(QStringView text)
{
    for (size_t i = 0; i < s_statusNames.size(); ++i)
        if (text == QLatin1String(s_statusNames[i]))
            return TaskStatus(i);
    return std::nullopt;
}

bool isTerminal(TaskStatus status)
{
    return status != TaskStatus::Working && status != TaskStatus::InputRequired;
}

QString toText(CaseState state)
{
    return QString::fromLatin1(s_caseNames[size_t(state)]);
}

std::optional<CaseState> caseStateFromString(QStringView text)
{
    for (size_t i = 0; i < s_caseNames.size(); ++i)
        if (text == QLatin1String(s_caseNames[i]))
            return CaseState(i);
    return std::nullopt;
}

QString toText(InputState state)
{
    switch (state) {
    case InputState::Pending: return QStringLiteral("pending");
    case InputState::Answering: return QStringLiteral("answering");
    case InputState::Answered: return QStringLiteral("answered");
    case InputState::Closed: return QStringLiteral("closed");
    }
    return {};
}

std::optional<InputState> inputStateFromString(QStringView text)
{
    for (InputState state : {InputState::Pending, InputState::Answering, InputState::Answered,
                             InputState::Closed})
        if (text == toText(state))
            return state;
    return std::nullopt;
}

std::optional<qint64> TaskRecord::expiresAtMs() const
{
    if (!ttlMs)
        return std::nullopt;
    const QDateTime created = QDateTime::fromString(createdAt, Qt::ISODateWithMs);
    if (!created.isValid())
        return std::nullopt;
    return created.toMSecsSinceEpoch() + *ttlMs;
}

QString tagProblem(const QString &tag)
{
    const QString t = tag.trimmed();
    if (t.isEmpty())
        return QStringLiteral("a tag cannot be empty");
    if (t.size() > 64)
        return QStringLiteral("the tag \"%1...\" is longer than 64 characters").arg(t.left(20));
    for (const QChar c : t)
        if (c.isSpace() || c == QLatin1Char(','))
            return QStringLiteral("the tag \"%1\" holds a space or a comma; a tag is one word "
                                  "(e.g. mesh-study)")
                .arg(t);
    return {};
}

QStringList normalizeTags(const QStringList &tags)
{
    QStringList out;
    for (const QString &tag : tags) {
        const QString t = tag.trimmed();
        if (!t.isEmpty() && !out.contains(t))
            out << t;
    }
    out.sort();
    return out;
}

QString defaultDatabasePath()
{
    QString dir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    if (dir.isEmpty())
        dir = QDir::homePath() + QStringLiteral("/.local/share/eddy");
    return dir + QStringLiteral("/eddy.sqlite");
}

} // namespace Eddy::Store
