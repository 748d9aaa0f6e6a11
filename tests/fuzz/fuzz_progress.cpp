// statusMessage -> progress samples: any text a server sends must give finite-or-infinite (never
// NaN) samples with a series name, the same samples every time, and the caller's task and time.
#include "app/monitor/progressparser.h"
#include "tests/fuzz/fuzzcheck.h"

#include <cmath>
#include <cstddef>
#include <cstdint>

using Eddy::Monitor::ProgressParser;

namespace {

const ProgressParser &parser()
{
    // Built-ins plus two user templates of the kind the docs suggest (one per tool, one global).
    static const ProgressParser p = [] {
        ProgressParser q;
        QList<Eddy::Store::ProgressTemplate> templates;
        templates.append({1, QStringLiteral("cfd_cavity"), QStringLiteral("courant"),
                          QStringLiteral("Co(?:urant)?\\s*=\\s*(?<courant>[-+0-9.eE]+)")});
        templates.append({2, QString(), QStringLiteral("cfl"),
                          QStringLiteral("cfl (?<x>\\d+): (?<cfl>\\S+)")});
        const QStringList problems = q.setTemplates(templates);
        FUZZ_CHECK(problems.isEmpty());
        return q;
    }();
    return p;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QString message = QString::fromUtf8(reinterpret_cast<const char *>(data), qsizetype(size));
    const qint64 atMs = 1'790'000'000'000;
    const auto samples = parser().parse(message, QStringLiteral("cfd_cavity"), atMs, 42);
    for (const auto &s : samples) {
        FUZZ_CHECK(s.taskId == 42);
        FUZZ_CHECK(s.atMs == atMs);
        FUZZ_CHECK(!s.series.isEmpty());
        FUZZ_CHECK(!std::isnan(s.x)); // NaN cannot be stored: SQLite reads it back as NULL
        FUZZ_CHECK(!std::isnan(s.y));
    }
    // All samples of one message share one x.
    for (const auto &s : samples)
        FUZZ_CHECK(s.x == samples.front().x);
    // Deterministic: parsing again gives the same samples.
    const auto again = parser().parse(message, QStringLiteral("cfd_cavity"), atMs, 42);
    FUZZ_CHECK(again.size() == samples.size());
    for (qsizetype i = 0; i < samples.size(); ++i) {
        FUZZ_CHECK(again[i].series == samples[i].series);
        FUZZ_CHECK(again[i].y == samples[i].y || (std::isinf(again[i].y) && std::isinf(samples[i].y)));
    }
    // Another tool never gets the per-tool template's series.
    for (const auto &s : parser().parse(message, QStringLiteral("other_tool"), atMs, 42))
        FUZZ_CHECK(s.series != QLatin1String("courant"));
    return 0;
}
