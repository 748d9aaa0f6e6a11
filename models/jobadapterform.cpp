#include "models/jobadapterform.h"

#include <QHash>

namespace Eddy {

using nlohmann::json;

namespace {

const json *findTool(const json &tools, const QString &name)
{
    if (!tools.is_array())
        return nullptr;
    for (const json &t : tools)
        if (t.is_object() && t.value("name", std::string()) == name.toStdString())
            return &t;
    return nullptr;
}

QString textAt(const json &doc, const char *object, const char *key)
{
    const json o = object ? doc.value(object, json::object()) : doc;
    if (!o.is_object())
        return {};
    const auto it = o.find(key);
    return it != o.end() && it->is_string() ? QString::fromStdString(it->get<std::string>())
                                            : QString();
}

} // namespace

const QStringList &JobAdapterForm::fieldKeys()
{
    // In the dialog's order.
    static const QStringList keys{QStringLiteral("submit.tool"),
                                  QStringLiteral("submit.jobIdPointer"),
                                  QStringLiteral("submit.jobIdRegex"),
                                  QStringLiteral("status.tool"),
                                  QStringLiteral("status.idArgument"),
                                  QStringLiteral("status.batchArgument"),
                                  QStringLiteral("status.batchResultPointer"),
                                  QStringLiteral("status.maxBatch"),
                                  QStringLiteral("status.statePointer"),
                                  QStringLiteral("status.states"),
                                  QStringLiteral("status.progressPointer"),
                                  QStringLiteral("status.messagePointer"),
                                  QStringLiteral("status.questionPointer"),
                                  QStringLiteral("cancelTool"),
                                  QStringLiteral("resultTool"),
                                  QStringLiteral("answerTool"),
                                  QStringLiteral("poll.intervalMs"),
                                  QStringLiteral("poll.backoff"),
                                  QStringLiteral("poll.maxIntervalMs")};
    return keys;
}

QString JobAdapterForm::fieldLabel(const QString &key)
{
    static const QHash<QString, const char *> labels{
        {QStringLiteral("submit.tool"), QT_TR_NOOP("Submit \u25B8 Tool")},
        {QStringLiteral("submit.jobIdPointer"), QT_TR_NOOP("Submit \u25B8 Job id pointer")},
        {QStringLiteral("submit.jobIdRegex"), QT_TR_NOOP("Submit \u25B8 Job id pattern")},
        {QStringLiteral("status.tool"), QT_TR_NOOP("Status \u25B8 Tool")},
        {QStringLiteral("status.idArgument"), QT_TR_NOOP("Status \u25B8 Id argument")},
        {QStringLiteral("status.batchArgument"), QT_TR_NOOP("Status \u25B8 Batch argument")},
        {QStringLiteral("status.batchResultPointer"),
         QT_TR_NOOP("Status \u25B8 Batch answer pointer")},
        {QStringLiteral("status.maxBatch"), QT_TR_NOOP("Status \u25B8 Jobs per batch")},
        {QStringLiteral("status.statePointer"), QT_TR_NOOP("Status \u25B8 State pointer")},
        {QStringLiteral("status.states"), QT_TR_NOOP("Status \u25B8 States")},
        {QStringLiteral("status.progressPointer"), QT_TR_NOOP("Status \u25B8 Progress pointer")},
        {QStringLiteral("status.messagePointer"), QT_TR_NOOP("Status \u25B8 Message pointer")},
        {QStringLiteral("status.questionPointer"), QT_TR_NOOP("Status \u25B8 Question pointer")},
        {QStringLiteral("cancelTool"), QT_TR_NOOP("Cancel tool")},
        {QStringLiteral("resultTool"), QT_TR_NOOP("Result tool")},
        {QStringLiteral("answerTool"), QT_TR_NOOP("Answer tool")},
        {QStringLiteral("poll.intervalMs"), QT_TR_NOOP("Polling \u25B8 First interval")},
        {QStringLiteral("poll.backoff"), QT_TR_NOOP("Polling \u25B8 Backoff")},
        {QStringLiteral("poll.maxIntervalMs"), QT_TR_NOOP("Polling \u25B8 Longest interval")}};
    const auto it = labels.constFind(key);
    return it == labels.constEnd() ? key : tr(it.value());
}

QStringList JobAdapterForm::toolNames(const json &tools)
{
    QStringList names;
    if (tools.is_array())
        for (const json &t : tools)
            if (t.is_object() && t.value("name", json()).is_string())
                names << QString::fromStdString(t["name"].get<std::string>());
    return names;
}

QStringList JobAdapterForm::argumentNames(const json &tools, const QString &tool)
{
    QStringList names;
    const json *t = findTool(tools, tool);
    if (!t)
        return names;
    const json schema = t->value("inputSchema", json::object());
    const json props = schema.is_object() ? schema.value("properties", json::object()) : json();
    if (props.is_object())
        for (auto it = props.begin(); it != props.end(); ++it)
            names << QString::fromStdString(it.key());
    return names;
}

std::optional<Monitor::JobAdapter>
JobAdapterForm::validate(const json &adapter, const json &tools, QList<Problem> *problems)
{
    QList<Problem> found;
    // The format's own rules, one message a line, each quoting the key it is about.
    QString error;
    std::optional<Monitor::JobAdapter> a = Monitor::JobAdapter::fromJson(adapter, &error);
    const QStringList lines = error.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    for (const QString &line : lines) {
        // The field a message is about is the first it quotes ("poll.maxIntervalMs" must be at
        // least "poll.intervalMs").
        QString field;
        qsizetype at = -1;
        for (const QString &key : fieldKeys()) {
            const qsizetype i = line.indexOf(QLatin1Char('"') + key + QLatin1Char('"'));
            if (i >= 0 && (at < 0 || i < at)) {
                field = key;
                at = i;
            }
        }
        // "submit" needs "jobIdPointer" or "jobIdRegex": the pointer is the usual way.
        if (field.isEmpty() && line.contains(QLatin1String("\"jobIdPointer\"")))
            field = QStringLiteral("submit.jobIdPointer");
        found << Problem{field, field.isEmpty() ? line : tr("%1: %2").arg(fieldLabel(field), line)};
    }
    // What the server's tools tell: every named tool exists, and the id argument is taken.
    const QStringList names = toolNames(tools);
    if (!names.isEmpty()) {
        const auto checkTool = [&](const QString &key, const QString &tool) {
            if (tool.isEmpty() || names.contains(tool))
                return;
            found << Problem{key,
                             tr("%1: the server offers no tool \"%2\"; pick one of its tools (%3).")
                                 .arg(fieldLabel(key), tool, names.join(QLatin1String(", ")))};
        };
        checkTool(QStringLiteral("submit.tool"), textAt(adapter, "submit", "tool"));
        const QString statusTool = textAt(adapter, "status", "tool");
        checkTool(QStringLiteral("status.tool"), statusTool);
        checkTool(QStringLiteral("cancelTool"), textAt(adapter, nullptr, "cancelTool"));
        checkTool(QStringLiteral("resultTool"), textAt(adapter, nullptr, "resultTool"));
        checkTool(QStringLiteral("answerTool"), textAt(adapter, nullptr, "answerTool"));
        const QStringList args = argumentNames(tools, statusTool);
        for (const auto &[key, arg] : {std::pair{QStringLiteral("status.idArgument"),
                                                 textAt(adapter, "status", "idArgument")},
                                       std::pair{QStringLiteral("status.batchArgument"),
                                                 textAt(adapter, "status", "batchArgument")}}) {
            if (arg.isEmpty() || args.isEmpty() || args.contains(arg))
                continue;
            found << Problem{
                key,
                tr("%1: %2 takes no argument \"%3\"; it takes %4.")
                    .arg(fieldLabel(key), statusTool, arg, args.join(QLatin1String(", ")))};
        }
    }
    if (problems)
        *problems = found;
    if (!found.isEmpty())
        return std::nullopt;
    return a;
}

} // namespace Eddy
