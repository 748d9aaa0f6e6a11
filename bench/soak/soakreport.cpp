#include "bench/soak/soakreport.h"

#include "benchresult.h"
#include "models/svgplot.h"

#include <QFile>
#include <QHash>
#include <QMultiHash>
#include <QMap>
#include <QRegularExpression>
#include <QSaveFile>
#include <QStringList>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <optional>
#include <vector>

namespace Bench {

namespace {

// One column of samples.csv, NaN where the sample has no value (a process not running).
struct Table
{
    QStringList names;
    std::vector<std::vector<double>> columns;
    std::vector<double> t; // seconds since the start

    int index(const QString &name) const { return int(names.indexOf(name)); }
    double at(int column, size_t row) const
    {
        return column < 0 ? std::nan("") : columns[size_t(column)][row];
    }
};

bool readTable(const QString &path, Table &table, QString &error)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        error = QStringLiteral("cannot read %1: %2").arg(path, f.errorString());
        return false;
    }
    const QList<QByteArray> lines = f.readAll().split('\n');
    if (lines.isEmpty() || !lines.first().startsWith("t_s,")) {
        error = QStringLiteral("%1 is not a soak's samples.csv (no t_s header)").arg(path);
        return false;
    }
    for (const QByteArray &n : lines.first().split(','))
        table.names << QString::fromLatin1(n.trimmed());
    table.columns.assign(size_t(table.names.size()), {});
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const QList<QByteArray> cells = lines[i].split(',');
        if (cells.size() != table.names.size())
            continue; // the last line of an interrupted run
        for (qsizetype c = 0; c < cells.size(); ++c) {
            bool ok = false;
            const double v = cells[c].toDouble(&ok);
            table.columns[size_t(c)].push_back(ok ? v : std::nan(""));
        }
    }
    table.t = table.columns[0];
    if (table.t.size() < 10) {
        error = QStringLiteral("%1 holds %2 samples: too few to judge").arg(path).arg(table.t.size());
        return false;
    }
    return true;
}

// final.txt: KEY=VALUE lines; a key given more than once (lost_at, twice_at) keeps every value.
QMultiHash<QString, QString> readFinal(const QString &path)
{
    QMultiHash<QString, QString> out;
    QFile f(path);
    if (f.open(QIODevice::ReadOnly))
        for (const QByteArray &line : f.readAll().split('\n'))
            if (const qsizetype eq = line.indexOf('='); eq > 0)
                out.insert(QString::fromUtf8(line.left(eq)), QString::fromUtf8(line.mid(eq + 1)));
    return out;
}

struct Event
{
    double t;
    QString kind;
    QString detail;
};

std::vector<Event> readEvents(const QString &path)
{
    std::vector<Event> out;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return out;
    const QList<QByteArray> lines = f.readAll().split('\n');
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const QList<QByteArray> cells = lines[i].split(',');
        if (cells.size() >= 3)
            out.push_back({cells[0].toDouble(), QString::fromUtf8(cells[1]),
                           QString::fromUtf8(lines[i].mid(cells[0].size() + cells[1].size() + 2))});
    }
    return out;
}

// A measure: its values over time and how it is judged.
struct Measure
{
    QString name;    // "window RSS"
    QString unit;    // "MB"
    QString panel;   // the SVG panel it is drawn in
    QString pidName; // the column of the process's pid: lifetimes are judged apart ("" = one)
    double floorPerHour = 0; // growth below this many units per hour is below resolution
    // > 0: judged on the lowest value of each lowWaterMin minutes of a lifetime. A descriptor
    // that leaks is never closed, so it lifts every later low; a connection open at the moment
    // of a sample does not.
    double lowWaterMin = 0;
    // The judged samples a lifetime needs to count: a slope through three points of a short
    // lifetime is one sample's dip (six is the lows' 3 lows of 2 minutes, in minutes).
    int minPerLifetime = 3;
    bool judged = true;
    std::vector<QPointF> points; // (minutes, value)
    std::vector<double> pids;
    // Per point: whether the process polls a task (holds a task lease); empty = not known. A
    // lifetime is judged from 2 minutes after its process first polls one.
    std::vector<char> polling;

    // Results.
    double slopePerHour = 0; // units per hour, pooled within lifetimes
    double mean = 0;
    double percentPerHour = 0;
    bool pass = true;
    double growthStartMin = -1;
    int used = 0;
};

Measure measure(const QString &name, const QString &unit, const QString &panel, const QString &pidName,
                double floorPerHour)
{
    Measure m;
    m.name = name;
    m.unit = unit;
    m.panel = panel;
    m.pidName = pidName;
    m.floorPerHour = floorPerHour;
    return m;
}

// Least squares within each lifetime (one intercept per lifetime, one shared slope): a process
// restarted on schedule starts low each time; its growth within a lifetime is what leaks.
void judge(Measure &m, double warmupMin, double perLifetimeWarmupMin)
{
    struct Seg { double sx = 0, sy = 0; int n = 0; std::vector<QPointF> pts; };
    std::vector<Seg> segs;
    double lastPid = std::nan("");
    double lifetimeStart = 0;
    double pollingSince = std::nan("");
    double sum = 0;
    for (size_t i = 0; i < m.points.size(); ++i) {
        const QPointF p = m.points[i];
        const double pid = m.pids.empty() ? 0 : m.pids[i];
        if (!std::isfinite(p.y()) || !std::isfinite(pid))
            continue;
        if (pid != lastPid) {
            segs.push_back({});
            lifetimeStart = p.x();
            pollingSince = std::nan("");
            lastPid = pid;
        }
        const bool polling = i >= m.polling.size() || m.polling[i];
        if (polling && !std::isfinite(pollingSince))
            pollingSince = p.x();
        if (p.x() < warmupMin || p.x() - lifetimeStart < perLifetimeWarmupMin || !std::isfinite(pollingSince)
            || p.x() - pollingSince < perLifetimeWarmupMin)
            continue;
        Seg &s = segs.back();
        s.sx += p.x();
        s.sy += p.y();
        ++s.n;
        s.pts.push_back(p);
        sum += p.y();
        ++m.used;
    }
    if (m.lowWaterMin > 0) {
        sum = 0;
        m.used = 0;
        struct Lows { std::vector<QPointF> lows; std::vector<int> counts; }; // per lowWaterMin
        std::vector<Lows> perSeg;
        int fullCount = 0; // the samples of a whole lowWaterMin
        for (const Seg &s : segs) {
            Lows l;
            for (const QPointF &p : s.pts) {
                const size_t b = size_t((p.x() - s.pts.front().x()) / m.lowWaterMin);
                if (b >= l.lows.size()) {
                    l.lows.resize(b + 1, QPointF(0, std::numeric_limits<double>::infinity()));
                    l.counts.resize(b + 1, 0);
                }
                l.lows[b].setX(l.lows[b].x() + p.x());
                l.lows[b].setY(std::min(l.lows[b].y(), p.y()));
                fullCount = std::max(fullCount, ++l.counts[b]);
            }
            perSeg.push_back(std::move(l));
        }
        for (size_t i = 0; i < segs.size(); ++i) {
            Seg &s = segs[i];
            const auto &[lows, counts] = perSeg[i];
            s = Seg{};
            for (size_t b = 0; b < lows.size(); ++b) {
                // A low is the least of (nearly) the whole span: the few samples of a lifetime's
                // last seconds before a restart (its shutdown among them) are not one.
                if (counts[b] == 0 || counts[b] < 0.75 * fullCount)
                    continue;
                const QPointF low(lows[b].x() / counts[b], lows[b].y());
                s.sx += low.x();
                s.sy += low.y();
                ++s.n;
                s.pts.push_back(low);
                sum += low.y();
                ++m.used;
            }
        }
    }
    double num = 0, den = 0;
    for (const Seg &s : segs) {
        if (s.n < m.minPerLifetime)
            continue;
        const double mx = s.sx / s.n, my = s.sy / s.n;
        for (const QPointF &p : s.pts) {
            num += (p.x() - mx) * (p.y() - my);
            den += (p.x() - mx) * (p.x() - mx);
        }
    }
    if (m.used < (m.lowWaterMin > 0 ? 3 : 5) || den <= 0) {
        m.pass = true;
        m.used = 0;
        return;
    }
    m.slopePerHour = num / den * 60.0;
    m.mean = sum / m.used;
    m.percentPerHour = m.mean != 0 ? 100.0 * m.slopePerHour / std::abs(m.mean) : 0;
    m.pass = !m.judged || m.percentPerHour <= 2.0 || m.slopePerHour <= m.floorPerHour;
    if (m.pass)
        return;
    // Where the growth started: in the lifetime that grew most, the last judged sample at or
    // below the level of its first two judged minutes (plus the resolution's share of them);
    // after it, the measure never came back down.
    const Seg *worst = nullptr;
    double worstSlope = 0;
    for (const Seg &s : segs) {
        if (s.n < m.minPerLifetime)
            continue;
        const double mx = s.sx / s.n, my = s.sy / s.n;
        double sn = 0, sd = 0;
        for (const QPointF &p : s.pts) {
            sn += (p.x() - mx) * (p.y() - my);
            sd += (p.x() - mx) * (p.x() - mx);
        }
        if (sd > 0 && (!worst || sn / sd > worstSlope)) {
            worst = &s;
            worstSlope = sn / sd;
        }
    }
    if (!worst)
        return;
    double base = 0;
    int n = 0;
    for (const QPointF &p : worst->pts)
        if (p.x() <= worst->pts.front().x() + 2) {
            base += p.y();
            ++n;
        }
    base = base / std::max(1, n) + m.floorPerHour / 30.0;
    m.growthStartMin = worst->pts.front().x();
    for (const QPointF &p : worst->pts)
        if (p.y() <= base)
            m.growthStartMin = p.x();
}

// One value per lifetime and per bucketMin minutes of raw (taken by pick from the bucket's
// values), placed at the bucket's mean time; judged like any measure, drawn as raw is.
template <typename Pick>
Measure bucketed(const Measure &raw, const QString &name, double bucketMin, Pick pick)
{
    Measure m = measure(name, raw.unit, raw.panel, raw.pidName, raw.floorPerHour);
    std::vector<double> bucket;
    double bucketPid = std::nan(""), bucketStart = -1, bucketX = 0;
    const auto flush = [&] {
        if (bucket.empty())
            return;
        m.points.emplace_back(bucketX / double(bucket.size()), pick(bucket));
        m.pids.push_back(bucketPid);
        bucket.clear();
        bucketX = 0;
    };
    for (size_t i = 0; i < raw.points.size(); ++i) {
        const QPointF p = raw.points[i];
        const double pid = i < raw.pids.size() ? raw.pids[i] : std::nan("");
        if (!std::isfinite(p.y()) || !std::isfinite(pid))
            continue;
        const double start = std::floor(p.x() / bucketMin) * bucketMin;
        if (pid != bucketPid || start != bucketStart)
            flush();
        bucketPid = pid;
        bucketStart = start;
        bucket.push_back(p.y());
        bucketX += p.x();
    }
    flush();
    return m;
}

QString fmt(double v, int decimals = 1)
{
    return QString::number(v, 'f', decimals);
}

// One SVG of several SvgPlot panels in two columns (nested <svg> elements).
bool writeSvg(const QString &path, const QString &title, const QList<Eddy::SvgPlot> &panels, QString &error)
{
    const int cols = 2, w = 640, h = 300, head = 40;
    const int rows = int((panels.size() + cols - 1) / cols);
    QString doc = QStringLiteral("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%1\" height=\"%2\" "
                                 "viewBox=\"0 0 %1 %2\" font-family=\"sans-serif\">\n"
                                 "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
                                 "<text x=\"12\" y=\"26\" font-size=\"16\">%3</text>\n")
                      .arg(cols * w)
                      .arg(head + rows * h)
                      .arg(title.toHtmlEscaped());
    for (qsizetype i = 0; i < panels.size(); ++i) {
        Eddy::SvgPlot p = panels[i];
        p.size = QSize(w, h);
        QString svg = p.toSvg();
        if (svg.startsWith(QLatin1String("<?xml")))
            svg = svg.mid(svg.indexOf(QLatin1String("?>")) + 2).trimmed();
        const qsizetype open = svg.indexOf(QLatin1String("<svg"));
        if (open < 0)
            continue;
        svg.insert(open + 4, QStringLiteral(" x=\"%1\" y=\"%2\"").arg(int(i % cols) * w).arg(head + int(i / cols) * h));
        doc += svg + QLatin1Char('\n');
    }
    doc += QStringLiteral("</svg>\n");
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(doc.toUtf8()) < 0 || !f.commit()) {
        error = QStringLiteral("cannot write %1: %2").arg(path, f.errorString());
        return false;
    }
    return true;
}

} // namespace

int soakReport(const QString &dir)
{
    Table table;
    QString error;
    if (!readTable(dir + QStringLiteral("/samples.csv"), table, error)) {
        std::fprintf(stderr, "bench_soak report: %s\n", qPrintable(error));
        return 2;
    }
    const QMultiHash<QString, QString> fin = readFinal(dir + QStringLiteral("/final.txt"));
    const std::vector<Event> events = readEvents(dir + QStringLiteral("/events.csv"));
    const size_t rows = table.t.size();
    const double endMin = table.t.back() / 60.0;
    const int minutes = fin.value(QStringLiteral("minutes"), QString::number(int(std::lround(endMin)))).toInt();

    // Warm-up: 10 % of the run, and at least 2 minutes after the supply reached its peak.
    double rampMin = 0;
    for (const Event &e : events)
        if (e.kind == QLatin1String("ramp"))
            rampMin = e.t / 60.0;
    const double warmupMin = std::max(0.1 * minutes, rampMin + 2.0);
    const double lifetimeWarmupMin = 2.0;

    const auto column = [&](const QString &name, double scale = 1.0) {
        std::vector<QPointF> pts;
        const int c = table.index(name);
        for (size_t i = 0; i < rows; ++i)
            pts.emplace_back(table.t[i] / 60.0, table.at(c, i) * scale);
        return pts;
    };
    const auto pidsOf = [&](const QString &role) {
        std::vector<double> pids;
        const int c = table.index(role + QStringLiteral("_pid"));
        for (size_t i = 0; c >= 0 && i < rows; ++i)
            pids.push_back(table.at(c, i));
        return pids;
    };
    // The window and the watch share the tasks: a kill -9 of one moves its task leases, and the
    // memory and connections to poll them, to the other. A lifetime of either ends when either
    // restarts (one key per pair of pids), so a takeover is not taken for growth.
    const std::vector<double> pairPids = [&] {
        const auto windowPids = pidsOf(QStringLiteral("window")), watchPids = pidsOf(QStringLiteral("watch"));
        std::vector<double> pids;
        for (size_t i = 0; i < rows; ++i)
            pids.push_back(i < windowPids.size() && i < watchPids.size() ? windowPids[i] * 1e7 + watchPids[i]
                                                                         : std::nan(""));
        return pids;
    }();
    const auto ratio = [&](const QString &a, const QString &b, double scale = 1.0) {
        std::vector<QPointF> pts;
        const int ca = table.index(a), cb = table.index(b);
        for (size_t i = 0; i < rows; ++i) {
            const double d = table.at(cb, i);
            pts.emplace_back(table.t[i] / 60.0, d > 0 ? table.at(ca, i) / d * scale : std::nan(""));
        }
        return pts;
    };
    const auto difference = [&](const QString &a, const QString &b, double scale = 1.0) {
        std::vector<QPointF> pts;
        const int ca = table.index(a), cb = table.index(b);
        for (size_t i = 0; i < rows; ++i)
            pts.emplace_back(table.t[i] / 60.0, (table.at(ca, i) - table.at(cb, i)) * scale);
        return pts;
    };

    std::vector<Measure> measures;
    // A measure of a process (pidName: its lifetimes are judged apart) or of the whole run.
    const auto add = [&](const QString &name, const QString &unit, const QString &panel, double floorPerHour,
                         std::vector<QPointF> points, bool judged = true, const QString &pidName = {}) {
        Measure m = measure(name, unit, panel, pidName, floorPerHour);
        m.points = std::move(points);
        m.judged = judged;
        if (!pidName.isEmpty())
            m.pids = pidName == QLatin1String("server") ? pidsOf(pidName) : pairPids;
        measures.push_back(std::move(m));
    };
    const QStringList roles = {QStringLiteral("server"), QStringLiteral("window"), QStringLiteral("watch")};
    const QHash<QString, QString> roleName = {{QStringLiteral("server"), QStringLiteral("eddy-cfd-server")},
                                              {QStringLiteral("window"), QStringLiteral("window")},
                                              {QStringLiteral("watch"), QStringLiteral("eddyctl watch")}};
    const double mb = 1.0 / 1048576.0;
    // The window and the watch share the tasks: a kill -9 of one moves its tasks, and the memory
    // to poll them, to the other. Their sum is judged (a lifetime ends when either restarts);
    // each one's RSS is drawn. RSS is judged, like open files, on the lowest value of each
    // 2 minutes: every process gives its free heap pages back once a minute (the server's
    // janitor, Monitor::HeapTrim), so a leak lifts every low, while memory freed since the last
    // trim, which RSS also counts, lifts only the samples before the next one.
    {
        Measure m = measure(QStringLiteral("window + eddyctl watch RSS, lowest of each 2 min"), QStringLiteral("MB"),
                            QStringLiteral("Memory (RSS)"), QStringLiteral("window+watch"), 1.0);
        m.lowWaterMin = 2.0;
        const auto window = column(QStringLiteral("window_rss_kb"), 1.0 / 1024.0);
        const auto watch = column(QStringLiteral("watch_rss_kb"), 1.0 / 1024.0);
        for (size_t i = 0; i < rows; ++i)
            m.points.emplace_back(window[i].x(), window[i].y() + watch[i].y());
        m.pids = pairPids;
        measures.push_back(std::move(m));
    }
    // The server keeps every task until its TTL passes (a day by default), finished ones too, so
    // its memory grows with the history of an hour's run by design. With its heap in use sampled
    // (runs since the stats file has it), its memory is judged as two measures that a leak lifts
    // and the history does not: the heap in use per task it holds (the per-task state; a leak per
    // request or per poll raises it), and the RSS above the heap in use (what the allocator keeps:
    // fragmentation, arenas), both on their lows. Its RSS is drawn. A run without the heap column
    // is judged on its RSS as before.
    const bool serverHeap = table.index(QStringLiteral("server_heap_kb")) >= 0;
    // Runs since the stats file has them: the RSS, threads and open streams the server wrote with
    // its heap in use, at one instant. RSS sampled apart from the heap (a second or so later) is
    // lower or higher by what was freed or allocated in between, and a low picks such a dip.
    const bool serverSnapshot = table.index(QStringLiteral("server_stats_rss_kb")) >= 0;
    if (serverHeap) {
        add(QStringLiteral("eddy-cfd-server heap in use per task held, lowest of each 2 min"), QStringLiteral("KB"),
            QStringLiteral("Server memory per task held"), 0.1,
            ratio(QStringLiteral("server_heap_kb"), QStringLiteral("server_tasks")), true, QStringLiteral("server"));
        measures.back().lowWaterMin = 2.0;
        // Runs since the stats file has it: the anonymous RSS above the heap in use, as the
        // server read both right after each once-a-minute trim, one value per trim. That is the
        // same point of every minute's saw (the free pages just given back), and without the
        // file pages (libraries, the mapped WAL index: bounded by the files), so it is judged
        // on every trim's value rather than on lows; the lows of RSS above the heap are drawn.
        const bool afterTrim = table.index(QStringLiteral("server_trim_ms")) >= 0;
        add(QStringLiteral("eddy-cfd-server RSS above its heap in use, lowest of each 2 min"), QStringLiteral("MB"),
            QStringLiteral("Memory (RSS)"), 1.0,
            difference(serverSnapshot ? QStringLiteral("server_stats_rss_kb") : QStringLiteral("server_rss_kb"),
                       QStringLiteral("server_heap_kb"), 1.0 / 1024.0),
            !afterTrim,
            QStringLiteral("server"));
        measures.back().lowWaterMin = 2.0;
        if (afterTrim) {
            std::vector<QPointF> pts;
            const int at = table.index(QStringLiteral("server_trim_ms")), epoch = table.index(QStringLiteral("epoch_ms")),
                      anon = table.index(QStringLiteral("server_trim_anon_kb")),
                      heap = table.index(QStringLiteral("server_trim_heap_kb"));
            double last = std::nan("");
            for (size_t i = 0; i < rows; ++i) {
                const double trimMs = table.at(at, i), a = table.at(anon, i), h = table.at(heap, i);
                const bool fresh = std::isfinite(trimMs) && trimMs > 0 && trimMs != last && a >= 0 && h >= 0;
                if (fresh)
                    last = trimMs;
                // At the trim's own time: the sample that first shows it is up to one interval later.
                pts.emplace_back(fresh ? (table.t[i] - (table.at(epoch, i) - trimMs) / 1000.0) / 60.0 : table.t[i] / 60.0,
                                 fresh ? (a - h) / 1024.0 : std::nan(""));
            }
            add(QStringLiteral("eddy-cfd-server anonymous RSS above its heap in use, after each trim"), QStringLiteral("MB"),
                QStringLiteral("Server memory the allocator keeps, after each trim"), 1.0, std::move(pts), true,
                QStringLiteral("server"));
            measures.back().minPerLifetime = 6; // one a minute: 6 judged minutes, as the lows need
        }
    }
    for (const QString &r : roles) {
        const bool server = r == QLatin1String("server");
        const bool judged = server && !serverHeap;
        add(roleName[r] + (judged ? QStringLiteral(" RSS, lowest of each 2 min") : QStringLiteral(" RSS")), QStringLiteral("MB"),
            QStringLiteral("Memory (RSS)"), 1.0, column(r + QStringLiteral("_rss_kb"), 1.0 / 1024.0), judged, r);
        if (judged)
            measures.back().lowWaterMin = 2.0;
        // Open files. With the socket columns (runs since they were sampled), the sockets are
        // judged apart: the connections a process keeps follow its work (the tasks it polls, its
        // listen streams, each origin it polls) up to its HTTP client's limits, so a process that
        // takes its first cases minutes into its lifetime opens a few, which least squares reads
        // as growth. A connection it leaks outlives its peer: every server restart, hostile burst
        // and replica phase closes the server's side, and a socket kept after that waits in
        // CLOSE_WAIT, which lifts every later low. The other descriptors (the database and its
        // WAL, logs, pipes, eventfds) are judged on their lows as before; all sockets are drawn.
        if (table.index(r + QStringLiteral("_sockets")) >= 0) {
            add(roleName[r] + QStringLiteral(" open files other than sockets, lowest of each 2 min"), QString(),
                QStringLiteral("Open file descriptors"), 1.0,
                difference(r + QStringLiteral("_fds"), r + QStringLiteral("_sockets")), true, r);
            measures.back().lowWaterMin = 2.0;
            add(roleName[r] + QStringLiteral(" sockets"), QString(), QStringLiteral("Open file descriptors"), 1.0,
                column(r + QStringLiteral("_sockets")), false, r);
            add(roleName[r] + QStringLiteral(" connections closed by the peer (CLOSE_WAIT), lowest of each 2 min"),
                QString(), QStringLiteral("Connections closed by the peer, not by the process"), 1.0,
                column(r + QStringLiteral("_sockets_closing")), true, r);
            measures.back().lowWaterMin = 2.0;
        } else {
            add(roleName[r] + QStringLiteral(" open files, lowest of each 2 min"), QString(),
                QStringLiteral("Open file descriptors"), 1.0, column(r + QStringLiteral("_fds")), true, r);
            measures.back().lowWaterMin = 2.0;
        }
        // The server's threads. Each open SSE stream (a listen stream of the window or the watch,
        // a streamed call) holds a thread while it is open, and the clients close and reopen
        // theirs as tasks come and servers restart, so the fewest threads of 2 minutes moves by
        // the streams open at that moment. With the snapshot columns the threads other than the
        // open streams' are judged (a thread that leaks lifts every low of them) and all are drawn.
        if (server && serverSnapshot) {
            add(roleName[r] + QStringLiteral(" threads other than its open streams', lowest of each 2 min"), QString(),
                QStringLiteral("Threads"), 0.5,
                difference(QStringLiteral("server_stats_threads"), QStringLiteral("server_open_streams")), true, r);
            measures.back().lowWaterMin = 2.0;
            add(roleName[r] + QStringLiteral(" threads"), QString(), QStringLiteral("Threads"), 0.5,
                column(r + QStringLiteral("_threads")), false, r);
            continue;
        }
        add(roleName[r] + QStringLiteral(" threads, lowest of each 2 min"), QString(), QStringLiteral("Threads"), 0.5,
            column(r + QStringLiteral("_threads")), true, r);
        measures.back().lowWaterMin = 2.0;
    }
    // The server's heap in use (glibc's chunks in use, from its stats file): RSS less the freed
    // memory the allocator keeps; it also holds every finished task's record (without its result)
    // until the task expires, so it grows with the history. Drawn, not judged.
    add(QStringLiteral("eddy-cfd-server heap in use"), QStringLiteral("MB"), QStringLiteral("Memory (RSS)"), 1.0,
        column(QStringLiteral("server_heap_kb"), 1.0 / 1024.0), false, QStringLiteral("server"));
    // The tasks each one polls (the task leases it holds): a kill -9 of one moves its tasks to
    // the other, and new cases go to whichever asks first; their RSS follows. Drawn, not judged.
    for (const QString &r : {QStringLiteral("window"), QStringLiteral("watch")})
        add(QStringLiteral("tasks %1 polls").arg(r == QLatin1String("window") ? QStringLiteral("the window") : QStringLiteral("eddyctl watch")),
            QString(), QStringLiteral("Tasks polled (task leases held)"), 0, column(r + QStringLiteral("_tasks")), false, r);
    // The files grow with the history they keep (every finished case stays): drawn, not judged.
    // Judged: the pages against the bytes they hold (free pages, bloat).
    const QString files = QStringLiteral("Database files"), perByte = QStringLiteral("Database bytes per byte of data");
    add(QStringLiteral("Eddy database file"), QStringLiteral("MB"), files, 1, column(QStringLiteral("db_bytes"), mb), false);
    add(QStringLiteral("server database file"), QStringLiteral("MB"), files, 1, column(QStringLiteral("server_db_bytes"), mb), false);
    // Judged: the free pages (space a leak of pages would grow: deleted rows never reused). The
    // pages per payload byte are drawn, not judged: besides free pages they hold the fill of the
    // b-tree pages, which differs by table and index (an index on task_id, whose rows arrive in
    // random task order, holds 1.6 bytes of page per byte, a table written in id order 1.1), so
    // the ratio of the whole moves with the history's mix without any space lost (docs/soak.md).
    const QString freePanel = QStringLiteral("Database free pages");
    add(QStringLiteral("Eddy database free pages"), QStringLiteral("MB"), freePanel, 1,
        column(QStringLiteral("db_free_bytes"), mb));
    add(QStringLiteral("server database free pages"), QStringLiteral("MB"), freePanel, 1,
        column(QStringLiteral("server_db_free_bytes"), mb));
    add(QStringLiteral("Eddy database pages per payload byte"), QString(), perByte, 0.02,
        ratio(QStringLiteral("db_page_bytes"), QStringLiteral("db_payload")), false);
    add(QStringLiteral("server database pages per payload byte"), QString(), perByte, 0.02,
        ratio(QStringLiteral("server_db_page_bytes"), QStringLiteral("server_db_payload")), false);
    add(QStringLiteral("Eddy WAL"), QStringLiteral("MB"), QStringLiteral("WAL size"), 1, column(QStringLiteral("wal_bytes"), mb));
    add(QStringLiteral("server WAL"), QStringLiteral("MB"), QStringLiteral("WAL size"), 1, column(QStringLiteral("server_wal_bytes"), mb));
    // An event written per poll or per restart would add hundreds or one per task an hour; the
    // history's mix (long cases have a few dozen) moves the ratio by hundredths. Finished cases
    // keep their progress samples: the mix of the history, not a leak (drawn, not judged).
    const QString perTask = QStringLiteral("Rows per stored task");
    add(QStringLiteral("status events per stored task"), QString(), perTask, 0.5,
        ratio(QStringLiteral("db_events"), QStringLiteral("db_tasks")));
    add(QStringLiteral("progress samples per stored task"), QString(), perTask, 0.5,
        ratio(QStringLiteral("db_samples"), QStringLiteral("db_tasks")), false);
    const QString rowsPanel = QStringLiteral("Change log, lease and inbox rows");
    add(QStringLiteral("change log rows"), QString(), rowsPanel, 100, column(QStringLiteral("db_changes")));
    add(QStringLiteral("open questions (inbox rows)"), QString(), rowsPanel, 50, column(QStringLiteral("db_questions_pending")));
    add(QStringLiteral("lease rows"), QString(), rowsPanel, 100, column(QStringLiteral("db_leases")));
    // The stall is judged on each minute's median of the 5 s windows' p99: a window in which
    // other processes held both cores shows a p99 of tens of milliseconds where its neighbours
    // show tenths, and least squares weighs such a spike by its square, so one near the end of a
    // lifetime made a slope. A stall that grows shows in every window, so in the median. The 5 s
    // values are drawn.
    add(QStringLiteral("window stall p99"), QStringLiteral("ms"), QStringLiteral("Window main-thread stall (5 s windows)"), 1.0,
        column(QStringLiteral("stall_p99_ms")), false, QStringLiteral("window"));
    measures.push_back(bucketed(measures.back(), QStringLiteral("window stall p99, median of each minute"), 1.0,
                                [](std::vector<double> &b) {
                                    std::nth_element(b.begin(), b.begin() + b.size() / 2, b.end());
                                    return b[b.size() / 2];
                                }));
    // Whether the window and the watch poll a task, per row (unknown without the columns: polling).
    const auto pollingOf = [&](const QString &role) {
        std::vector<char> out;
        const int c = table.index(role + QStringLiteral("_tasks"));
        for (size_t i = 0; i < rows; ++i) {
            const double v = table.at(c, i);
            out.push_back(!std::isfinite(v) || v > 0);
        }
        return out;
    };
    const std::vector<char> windowPolling = pollingOf(QStringLiteral("window")), watchPolling = pollingOf(QStringLiteral("watch"));
    for (Measure &m : measures) {
        if (m.pidName == QLatin1String("window") && m.points.size() == rows)
            m.polling = windowPolling;
        else if (m.pidName == QLatin1String("watch") && m.points.size() == rows)
            m.polling = watchPolling;
        else if (m.pidName == QLatin1String("window+watch")) {
            for (size_t i = 0; i < rows; ++i)
                m.polling.push_back(windowPolling[i] && watchPolling[i]);
        }
    }
    for (Measure &m : measures)
        judge(m, warmupMin, m.pidName.isEmpty() ? 0.0 : lifetimeWarmupMin);

    // Polls: what the servers served against what their advertised intervals asked for, from
    // the end of the warm-up to the end of the run.
    const int cPolls = table.index(QStringLiteral("polls")), cAsked = table.index(QStringLiteral("asked"));
    std::optional<std::pair<double, double>> first, last;
    for (size_t i = 0; i < rows; ++i) {
        const double p = table.at(cPolls, i), a = table.at(cAsked, i);
        if (!std::isfinite(p) || !std::isfinite(a))
            continue;
        if (!first && table.t[i] / 60.0 >= warmupMin)
            first = {p, a};
        last = {p, a};
    }
    const double pollsFromFinal = fin.value(QStringLiteral("polls")).toDouble();
    const double askedFromFinal = fin.value(QStringLiteral("asked")).toDouble();
    double polls = 0, asked = 0;
    if (first && last) {
        // The final totals include the last lifetime's closing write (after the last sample).
        polls = std::max(last->first, pollsFromFinal) - first->first;
        asked = std::max(last->second, askedFromFinal) - first->second;
    }
    const double pollRatio = asked > 0 ? polls / asked : std::nan("");

    // Counts from the databases and the servers' records.
    const auto n = [&](const char *key) { return fin.value(QString::fromLatin1(key), QStringLiteral("-1")).toLongLong(); };
    const bool haveFinal = !fin.isEmpty() && fin.contains(QStringLiteral("lost"));
    const qint64 lost = n("lost") + std::max<qint64>(0, n("stale")) + std::max<qint64>(0, n("unknown_to_server"))
                        + std::max<qint64>(0, n("cases_unsent")) + std::max<qint64>(0, n("hostile_lost"))
                        + std::max<qint64>(0, n("replica_lost"));
    const qint64 twice = std::max<qint64>(0, n("twice_client")) + std::max<qint64>(0, n("twice_server"))
                         + std::max<qint64>(0, n("replica_twice"));
    const qint64 answered = n("questions_answered");
    const qint64 badAnswers = std::max<qint64>(0, n("answers_applied_twice")) + std::max<qint64>(0, n("answered_not_applied"))
                              + std::llabs(answered - n("rule_answered")) + std::llabs(n("answers_applied") - answered);

    // The verdict, in words.
    QStringList lines;
    QStringList failures;
    lines << QStringLiteral("Soak of %1 min (%2 min sampled), warm-up %3 min; every measure judged from minute %3, "
                            "processes from 2 min after each (re)start and after they first poll a task.")
                 .arg(minutes).arg(fmt(endMin)).arg(fmt(warmupMin));
    lines << QString();
    lines << QStringLiteral("| measure | mean | slope | %/h | verdict |");
    lines << QStringLiteral("|---|---|---|---|---|");
    const Measure *worst = nullptr;
    for (const Measure &m : measures) {
        if (m.used < 5) {
            lines << QStringLiteral("| %1 | — | — | — | not judged (%2 samples) |").arg(m.name).arg(m.used);
            continue;
        }
        if (m.judged && (!worst || m.percentPerHour > worst->percentPerHour))
            worst = &m;
        QString verdict = !m.judged ? QStringLiteral("shown, not judged") : m.pass ? QStringLiteral("ok") : QStringLiteral("**grows**");
        if (!m.pass) {
            verdict += QStringLiteral(" from minute %1").arg(fmt(m.growthStartMin));
            failures << QStringLiteral("%1 grows %2 %/h (%3 %4/h) from minute %5")
                            .arg(m.name, fmt(m.percentPerHour), fmt(m.slopePerHour, 2), m.unit)
                            .arg(fmt(m.growthStartMin));
        } else if (m.judged && m.percentPerHour > 2.0) {
            verdict += QStringLiteral(" (below resolution: %1 %2/h)").arg(fmt(m.floorPerHour, 2), m.unit);
        }
        lines << QStringLiteral("| %1 | %2 %3 | %4 %3/h | %5 | %6 |")
                     .arg(m.name, fmt(m.mean, 2), m.unit, fmt(m.slopePerHour, 3), fmt(m.percentPerHour, 2), verdict);
    }
    lines << QString();
    const QString pollText = std::isfinite(pollRatio)
        ? QStringLiteral("polls after warm-up: %1 sent, %2 asked by the advertised intervals: %3 %")
              .arg(qint64(polls)).arg(qint64(asked)).arg(fmt(100.0 * pollRatio, 2))
        : QStringLiteral("polls: not measured (no server stats after the warm-up)");
    lines << pollText;
    if (std::isfinite(pollRatio) && pollRatio > 1.01)
        failures << QStringLiteral("over-polling: %1 % of what the servers asked").arg(fmt(100.0 * pollRatio, 2));
    if (std::isfinite(pollRatio) && pollRatio < 0.99)
        lines << QStringLiteral("under-polling (reported, not a failure): %1 % of what the servers asked").arg(fmt(100.0 * pollRatio, 2));
    if (!std::isfinite(pollRatio))
        failures << QStringLiteral("polls: not measured");
    if (haveFinal) {
        lines << QStringLiteral("tasks: %1 cases, %2 tasks on the reference server; lost %3 (stale %4, unknown to the server %5, "
                                "unsent %6, hostile %7, replicas %8); run twice %9")
                     .arg(n("cases")).arg(n("tasks")).arg(n("lost")).arg(n("stale")).arg(n("unknown_to_server"))
                     .arg(n("cases_unsent")).arg(n("hostile_lost")).arg(std::max<qint64>(0, n("replica_lost"))).arg(twice);
        lines << QStringLiteral("questions: %1 asked, %2 answered by the rule (%3 cancelled), %4 answered in Eddy's database, "
                                "%5 answers applied by the server, %6 applied twice, %7 answered but not applied; %8 pending at the end")
                     .arg(n("questions")).arg(n("rule_answered")).arg(n("rule_cancelled")).arg(answered)
                     .arg(n("answers_applied")).arg(n("answers_applied_twice")).arg(n("answered_not_applied"))
                     .arg(n("questions_pending"));
        if (lost > 0)
            failures << QStringLiteral("%1 task(s) lost").arg(lost);
        if (twice > 0)
            failures << QStringLiteral("%1 task(s) run twice").arg(twice);
        if (badAnswers > 0)
            failures << QStringLiteral("questions not answered exactly once (%1)").arg(badAnswers);
    } else {
        failures << QStringLiteral("final.txt missing: lost/twice/questions not counted");
    }
    lines << QStringLiteral("replicas: %1").arg(fin.value(QStringLiteral("replicas"), QStringLiteral("unknown")));
    lines << QString();
    const bool pass = failures.isEmpty();
    lines << (pass ? QStringLiteral("VERDICT: PASS") : QStringLiteral("VERDICT: FAIL: ") + failures.join(QStringLiteral("; ")));

    // The charts: one panel per measure group, the faults drawn as vertical lines.
    QMap<QString, QList<const Measure *>> byPanel;
    QStringList panelOrder;
    for (const Measure &m : measures) {
        if (!byPanel.contains(m.panel))
            panelOrder << m.panel;
        byPanel[m.panel] << &m;
    }
    static const QColor palette[] = {QColor(0x1f, 0x77, 0xb4), QColor(0xd6, 0x27, 0x28), QColor(0x2c, 0xa0, 0x2c),
                                     QColor(0x94, 0x67, 0xbd)};
    const auto markers = [&](Eddy::SvgPlot &p, double lo, double hi) {
        const QColor grey(0xb0, 0xb0, 0xb0);
        bool named = false;
        for (const Event &e : events) {
            if (e.kind != QLatin1String("restart") && e.kind != QLatin1String("kill") && e.kind != QLatin1String("hostile")
                && e.kind != QLatin1String("replicas"))
                continue;
            Eddy::SvgPlot::Series s{named ? QString() : QStringLiteral("faults"), grey, {{e.t / 60.0, lo}, {e.t / 60.0, hi}}};
            named = true;
            p.series << s;
        }
        p.series << Eddy::SvgPlot::Series{QStringLiteral("end of warm-up"), QColor(0x60, 0x60, 0x60),
                                          {{warmupMin, lo}, {warmupMin, hi}}};
    };
    const auto range = [](const QList<Eddy::SvgPlot::Series> &series) {
        double lo = std::numeric_limits<double>::max(), hi = std::numeric_limits<double>::lowest();
        for (const auto &s : series)
            for (const QPointF &p : s.points)
                if (std::isfinite(p.y())) {
                    lo = std::min(lo, p.y());
                    hi = std::max(hi, p.y());
                }
        if (lo > hi)
            lo = 0, hi = 1;
        return std::pair<double, double>(std::min(0.0, lo), hi > 0 ? hi * 1.05 : 1.0);
    };
    QList<Eddy::SvgPlot> panels;
    const auto addPanel = [&](const QString &title, const QString &yLabel, const QList<Eddy::SvgPlot::Series> &series) {
        Eddy::SvgPlot p;
        p.title = title;
        p.xLabel = QStringLiteral("minutes");
        p.yLabel = yLabel;
        p.series = series;
        const auto [lo, hi] = range(p.series);
        markers(p, lo, hi);
        panels << p;
    };
    for (const QString &panel : panelOrder) {
        QList<Eddy::SvgPlot::Series> series;
        for (const Measure *m : byPanel[panel]) {
            QString label = m->name;
            if (m->used >= 5)
                label += QStringLiteral(" (%1 %/h)").arg(fmt(m->percentPerHour));
            series << Eddy::SvgPlot::Series{label, palette[series.size() % 4], m->points};
        }
        addPanel(panel, byPanel[panel].first()->unit, series);
    }
    addPanel(QStringLiteral("Polls: served vs asked by the advertised intervals (cumulative)"), QStringLiteral("polls"),
             {{QStringLiteral("served (tasks/get)"), palette[0], column(QStringLiteral("polls"))},
              {QStringLiteral("asked"), palette[1], column(QStringLiteral("asked"))}});
    std::vector<QPointF> live;
    const int cWorking = table.index(QStringLiteral("server_working"));
    const int cAsking = table.index(QStringLiteral("server_input_required"));
    for (size_t i = 0; i < rows; ++i)
        live.emplace_back(table.t[i] / 60.0, table.at(cWorking, i) + table.at(cAsking, i));
    addPanel(QStringLiteral("Tasks on the reference server"), QStringLiteral("tasks"),
             {{QStringLiteral("live"), palette[0], live},
              {QStringLiteral("questions pending"), palette[1], column(QStringLiteral("server_input_required"))},
              {QStringLiteral("stored"), palette[2], column(QStringLiteral("server_tasks"))}});
    // Tasks lost or run twice, at the times the databases record (final.txt); the run's start
    // in epoch ms from the first sample.
    const double startMs = table.at(table.index(QStringLiteral("epoch_ms")), 0) - table.t[0] * 1000.0;
    const auto cumulative = [&](const char *key) {
        std::vector<double> at;
        for (const QString &v : fin.values(QString::fromLatin1(key)))
            at.push_back((v.toDouble() - startMs) / 60000.0);
        std::sort(at.begin(), at.end());
        std::vector<QPointF> pts{{0, 0}};
        for (size_t i = 0; i < at.size(); ++i) {
            pts.emplace_back(at[i], double(i));
            pts.emplace_back(at[i], double(i + 1));
        }
        pts.emplace_back(endMin, double(at.size()));
        return pts;
    };
    if (haveFinal)
        addPanel(QStringLiteral("Tasks lost or run twice (cumulative, at the databases' times)"), QStringLiteral("tasks"),
                 {{QStringLiteral("lost"), palette[1], cumulative("lost_at")},
                  {QStringLiteral("run twice"), palette[0], cumulative("twice_at")}});
    addPanel(QStringLiteral("Machine load (1-minute average)"), QString(),
             {{QStringLiteral("load"), palette[0], column(QStringLiteral("load1"))}});
    const QString title = QStringLiteral("Eddy soak, %1 min: %2").arg(minutes).arg(pass ? QStringLiteral("PASS") : QStringLiteral("FAIL"));
    if (!writeSvg(dir + QStringLiteral("/soak.svg"), title, panels, error))
        std::fprintf(stderr, "bench_soak report: %s\n", qPrintable(error));
    {
        QSaveFile f(dir + QStringLiteral("/verdict.txt"));
        if (!f.open(QIODevice::WriteOnly) || f.write((lines.join(QLatin1Char('\n')) + QLatin1Char('\n')).toUtf8()) < 0
            || !f.commit())
            std::fprintf(stderr, "bench_soak report: cannot write verdict.txt\n");
    }
    for (const QString &l : lines)
        std::printf("%s\n", qPrintable(l));

    // RESULT rows (bench/README.md); a row without a value says why.
    const std::string how = "bench/soak/soak.sh BUILD_DIR --minutes " + std::to_string(minutes);
    const auto row = [&](const std::string &what, const char *unit, const char *target, int decimals,
                         std::optional<double> value, const QString &shown, const char *why) {
        Result r;
        r.bench = "soak";
        r.how = how;
        r.what = "Soak " + std::to_string(minutes) + " min: " + what;
        r.unit = unit;
        r.target = target;
        r.decimals = decimals;
        r.value = value;
        r.shown = shown.toStdString();
        r.why = value ? "" : why;
        printResult(r);
    };
    std::optional<double> growth;
    QString growthShown;
    if (worst) {
        // Growth below a measure's resolution counts as none; the row names the fastest grower.
        const auto effective = [](const Measure &m) { return m.slopePerHour <= m.floorPerHour ? 0.0 : m.percentPerHour; };
        const Measure *top = nullptr;
        for (const Measure &m : measures)
            if (m.judged && m.used >= 5 && (!top || effective(m) > effective(*top)))
                top = &m;
        growth = std::max(0.0, effective(*top));
        growthShown = top->name + QStringLiteral(" %1 %/h (%2 %3/h)").arg(fmt(top->percentPerHour), fmt(top->slopePerHour, 2), top->unit)
                      + (top->pass ? QString() : QStringLiteral(", from minute %1").arg(fmt(top->growthStartMin)));
    }
    row("fastest-growing resource after warm-up", "%/h", "<=2", 1, growth, growthShown,
        "too few samples after the warm-up");
    const auto counted = [&](qint64 v) { return haveFinal ? std::optional<double>(double(v)) : std::nullopt; };
    row("tasks lost or run twice", "tasks", "<=0", 0, counted(lost + twice),
        QStringLiteral("%1 lost, %2 twice of %3 tasks").arg(lost).arg(twice).arg(n("tasks")), "final.txt missing");
    row("questions not answered exactly once", "questions", "<=0", 0, counted(badAnswers),
        QStringLiteral("%1 answered, %2 applied, %3 twice").arg(answered).arg(n("answers_applied")).arg(n("answers_applied_twice")),
        "final.txt missing");
    row("polls sent above what the servers asked", "%", "<=1", 2,
        std::isfinite(pollRatio) ? std::optional<double>(100.0 * (pollRatio - 1.0)) : std::nullopt,
        QStringLiteral("%1 sent / %2 asked (%3 %)").arg(qint64(polls)).arg(qint64(asked)).arg(fmt(100.0 * pollRatio, 2)),
        "no server stats after the warm-up");
    return pass ? 0 : 1;
}

} // namespace Bench
