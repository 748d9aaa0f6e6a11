#pragma once

#include "app/monitor/sweepexport.h"
#include "models/sweepreportinput.h"

#include <QCoreApplication>
#include <QHash>

#include <optional>

namespace Eddy {

namespace Monitor {
class Engine;
}

// Reads a sweep report's input from the engine's store: the export's rows and columns
// (Monitor::SweepExport), every question with its answer, who gave it and when, and each case's
// residual history, and the sweep's and each case's note and tags. The window (through
// EngineBridge, on the engine's thread) and eddyctl read the same way. The thread that owns the
// engine.
class SweepReportReader final
{
    Q_DECLARE_TR_FUNCTIONS(Eddy::SweepReportReader)

public:
    // Empty when there is no such sweep.
    static std::optional<SweepReportInput> read(Monitor::Engine &engine, qint64 sweepId);

    // The pure part, for tests and benches: the input from records already read.
    struct Records
    {
        Store::SweepRecord sweep;
        QString server;
        QString session;
        QList<Monitor::SweepExport::Row> rows;
        QHash<qint64, QList<Store::InputRequestRecord>> questions; // by task number
        QHash<qint64, QList<Store::ProgressSample>> samples;       // by task number, when read
        std::optional<int> baselineIndex; // the marked baseline's position in the sweep
    };
    static SweepReportInput fromRecords(const Records &records);
    // Whether a stored result carries its own residual history (no samples needed).
    static bool hasResidualHistory(const QString &resultJson);
    // "accept: action repair, smoothing_passes 5", "decline", from an ElicitResult's JSON text.
    static QString answerText(const QString &elicitResultJson);
};

} // namespace Eddy
