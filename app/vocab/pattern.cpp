#include "app/vocab/pattern.h"

namespace Eddy {

namespace {
struct Named
{
    Pattern pattern;
    QString name;
};

const Named (&names())[3]
{
    static const Named n[3] = {{Pattern::Task, QStringLiteral("task")},
                               {Pattern::Streamed, QStringLiteral("streamed")},
                               {Pattern::Job, QStringLiteral("job")}};
    return n;
}
} // namespace

const QString &patternName(Pattern pattern)
{
    for (const Named &n : names())
        if (n.pattern == pattern)
            return n.name;
    return names()[0].name; // not reached: every enumerator is in the table
}

std::optional<Pattern> patternFromName(QStringView name)
{
    for (const Named &n : names())
        if (n.name == name)
            return n.pattern;
    return std::nullopt;
}

} // namespace Eddy
