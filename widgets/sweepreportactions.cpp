#include "widgets/sweepreportactions.h"

#include "models/sweepreport.h"
#include "models/sweepresultsmodel.h"
#include "widgets/elicitationdialog.h"
#include "widgets/filedialog.h"
#include "widgets/mainwindow.h"
#include "widgets/sweepresultsview.h"

#include <QAction>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QSettings>
#include <QStatusBar>

namespace Eddy {

SweepReportActions::SweepReportActions(MainWindow *window, EngineBridge *bridge)
    : QObject(window)
    , m_window(window)
    , m_bridge(bridge)
{
    connect(m_bridge, &EngineBridge::sweepReportReady, this, &SweepReportActions::onReady);
}

SweepReportActions::~SweepReportActions() = default;

void SweepReportActions::addTo(QMenu *menu)
{
    QAction *action = menu->addAction(tr("Export Sweep Report..."), this, &SweepReportActions::askToExport);
    action->setObjectName(QStringLiteral("exportSweepReport"));
    action->setToolTip(tr("Write the shown sweep's report: parameters, outcomes, charts and every "
                          "question with its answer, as one HTML file or a PDF"));
}

void SweepReportActions::askToExport()
{
    if (m_pendingSweep != 0)
        return;
    const qint64 sweepId = m_window->sweepResults()->model()->sweepId();
    if (sweepId <= 0) {
        showMessage(QStringLiteral("sweepReportNoSweep"),
                    tr("No sweep is shown. Select a task of a sweep in the task list: its sweep's "
                       "results appear, and the report is of that sweep."));
        return;
    }
    const QString html = tr("HTML report (*.html)");
    const QString pdf = tr("PDF document (*.pdf)");
    QFileDialog *dialog = newFileDialog(m_window, tr("Export Sweep Report"), QStringLiteral("sweepReportFileDialog"),
                                        {html, pdf}, QStringLiteral("sweepReport/dir"));
    dialog->setAcceptMode(QFileDialog::AcceptSave);
    dialog->setDefaultSuffix(QStringLiteral("html"));
    dialog->selectFile(QStringLiteral("sweep-%1-report.html").arg(sweepId));
    connect(dialog, &QFileDialog::filterSelected, dialog, [dialog, pdf](const QString &filter) {
        dialog->setDefaultSuffix(filter == pdf ? QStringLiteral("pdf") : QStringLiteral("html"));
    });
    connect(dialog, &QFileDialog::fileSelected, this, [this, sweepId](const QString &path) {
        QSettings().setValue(QStringLiteral("sweepReport/dir"), QFileInfo(path).absolutePath());
        m_path = path;
        m_pendingSweep = sweepId;
        m_window->statusBar()->showMessage(tr("Writing the report of sweep %1...").arg(sweepId));
        m_bridge->requestSweepReport(sweepId);
    });
    dialog->open();
}

void SweepReportActions::onReady(qint64 sweepId, bool ok, const SweepReportInput &input)
{
    if (m_pendingSweep == 0 || sweepId != m_pendingSweep)
        return;
    m_pendingSweep = 0;
    m_window->statusBar()->clearMessage();
    if (!ok) {
        showMessage(QStringLiteral("sweepReportError"),
                    tr("Sweep %1 is no longer in the database; nothing was written.").arg(sweepId));
        return;
    }
    QString error;
    const bool pdf = m_path.endsWith(QLatin1String(".pdf"), Qt::CaseInsensitive);
    if (!(pdf ? SweepReport::writePdf(input, m_path, &error) : SweepReport::writeHtml(input, m_path, &error))) {
        showMessage(QStringLiteral("sweepReportError"),
                    tr("%1. Choose a folder you can write to and export again.").arg(error));
        return;
    }
    m_window->statusBar()->showMessage(
        tr("Report of sweep %1 written to %2").arg(sweepId).arg(QDir::toNativeSeparators(m_path)), 15000);
}

void SweepReportActions::showMessage(const QString &objectName, const QString &text)
{
    auto *box = new QMessageBox(QMessageBox::Warning, tr("Export Sweep Report"), text, QMessageBox::Ok, m_window);
    box->setObjectName(objectName);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

} // namespace Eddy
