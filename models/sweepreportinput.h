#pragma once

#include "app/vocab/outcome.h"
#include "app/vocab/records.h"

#include <QList>
#include <QMetaType>
#include <QPair>
#include <QPointF>
#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

namespace Eddy {

// Everything a sweep report shows, as plain values: what SweepReport renders to HTML and PDF.
// Filled from the store by SweepReportReader (the window and eddyctl read the same way) or by
// hand in tests. Holds Eddy's own task numbers only, never a server's task id. Any thread.
struct SweepReportInput
{
    // A note an engineer wrote on the sweep or on a case.
    struct Note
    {
        QString text;
        QString author;
        qint64 atMs = 0; // epoch ms; 0 when not known
    };

    // One question the server asked during a case, with its answer: the audit trail.
    struct Question
    {
        QString message;    // what the server asked
        QString answer;     // the answer as given: "repair (smoothing_passes 5)", "decline"
        QString answeredBy; // the user's login name, eddyctl or the agent
        Store::InputState state = Store::InputState::Pending;
        qint64 askedAtMs = 0;
        std::optional<qint64> answeredAtMs;
    };

    struct Case
    {
        int index = 0;                    // position in the sweep, 0-based (shown from 1)
        std::optional<qint64> taskNumber; // Eddy's own task number once there is a task
        Monitor::Outcome outcome = Monitor::Outcome::Working;
        bool submitted = true;            // false: never sent (not_submitted in the export)
        QString status;                   // the stored status word ("completed", "rejected")
        QStringList arguments;            // per SweepReportInput::argumentColumns
        QStringList results;              // per SweepReportInput::resultColumns
        QString error;                    // the error message of a failed or rejected case
        // The residual histories of the run: the result's residual_history, else the residual
        // series of its progress samples. Each a name ("u", "v", "ω") and (iteration, residual).
        QList<QPair<QString, std::vector<QPointF>>> residuals;
        QList<Question> questions;
        QStringList tags;
        QList<Note> notes;
    };

    qint64 sweepNumber = 0;
    QString tool;
    QString server;     // the server's name as Eddy shows it
    QString session;    // empty when the sweep is in no session
    qint64 createdAtMs = 0;
    int concurrency = 0;
    QString mode;       // "grid" or "zip", as in the spec
    QList<QPair<QString, QString>> varied; // name -> the values as the spec gives them
    QList<QPair<QString, QString>> fixed;  // name -> value
    int variedCount = 0;                   // the first variedCount argumentColumns are varied
    QStringList argumentColumns;           // SweepExport::Table's columns
    QStringList resultColumns;
    QList<Case> cases;                     // in case order, the latest attempt of each
    QStringList tags;
    QList<Note> notes;
    // The case the engineer marked as the sweep's baseline (its position); none: none marked.
    std::optional<int> baselineIndex;
    qint64 generatedAtMs = 0;
};

} // namespace Eddy

Q_DECLARE_METATYPE(Eddy::SweepReportInput)
