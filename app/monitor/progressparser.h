#pragma once

#include "app/vocab/records.h"

#include <QList>
#include <QRegularExpression>
#include <QString>

#include <optional>

namespace Eddy::Monitor {

// statusMessage -> progress samples. Built-in templates: "iteration N of M", "residual X",
// per-field residuals "(u 2.0e-4, v 3.1e-4, ω 8.7e-5)" named as written, "NN%", "time = T", "step N",
// "queued, position N"; plus user templates (regexes with named captures, per tool) whose every
// numeric named capture becomes a series. Value type; any thread.
class ProgressParser final
{
public:
    // Series names produced by the built-ins.
    static inline const QString Iteration = QStringLiteral("iteration");
    static inline const QString MaxIterations = QStringLiteral("max_iterations");
    static inline const QString Residual = QStringLiteral("residual");   // fields: "residual.u"
    static inline const QString Percent = QStringLiteral("percent");
    static inline const QString Time = QStringLiteral("time");
    static inline const QString Step = QStringLiteral("step");
    static inline const QString QueuePosition = QStringLiteral("queue_position");

    // Adds user templates; a bad pattern is skipped and reported in the returned list.
    QStringList setTemplates(const QList<Store::ProgressTemplate> &templates);
    // Checks a pattern before it is stored: empty when usable, else what is wrong.
    static QString checkPattern(const QString &pattern);

    // Samples for one message seen at atMs. x is the iteration (or step) when the message has
    // one ("iteration 40 of 200", "after 812 iterations"), else its time value, else fallbackX
    // (the caller's last x for the task), else 0: never the clock.
    QList<Store::ProgressSample> parse(const QString &message, const QString &tool, qint64 atMs,
                                       qint64 taskId = 0,
                                       std::optional<double> fallbackX = std::nullopt) const;
    // The residual history a result may carry (docs/sweeps.md): structuredContent.
    // residual_history = {"iteration": [...], "<field>": [...], ...} -> samples "residual.<field>"
    // at x = iteration, plus "residual" (the history's own "residual" array, else the largest
    // field at each point). Empty when the result has none or it is malformed.
    static QList<Store::ProgressSample> historySamples(const QString &resultJson, qint64 taskId,
                                                       qint64 atMs);
    // True when the samples of one message carry their own x (an iteration, step or time).
    static bool hasOwnX(const QList<Store::ProgressSample> &samples);

private:
    struct Compiled
    {
        QString tool;
        QString name;
        QRegularExpression re;
    };
    QList<Compiled> m_templates;
};

} // namespace Eddy::Monitor
