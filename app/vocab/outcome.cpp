#include "app/vocab/outcome.h"

namespace Eddy::Monitor {

QString OutcomeText::label(Outcome outcome)
{
    switch (outcome) {
    case Outcome::Working:
        return tr("Working");
    case Outcome::NeedsInput:
        return tr("Needs input");
    case Outcome::Converged:
        return tr("Converged");
    case Outcome::Completed:
        return tr("Completed");
    case Outcome::NotConverged:
        return tr("Completed – not converged");
    case Outcome::ToolError:
        return tr("Tool error");
    case Outcome::Failed:
        return tr("Failed");
    case Outcome::Cancelled:
        return tr("Cancelled");
    case Outcome::Expired:
        return tr("Expired");
    case Outcome::Lost:
        return tr("Lost");
    }
    return {};
}

QString OutcomeText::key(Outcome outcome)
{
    switch (outcome) {
    case Outcome::Working:
        return QStringLiteral("working");
    case Outcome::NeedsInput:
        return QStringLiteral("input_required");
    case Outcome::Converged:
        return QStringLiteral("converged");
    case Outcome::Completed:
        return QStringLiteral("completed");
    case Outcome::NotConverged:
        return QStringLiteral("not_converged");
    case Outcome::ToolError:
        return QStringLiteral("tool_error");
    case Outcome::Failed:
        return QStringLiteral("failed");
    case Outcome::Cancelled:
        return QStringLiteral("cancelled");
    case Outcome::Expired:
        return QStringLiteral("expired");
    case Outcome::Lost:
        return QStringLiteral("lost");
    }
    return {};
}

std::optional<bool> convergedOf(const QString &resultJson)
{
    const qsizetype content = resultJson.indexOf(QLatin1String("\"structuredContent\""));
    if (content < 0)
        return std::nullopt;
    static const QLatin1String key("\"converged\"");
    qsizetype at = content;
    while ((at = resultJson.indexOf(key, at + 1)) >= 0) {
        // Inside a string a quote is escaped: \"converged\" is text, not a key.
        if (at > 0 && resultJson.at(at - 1) == QLatin1Char('\\'))
            continue;
        qsizetype i = at + key.size();
        const auto skipSpace = [&] {
            while (i < resultJson.size() && resultJson.at(i).isSpace())
                ++i;
        };
        skipSpace();
        if (i >= resultJson.size() || resultJson.at(i) != QLatin1Char(':'))
            continue;
        ++i;
        skipSpace();
        if (QStringView(resultJson).mid(i).startsWith(QLatin1String("true")))
            return true;
        if (QStringView(resultJson).mid(i).startsWith(QLatin1String("false")))
            return false;
    }
    return std::nullopt;
}

Outcome
outcomeOf(const Store::TaskRecord &task, std::optional<bool> converged, bool reachedIterationLimit)
{
    switch (task.status) {
    case Store::TaskStatus::Working:
        return Outcome::Working;
    case Store::TaskStatus::InputRequired:
        return Outcome::NeedsInput;
    case Store::TaskStatus::Completed:
        if (task.isToolError)
            return Outcome::ToolError;
        if (converged)
            return *converged ? Outcome::Converged : Outcome::NotConverged;
        return reachedIterationLimit ? Outcome::NotConverged : Outcome::Completed;
    case Store::TaskStatus::Failed:
        return Outcome::Failed;
    case Store::TaskStatus::Cancelled:
        return Outcome::Cancelled;
    case Store::TaskStatus::Expired:
        return Outcome::Expired;
    case Store::TaskStatus::Lost:
        return Outcome::Lost;
    }
    return Outcome::Lost;
}

} // namespace Eddy::Monitor
