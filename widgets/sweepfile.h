#pragma once

#include <QByteArray>
#include <QCoreApplication>
#include <QString>

class QWidget;

namespace Eddy {

class SweepEditor;

// File > Open Sweep... and Save Sweep...: the sweep editor read from and written to the JSON spec
// format eddyctl submits (docs/sweeps.md). Opening checks the file's shape, the tool, and every
// value against the tool's schema, and explains what is wrong.
class SweepFile final
{
    Q_DECLARE_TR_FUNCTIONS(Eddy::SweepFile)

public:
    // Fills `editor` from a spec (its current server must offer the tool). False + *error (a
    // sentence that says what to fix) when the file cannot be used; the editor may be half filled.
    static bool load(SweepEditor *editor, const QByteArray &text, QString *error);
    // The editor's sweep as spec JSON (indented); empty + *error when the editor has problems.
    static QByteArray save(const SweepEditor *editor, QString *error);

    // Asks for a file (a non-native QFileDialog named "sweepFileDialog") and loads or saves it;
    // problems are shown in a message box named "sweepFileError".
    static void askToOpen(SweepEditor *editor, QWidget *parent);
    static void askToSave(SweepEditor *editor, QWidget *parent);
};

} // namespace Eddy
