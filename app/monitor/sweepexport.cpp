#include "app/monitor/sweepexport.h"

#include "app/vocab/jsonfield.h"
#include "app/monitor/inputinbox.h"
#include "app/vocab/outcome.h"
#include "app/store/taskstore.h"

#include <QHash>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <vector>

namespace Eddy::Monitor {

using json = nlohmann::ordered_json;

namespace {

json parse(const QString &text)
{
    return Json::parseText<json>(text);
}

QString csvField(QString s)
{
    if (s.contains(QLatin1Char(',')) || s.contains(QLatin1Char('"'))
        || s.contains(QLatin1Char('\n')) || s.contains(QLatin1Char('\r')))
        return QLatin1Char('"') + s.replace(QLatin1Char('"'), QStringLiteral("\"\""))
               + QLatin1Char('"');
    return s;
}

QString scalarText(const json &v)
{
    if (v.is_string())
        return QString::fromStdString(v.get<std::string>());
    if (v.is_null())
        return {};
    return QString::fromStdString(v.dump());
}

void flatten(const json &obj,
             const std::string &prefix,
             std::vector<std::pair<std::string, json>> &out)
{
    if (!obj.is_object())
        return;
    for (auto it = obj.begin(); it != obj.end(); ++it) {
        const std::string key = prefix.empty() ? it.key() : prefix + "." + it.key();
        if (it.value().is_object())
            flatten(it.value(), key, out);
        else if (!it.value().is_array())
            out.emplace_back(key, it.value());
    }
}

void addName(std::vector<std::string> &names, const std::string &name)
{
    if (std::find(names.begin(), names.end(), name) == names.end())
        names.push_back(name);
}

} // namespace

QList<SweepExport::Row> SweepExport::rows(Store::TaskStore &store, qint64 sweepId)
{
    QList<Row> out;
    for (const Store::CaseRecord &c : latestAttempts(store.cases(sweepId))) {
        Row r{c, std::nullopt, {}};
        if (c.taskId) {
            r.task = store.task(*c.taskId);
            r.answer = InputInbox::answerSummary(store.inputRequests(*c.taskId));
        }
        out << r;
    }
    std::stable_sort(
        out.begin(), out.end(), [](const Row &a, const Row &b) { return a.c.index < b.c.index; });
    return out;
}

QList<Store::CaseRecord> SweepExport::latestAttempts(const QList<Store::CaseRecord> &cases)
{
    QList<Store::CaseRecord> out;
    QHash<int, qsizetype> at; // case index -> position in out
    for (const Store::CaseRecord &c : cases) {
        const auto it = at.constFind(c.index);
        if (it == at.constEnd()) {
            at.insert(c.index, out.size());
            out << c;
        } else if (out[*it].id < c.id) {
            out[*it] = c;
        }
    }
    return out;
}

QStringList SweepExport::variedNames(const QString &specJson)
{
    QStringList names;
    const json spec = parse(specJson);
    if (spec.is_object() && spec.contains("vary") && spec["vary"].is_object()) {
        for (auto it = spec["vary"].begin(); it != spec["vary"].end(); ++it)
            names << QString::fromStdString(it.key());
    }
    return names;
}

SweepExport::Table SweepExport::table(const QList<Row> &rows, const QStringList &variedNames)
{
    struct Parsed
    {
        json args;
        std::vector<std::pair<std::string, json>> scalars;
    };
    std::vector<Parsed> parsed;
    parsed.reserve(rows.size());
    std::vector<std::string> argCols;
    for (const QString &v : variedNames)
        addName(argCols, v.toStdString());
    std::vector<std::string> fixedCols;
    std::vector<std::string> resCols;
    for (const Row &r : rows) {
        Parsed p;
        p.args = parse(r.c.arguments.isEmpty() && r.task ? r.task->arguments : r.c.arguments);
        if (!p.args.is_object())
            p.args = json::object();
        p.args.erase("idempotency_key");
        for (auto it = p.args.begin(); it != p.args.end(); ++it) {
            if (std::find(argCols.begin(), argCols.end(), it.key()) == argCols.end())
                addName(fixedCols, it.key());
        }
        if (r.task && !r.task->result.isEmpty()) {
            const json result = parse(r.task->result);
            if (result.is_object() && result.contains("structuredContent"))
                flatten(result["structuredContent"], {}, p.scalars);
        }
        parsed.push_back(std::move(p));
    }
    std::sort(fixedCols.begin(), fixedCols.end());
    argCols.insert(argCols.end(), fixedCols.begin(), fixedCols.end());
    for (const Parsed &p : parsed) {
        for (const auto &s : p.scalars) {
            if (std::find(argCols.begin(), argCols.end(), s.first) == argCols.end())
                addName(resCols, s.first);
        }
    }

    Table t;
    for (const auto &c : argCols)
        t.argumentColumns << QString::fromStdString(c);
    for (const auto &c : resCols)
        t.resultColumns << QString::fromStdString(c);
    for (qsizetype i = 0; i < rows.size(); ++i) {
        const Row &r = rows[i];
        const Parsed &p = parsed[std::size_t(i)];
        Table::Line line;
        if (r.task)
            line.outcome = OutcomeText::key(outcomeOf(*r.task));
        else if (r.c.state == Store::CaseState::Rejected)
            line.outcome = OutcomeText::key(Outcome::Failed);
        else
            line.outcome = QStringLiteral("not_submitted");
        line.isError = r.task && r.task->isToolError;
        line.status = r.task ? Store::toText(r.task->status) : Store::toText(r.c.state);
        for (const auto &c : argCols)
            line.arguments << (p.args.contains(c) ? scalarText(p.args[c]) : QString());
        std::map<std::string, QString> scalars;
        for (const auto &f : p.scalars)
            scalars[f.first] = scalarText(f.second); // the last of a repeated name, as before
        for (const auto &c : resCols) {
            const auto it = scalars.find(c);
            line.results << (it == scalars.end() ? QString() : it->second);
        }
        t.lines << line;
    }
    return t;
}

QString SweepExport::csv(const QList<Row> &rows, const QStringList &variedNames)
{
    const Table t = table(rows, variedNames);
    QString out;
    QStringList header{QStringLiteral("case"),
                       QStringLiteral("task"),
                       QStringLiteral("outcome"),
                       QStringLiteral("is_error"),
                       QStringLiteral("status")};
    for (const QString &c : t.argumentColumns)
        header << csvField(c);
    for (const QString &c : t.resultColumns)
        header << csvField(c);
    header << QStringLiteral("answer") << QStringLiteral("note") << QStringLiteral("tags");
    out += header.join(QLatin1Char(',')) + QLatin1Char('\n');
    for (qsizetype i = 0; i < rows.size(); ++i) {
        const Row &r = rows[i];
        const Table::Line &l = t.lines[i];
        QStringList line{QString::number(r.c.index + 1),
                         r.task ? QString::number(r.task->id) : QString(),
                         l.outcome,
                         l.isError ? QStringLiteral("true") : QStringLiteral("false"),
                         l.status};
        for (const QString &v : l.arguments)
            line << csvField(v);
        for (const QString &v : l.results)
            line << csvField(v);
        line << csvField(r.answer) << csvField(r.c.note)
             << csvField(r.c.tags.join(QLatin1Char(' ')));
        out += line.join(QLatin1Char(',')) + QLatin1Char('\n');
    }
    return out;
}

} // namespace Eddy::Monitor
