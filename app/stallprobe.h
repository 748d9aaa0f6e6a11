#pragma once

// EDDY_STALL_PROBE=FILE: measures how late the window's main thread runs a posted call, for
// long measurements (bench/soak). A sleeping thread posts a stamped call every 10 ms; the main
// thread appends one line per 5 s window to FILE: "EPOCH_MS SAMPLES P50_MS P99_MS MAX_MS".
// The same posted-call probe as bench_gui's idle one, kept running for as long as the window.

#include <QElapsedTimer>
#include <QFile>
#include <QObject>

#include <atomic>
#include <thread>
#include <vector>

namespace Eddy {

class StallProbe final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(StallProbe)

public:
    // Starts when EDDY_STALL_PROBE names a file it can append to; otherwise does nothing.
    explicit StallProbe(QObject *parent = nullptr);
    ~StallProbe() override;

private:
    void received(qint64 sentNs);
    void flush();

    QFile m_file;
    QElapsedTimer m_clock;
    std::vector<double> m_latencies; // ms, this window's
    qint64 m_windowStartNs = 0;
    std::atomic<bool> m_running{false};
    std::thread m_poster;
};

} // namespace Eddy
