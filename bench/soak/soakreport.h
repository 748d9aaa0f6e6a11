#pragma once

// The soak's report (docs/soak.md): reads a run's folder, judges it, draws it.

#include <QString>

namespace Bench {

// Reads DIR/samples.csv, DIR/events.csv, DIR/stall.txt and DIR/final.txt; writes DIR/soak.svg
// and DIR/verdict.txt; prints RESULT lines. Returns 0 when the verdict passes, 1 when it fails,
// 2 when the folder cannot be read.
int soakReport(const QString &dir);

} // namespace Bench
