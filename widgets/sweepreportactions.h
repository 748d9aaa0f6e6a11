#pragma once

#include "models/enginebridge.h"

#include <QObject>
#include <QString>

class QMenu;

namespace Eddy {

class MainWindow;

// File > Export Sweep Report...: the report (SweepReport) of the sweep the results view shows,
// as HTML or PDF by the file's suffix. The input is read on the engine's thread through the
// EngineBridge; the file is written here. Dialogs are window-modal and opened without a nested
// event loop. GUI thread; a child of the main window.
class SweepReportActions final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SweepReportActions)

public:
    SweepReportActions(MainWindow *window, EngineBridge *bridge);
    ~SweepReportActions() override;

    void addTo(QMenu *menu);
    void askToExport();

private:
    void onReady(qint64 sweepId, bool ok, const SweepReportInput &input);
    void showMessage(const QString &objectName, const QString &text);

    MainWindow *m_window;
    EngineBridge *m_bridge;
    qint64 m_pendingSweep = 0; // the sweep whose report is being read, 0 when none
    QString m_path;
};

} // namespace Eddy
