#include "models/sweepreport.h"

#include "app/vocab/valuetext.h"
#include "models/outcomepalette.h"
#include "models/svgplot.h"

#include <QDateTime>
#include <QHash>
#include <QMap>
#include <QMarginsF>
#include <QPageLayout>
#include <QPageSize>
#include <QPdfWriter>
#include <QSaveFile>
#include <QTextDocument>

#include <algorithm>
#include <cmath>

namespace Eddy {

namespace {

using Outcome = Monitor::Outcome;

const Outcome s_outcomes[] = {Outcome::Converged, Outcome::Completed, Outcome::NotConverged,
                              Outcome::ToolError,  Outcome::Failed,    Outcome::Cancelled,
                              Outcome::Expired,    Outcome::Lost,      Outcome::NeedsInput,
                              Outcome::Working};

QString esc(const QString &text)
{
    return text.toHtmlEscaped();
}

QString outcomeClass(Outcome o)
{
    return QStringLiteral("o-") + Monitor::OutcomeText::key(o);
}

QString outcomeLabel(const SweepReportInput::Case &c)
{
    return c.submitted ? Monitor::OutcomeText::label(c.outcome) : SweepReport::tr("Not submitted");
}

std::optional<double> number(const QString &text)
{
    bool ok = false;
    const double v = text.toDouble(&ok);
    return ok && std::isfinite(v) ? std::optional<double>(v) : std::nullopt;
}

// The page's colours, light and dark (prefers-color-scheme), and the outcome colours of the
// charts mapped to their dark variants by attribute, so one SVG serves both schemes.
QString styleSheet()
{
    QString css = QStringLiteral(
        ":root{color-scheme:light dark;--bg:#ffffff;--fg:#1d1f21;--muted:#5c6166;--line:#d5d8dc;"
        "--head:#f1f3f5;--stripe:#f8f9fa;}"
        "@media (prefers-color-scheme: dark){:root{--bg:#1f2124;--fg:#e6e8ea;--muted:#a4abb3;"
        "--line:#3a3e44;--head:#2a2d31;--stripe:#25282b;}}"
        "body{background:var(--bg);color:var(--fg);font:14px/1.45 system-ui,'DejaVu Sans',"
        "sans-serif;margin:24px 32px;}"
        "h1{font-size:22px;margin:0 0 4px;}h2{font-size:17px;margin:28px 0 8px;border-bottom:"
        "1px solid var(--line);padding-bottom:4px;}h3{font-size:15px;margin:16px 0 6px;}"
        ".meta,.muted{color:var(--muted);}"
        "table{border-collapse:collapse;border:1px solid var(--line);font-variant-numeric:tabular-nums;}"
        "th,td{border:1px solid var(--line);padding:3px 8px;text-align:left;vertical-align:top;}"
        "th{background:var(--head);font-weight:600;}"
        "tbody tr:nth-child(even){background:var(--stripe);}"
        "td.num{text-align:right;}table.cases td,td.when{white-space:nowrap;}"
        ".scroll{overflow-x:auto;max-width:100%;}"
        ".charts{display:flex;flex-wrap:wrap;gap:16px;}"
        ".chart svg{max-width:100%;height:auto;border:1px solid var(--line);}"
        ".chart svg>rect:first-of-type{fill:var(--bg);}"
        ".chart svg text{fill:var(--fg);}"
        ".chart svg g.axes{stroke:var(--fg);}"
        ".chart svg g.ticks line{stroke:var(--fg);}"
        ".tag{display:inline-block;border:1px solid var(--line);border-radius:9px;padding:0 7px;"
        "margin:0 4px 2px 0;font-size:12px;}"
        ".note{margin:4px 0 8px;padding:4px 10px;border-left:3px solid var(--line);}"
        ".note .by{font-size:12px;color:var(--muted);}"
        "pre{white-space:pre-wrap;margin:0;font:inherit;}");
    QString dark;
    for (Outcome o : s_outcomes) {
        const QString light = OutcomePalette::color(o, false).name();
        const QString night = OutcomePalette::color(o, true).name();
        css += QStringLiteral(".%1{color:%2;font-weight:600;}").arg(outcomeClass(o), light);
        dark += QStringLiteral(".%1{color:%2;}[stroke=\"%3\"]{stroke:%2;}[fill=\"%3\"]{fill:%2;}")
                    .arg(outcomeClass(o), night, light);
    }
    css += QStringLiteral(".o-not_submitted{color:var(--muted);}");
    css += QStringLiteral("@media (prefers-color-scheme: dark){") + dark + QLatin1Char('}');
    return css;
}

QString tagsHtml(const QStringList &tags)
{
    QString out;
    for (const QString &t : tags)
        out += QStringLiteral("<span class=\"tag\">%1</span>").arg(esc(t));
    return out;
}

QString notesHtml(const QList<SweepReportInput::Note> &notes)
{
    QString out;
    for (const SweepReportInput::Note &n : notes) {
        QString by;
        if (!n.author.isEmpty() && n.atMs > 0)
            by = SweepReport::tr("%1, %2").arg(esc(n.author), esc(SweepReport::timeText(n.atMs)));
        else if (!n.author.isEmpty())
            by = esc(n.author);
        else
            by = esc(SweepReport::timeText(n.atMs));
        out += QStringLiteral("<div class=\"note\"><pre>%1</pre><div class=\"by\">%2</div></div>")
                   .arg(esc(n.text), by);
    }
    return out;
}

QString svgInline(const SvgPlot &plot)
{
    // Inline SVG in HTML needs neither the XML declaration nor the namespace (the parser knows
    // it): the file then names no address at all.
    QString svg = plot.toSvg();
    const qsizetype start = svg.indexOf(QLatin1String("<svg"));
    if (start > 0)
        svg.remove(0, start);
    svg.replace(QLatin1String(" xmlns=\"http://www.w3.org/2000/svg\""), QString());
    return svg;
}

// At most `limit` points of a curve, evenly spaced, first and last kept.
std::vector<QPointF> thinned(const std::vector<QPointF> &points, std::size_t limit)
{
    if (points.size() <= limit || limit < 2)
        return points;
    std::vector<QPointF> out;
    out.reserve(limit);
    const double step = double(points.size() - 1) / double(limit - 1);
    for (std::size_t i = 0; i < limit; ++i)
        out.push_back(points[std::min(points.size() - 1, std::size_t(std::lround(double(i) * step)))]);
    return out;
}

// Legend-only series: one per outcome present, in the palette's order.
void addOutcomeLegend(SvgPlot &plot, const QList<SweepReportInput::Case> &cases)
{
    QList<Outcome> seen;
    for (const auto &c : cases) {
        if (c.submitted && !seen.contains(c.outcome))
            seen << c.outcome;
    }
    for (Outcome o : s_outcomes) {
        if (!seen.contains(o))
            continue;
        SvgPlot::Series s;
        s.name = Monitor::OutcomeText::label(o);
        s.color = OutcomePalette::color(o, false);
        s.line = false;
        plot.series << s;
    }
}

// The scalar plots: each numeric result that varies over the first numeric varied parameter,
// a marker per case coloured by its outcome.
QString scalarCharts(const SweepReportInput &in)
{
    int xColumn = -1;
    for (int i = 0; i < in.variedCount && i < in.argumentColumns.size(); ++i) {
        bool numeric = false;
        bool all = true;
        for (const auto &c : in.cases) {
            if (i < c.arguments.size() && !c.arguments[i].isEmpty()) {
                numeric = true;
                all = all && number(c.arguments[i]).has_value();
            }
        }
        if (numeric && all) {
            xColumn = i;
            break;
        }
    }
    if (xColumn < 0)
        return QStringLiteral("<p class=\"muted\">%1</p>")
            .arg(esc(SweepReport::tr("No varied parameter is a number: there is no scalar plot.")));
    QString out = QStringLiteral("<div class=\"charts\">");
    int charts = 0;
    for (int r = 0; r < in.resultColumns.size() && charts < 6; ++r) {
        QMap<int, std::vector<QPointF>> byOutcome;
        double lo = INFINITY, hi = -INFINITY;
        bool numeric = true;
        for (const auto &c : in.cases) {
            if (r >= c.results.size() || c.results[r].isEmpty() || xColumn >= c.arguments.size())
                continue;
            const auto y = number(c.results[r]);
            const auto x = number(c.arguments[xColumn]);
            if (!y) {
                numeric = false;
                break;
            }
            if (x) {
                byOutcome[int(c.outcome)].push_back(QPointF(*x, *y));
                lo = std::min(lo, *y);
                hi = std::max(hi, *y);
            }
        }
        if (!numeric || byOutcome.isEmpty() || !(hi > lo))
            continue;
        SvgPlot plot;
        plot.title = in.resultColumns[r];
        plot.xLabel = in.argumentColumns[xColumn];
        plot.yLabel = in.resultColumns[r];
        plot.logY = lo > 0 && hi / lo > 100;
        plot.size = QSize(560, 360);
        for (auto it = byOutcome.begin(); it != byOutcome.end(); ++it) {
            SvgPlot::Series s;
            s.color = OutcomePalette::color(Outcome(it.key()), false);
            s.points = it.value();
            s.markers = true;
            s.line = false;
            plot.series << s;
        }
        addOutcomeLegend(plot, in.cases);
        out += QStringLiteral("<figure class=\"chart\">%1</figure>").arg(svgInline(plot));
        ++charts;
    }
    out += QStringLiteral("</div>");
    if (charts == 0)
        return QStringLiteral("<p class=\"muted\">%1</p>")
            .arg(esc(SweepReport::tr("No result value is a number that varies over the cases.")));
    return out;
}

// One chart per residual field, a line per case coloured by its outcome, thinned so that a
// thousand cases stay a file a browser opens at once.
QString residualCharts(const SweepReportInput &in)
{
    QStringList fields;
    int withHistory = 0;
    for (const auto &c : in.cases) {
        withHistory += c.residuals.isEmpty() ? 0 : 1;
        for (const auto &r : c.residuals) {
            if (!fields.contains(r.first))
                fields << r.first;
        }
    }
    if (fields.isEmpty())
        return QStringLiteral("<p class=\"muted\">%1</p>")
            .arg(esc(SweepReport::tr("No case has a residual history.")));
    const std::size_t perCase = std::size_t(std::clamp(60000 / std::max(1, withHistory), 24, 400));
    QString out = QStringLiteral("<div class=\"charts\">");
    for (const QString &field : std::as_const(fields).mid(0, 4)) {
        SvgPlot plot;
        plot.title = SweepReport::tr("Residual %1").arg(field);
        plot.xLabel = SweepReport::tr("iteration");
        plot.yLabel = SweepReport::tr("residual");
        plot.logY = true;
        plot.size = QSize(560, 360);
        for (const auto &c : in.cases) {
            for (const auto &r : c.residuals) {
                if (r.first != field)
                    continue;
                SvgPlot::Series s;
                s.color = OutcomePalette::color(c.outcome, false);
                s.points = thinned(r.second, perCase);
                plot.series << s;
            }
        }
        addOutcomeLegend(plot, in.cases);
        out += QStringLiteral("<figure class=\"chart\">%1</figure>").arg(svgInline(plot));
    }
    return out + QStringLiteral("</div>");
}

// A number to six significant digits, the stored value in its tooltip; text as it is.
QString cellHtml(const QString &value)
{
    const auto v = number(value);
    if (!v || value.size() <= 8)
        return v ? QStringLiteral("<td class=\"num\">%1</td>").arg(esc(value))
                 : QStringLiteral("<td>%1</td>").arg(esc(value));
    return QStringLiteral("<td class=\"num\" title=\"%1\">%2</td>").arg(esc(value), formatValue(*v));
}

QString casesTable(const SweepReportInput &in)
{
    QString out;
    out.reserve(int(in.cases.size()) * 400);
    out += QStringLiteral("<div class=\"scroll\"><table border=\"1\" cellspacing=\"0\" cellpadding=\"3\" class=\"cases\"><thead><tr><th>%1</th><th>%2</th>"
                          "<th>%3</th><th>%4</th>")
               .arg(esc(SweepReport::tr("Case")), esc(SweepReport::tr("Task")),
                    esc(SweepReport::tr("Outcome")), esc(SweepReport::tr("Status")));
    for (int i = 0; i < in.variedCount && i < in.argumentColumns.size(); ++i)
        out += QStringLiteral("<th>%1</th>").arg(esc(in.argumentColumns[i]));
    for (const QString &r : in.resultColumns)
        out += QStringLiteral("<th>%1</th>").arg(esc(r));
    out += QStringLiteral("<th>%1</th><th>%2</th></tr></thead><tbody>")
               .arg(esc(SweepReport::tr("Questions")), esc(SweepReport::tr("Tags")));
    for (const auto &c : in.cases) {
        const QString cls = c.submitted ? outcomeClass(c.outcome) : QStringLiteral("o-not_submitted");
        const QString number = QString::number(c.index + 1);
        // The marked baseline, as the window's sweep table marks it.
        const QString caseCell = in.baselineIndex == c.index
                                     ? QStringLiteral("<b title=\"%1\">%2</b>")
                                           .arg(esc(SweepReport::tr("The sweep's baseline: the case the others are "
                                                                    "compared against")),
                                                esc(SweepReport::tr("%1 \u2605 baseline").arg(number)))
                                     : number;
        out += QStringLiteral("<tr id=\"case-%1\"><td class=\"num\">").arg(number) + caseCell
               + QStringLiteral("</td><td class=\"num\">%1</td><td class=\"%2\">%3</td><td>%4</td>")
                     .arg(c.taskNumber ? QString::number(*c.taskNumber) : QString(), cls, esc(outcomeLabel(c)),
                          esc(c.status));
        for (int i = 0; i < in.variedCount && i < c.arguments.size(); ++i)
            out += QStringLiteral("<td>%1</td>").arg(esc(c.arguments[i]));
        for (const QString &v : c.results)
            out += cellHtml(v);
        out += QStringLiteral("<td class=\"num\">%1</td><td>%2</td></tr>")
                   .arg(c.questions.isEmpty() ? QString() : QString::number(c.questions.size()),
                        tagsHtml(c.tags));
    }
    return out + QStringLiteral("</tbody></table></div>");
}

QString questionStateText(const SweepReportInput::Question &q)
{
    switch (q.state) {
    case Store::InputState::Answered: return {};
    case Store::InputState::Pending: return SweepReport::tr("not answered");
    case Store::InputState::Answering: return SweepReport::tr("answer being sent");
    case Store::InputState::Closed: return SweepReport::tr("closed without an answer");
    }
    return {};
}

QString auditTrail(const SweepReportInput &in, SweepReport::Target target)
{
    int count = 0;
    for (const auto &c : in.cases)
        count += int(c.questions.size());
    if (count == 0)
        return QStringLiteral("<p class=\"muted\">%1</p>")
            .arg(esc(SweepReport::tr("The server asked no questions during this sweep.")));
    QString out = QStringLiteral("<p>%1</p>").arg(esc(SweepReport::tr("%n question(s), in case order.", "", count)));
    if (target == SweepReport::Target::Pdf) {
        // A page is too narrow for seven columns of prose: one paragraph per question.
        for (const auto &c : in.cases) {
            for (const auto &q : c.questions) {
                const QString state = questionStateText(q);
                out += QStringLiteral("<p><b>%1</b><br>%2<br>%3</p>")
                           .arg(esc(SweepReport::tr("Case %1, task %2, asked %3")
                                        .arg(c.index + 1)
                                        .arg(c.taskNumber ? QString::number(*c.taskNumber) : QString())
                                        .arg(SweepReport::timeText(q.askedAtMs))),
                                esc(q.message),
                                esc(SweepReport::tr("Answer: %1 (by %2, %3)")
                                        .arg(state.isEmpty() ? q.answer : state + QLatin1Char(' ') + q.answer,
                                             q.answeredBy,
                                             q.answeredAtMs ? SweepReport::timeText(*q.answeredAtMs) : QString())));
            }
        }
        return out;
    }
    out += QStringLiteral("<div class=\"scroll\"><table border=\"1\" cellspacing=\"0\" cellpadding=\"3\" class=\"audit\"><thead><tr><th>%1</th><th>%2</th>"
                          "<th>%3</th><th>%4</th><th>%5</th><th>%6</th><th>%7</th></tr></thead><tbody>")
               .arg(esc(SweepReport::tr("Case")), esc(SweepReport::tr("Task")), esc(SweepReport::tr("Asked")),
                    esc(SweepReport::tr("Question")), esc(SweepReport::tr("Answer")),
                    esc(SweepReport::tr("Answered by")), esc(SweepReport::tr("Answered")));
    for (const auto &c : in.cases) {
        for (const auto &q : c.questions) {
            const QString state = questionStateText(q);
            out += QStringLiteral("<tr><td class=\"num\"><a href=\"#case-%1\">%1</a></td><td class=\"num\">%2</td>"
                                  "<td class=\"when\">%3</td><td><pre>%4</pre></td><td>%5</td><td>%6</td><td class=\"when\">%7</td></tr>")
                       .arg(QString::number(c.index + 1),
                            c.taskNumber ? QString::number(*c.taskNumber) : QString(),
                            esc(SweepReport::timeText(q.askedAtMs)), esc(q.message),
                            state.isEmpty() ? esc(q.answer)
                                            : QStringLiteral("<em>%1</em> %2").arg(esc(state), esc(q.answer)),
                            esc(q.answeredBy),
                            esc(q.answeredAtMs ? SweepReport::timeText(*q.answeredAtMs) : QString()));
        }
    }
    return out + QStringLiteral("</tbody></table></div>");
}

QString caseNotes(const SweepReportInput &in)
{
    QString out;
    for (const auto &c : in.cases) {
        if (c.notes.isEmpty() && c.error.isEmpty())
            continue;
        out += QStringLiteral("<h3>%1</h3>").arg(esc(SweepReport::tr("Case %1").arg(c.index + 1)));
        if (!c.error.isEmpty())
            out += QStringLiteral("<p><strong>%1</strong> %2</p>").arg(esc(SweepReport::tr("Error:")), esc(c.error));
        out += notesHtml(c.notes);
    }
    return out;
}

QString summary(const SweepReportInput &in)
{
    QStringList parts;
    for (Outcome o : s_outcomes) {
        const auto n = std::count_if(in.cases.begin(), in.cases.end(), [o](const auto &c) {
            return c.submitted && c.outcome == o;
        });
        if (n > 0)
            parts << QStringLiteral("<span class=\"%1\">%2</span>")
                         .arg(outcomeClass(o), esc(SweepReport::tr("%1: %2").arg(Monitor::OutcomeText::label(o)).arg(n)));
    }
    const auto unsent = std::count_if(in.cases.begin(), in.cases.end(), [](const auto &c) { return !c.submitted; });
    if (unsent > 0)
        parts << esc(SweepReport::tr("%1: %2").arg(SweepReport::tr("Not submitted")).arg(unsent));
    return QStringLiteral("<p>%1 %2</p>")
        .arg(esc(SweepReport::tr("%n case(s).", "", int(in.cases.size()))), parts.join(QStringLiteral(" · ")));
}

QString parameters(const SweepReportInput &in)
{
    QString out = QStringLiteral("<table border=\"1\" cellspacing=\"0\" cellpadding=\"3\" class=\"kv\"><tbody>");
    for (const auto &v : in.varied)
        out += QStringLiteral("<tr><th>%1</th><td>%2</td><td class=\"muted\">%3</td></tr>")
                   .arg(esc(v.first), esc(v.second), esc(SweepReport::tr("varied")));
    for (const auto &f : in.fixed)
        out += QStringLiteral("<tr><th>%1</th><td>%2</td><td class=\"muted\">%3</td></tr>")
                   .arg(esc(f.first), esc(f.second), esc(SweepReport::tr("fixed")));
    if (!in.mode.isEmpty())
        out += QStringLiteral("<tr><th>%1</th><td colspan=\"2\">%2</td></tr>")
                   .arg(esc(SweepReport::tr("Combination")), esc(in.mode));
    if (in.concurrency > 0)
        out += QStringLiteral("<tr><th>%1</th><td colspan=\"2\">%2</td></tr>")
                   .arg(esc(SweepReport::tr("Cases at a time")), QString::number(in.concurrency));
    return out + QStringLiteral("</tbody></table>");
}

} // namespace

QString SweepReport::timeText(qint64 epochMs)
{
    if (epochMs <= 0)
        return {};
    return QDateTime::fromMSecsSinceEpoch(epochMs, Qt::UTC).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss 'UTC'"));
}

QString SweepReport::html(const SweepReportInput &in, Target target)
{
    QString out;
    out.reserve(int(in.cases.size()) * 2000 + 65536);
    const QString title = tr("Sweep %1: %2").arg(in.sweepNumber).arg(in.tool);
    //: The HTML language code of the report (en, de).
    const QString lang = tr("en");
    out += QStringLiteral("<!DOCTYPE html>\n<html lang=\"%1\"><head><meta charset=\"utf-8\">"
                          "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
                          "style-src 'unsafe-inline'\">"
                          "<meta name=\"color-scheme\" content=\"light dark\">"
                          "<meta name=\"viewport\" content=\"width=device-width\">"
                          "<title>%2</title><style>%3</style></head><body>\n")
               .arg(esc(lang), esc(title), target == Target::Browser ? styleSheet() : QString());
    out += QStringLiteral("<header><h1>%1</h1><p class=\"meta\">%2</p>%3</header>\n")
               .arg(esc(title),
                    esc(tr("Server %1 · created %2 · report written %3")
                            .arg(in.server, timeText(in.createdAtMs), timeText(in.generatedAtMs)))
                        + (in.session.isEmpty() ? QString()
                                                : QStringLiteral(" · ") + esc(tr("session %1").arg(in.session))),
                    tagsHtml(in.tags));
    out += QStringLiteral("<section id=\"parameters\"><h2>%1</h2>%2%3</section>\n")
               .arg(esc(tr("Parameters")), parameters(in), summary(in));
    if (!in.notes.isEmpty())
        out += QStringLiteral("<section id=\"notes\"><h2>%1</h2>%2</section>\n").arg(esc(tr("Notes")), notesHtml(in.notes));
    if (target == Target::Browser) {
        out += QStringLiteral("<section id=\"plot\"><h2>%1</h2>%2</section>\n")
                   .arg(esc(tr("Results over the varied parameter")), scalarCharts(in));
        out += QStringLiteral("<section id=\"cases\"><h2>%1</h2>%2</section>\n").arg(esc(tr("Cases")), casesTable(in));
        out += QStringLiteral("<section id=\"residuals\"><h2>%1</h2>%2</section>\n")
                   .arg(esc(tr("Residual histories")), residualCharts(in));
    } else {
        out += QStringLiteral("<section id=\"cases\"><h2>%1</h2>%2</section>\n").arg(esc(tr("Cases")), casesTable(in));
        out += QStringLiteral("<p class=\"muted\">%1</p>\n")
                   .arg(esc(tr("The charts (results over the varied parameter, residual histories) are in "
                               "the HTML report; this PDF has the same tables and answers.")));
    }
    out += QStringLiteral("<section id=\"questions\"><h2>%1</h2>%2</section>\n")
               .arg(esc(tr("Questions and answers")), auditTrail(in, target));
    const QString notes = caseNotes(in);
    if (!notes.isEmpty())
        out += QStringLiteral("<section id=\"case-notes\"><h2>%1</h2>%2</section>\n")
                   .arg(esc(tr("Case notes and errors")), notes);
    out += QStringLiteral("<footer class=\"muted\"><p>%1</p></footer>\n</body></html>\n")
               .arg(esc(tr("Written by Eddy %1 from its database. Task numbers are Eddy's own; the "
                           "server's task ids are not in this report.")
                            .arg(QCoreApplication::applicationVersion())));
    return out;
}

bool SweepReport::writeHtml(const SweepReportInput &input, const QString &path, QString *error)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(html(input).toUtf8()) < 0 || !file.commit()) {
        if (error)
            *error = tr("Cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

// The PDF: the report's HTML without charts laid out by QTextDocument and printed through
// QPdfWriter (Qt's PDF engine, the one QPrinter uses), A4 with 15 mm margins.
bool SweepReport::writePdf(const SweepReportInput &input, const QString &path, QString *error)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        if (error)
            *error = tr("Cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    {
        QPdfWriter writer(&file);
        writer.setTitle(tr("Sweep %1: %2").arg(input.sweepNumber).arg(input.tool));
        writer.setCreator(QStringLiteral("Eddy"));
        writer.setPageLayout(QPageLayout(QPageSize(QPageSize::A4), QPageLayout::Portrait,
                                         QMarginsF(15, 15, 15, 15), QPageLayout::Millimeter));
        QTextDocument doc;
        doc.setDefaultStyleSheet(QStringLiteral(
            "body{font-size:9pt;} h1{font-size:15pt;} h2{font-size:12pt;} h3{font-size:10pt;}"
            "th{background-color:#f1f3f5;} .muted,.meta{color:#5c6166;} td,th{padding:2px;}"));
        doc.setHtml(html(input, Target::Pdf));
        doc.print(&writer);
    }
    if (!file.commit()) {
        if (error)
            *error = tr("Cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

} // namespace Eddy
