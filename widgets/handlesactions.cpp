#include "widgets/handlesactions.h"

#include "models/serverlistmodel.h"
#include "models/sessionlistmodel.h"
#include "widgets/elicitationdialog.h"
#include "widgets/filedialog.h"
#include "widgets/mainwindow.h"
#include "widgets/taskmonitor.h"

#include <QAction>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>

namespace Eddy {

namespace {

QFileDialog *handlesDialog(QWidget *parent, const QString &title)
{
    return newFileDialog(parent, title, QStringLiteral("handlesFileDialog"),
                         {HandlesActions::tr("Task handles (*.jsonl *.json)"), HandlesActions::tr("All files (*)")},
                         QStringLiteral("handles/dir"));
}

// Readable by the owner only, also when the file existed: the mode is set before any secret is
// written.
QString writePrivate(const QString &path, const QByteArray &data)
{
    const QFileDevice::Permissions owner = QFileDevice::ReadOwner | QFileDevice::WriteOwner;
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate, owner))
        return file.errorString();
    if (!file.setPermissions(owner))
        return file.errorString();
    if (file.write(data) != data.size() || !file.flush())
        return file.errorString();
    file.close();
    return {};
}

} // namespace

HandlesActions::HandlesActions(MainWindow *window, EngineBridge *bridge)
    : QObject(window)
    , m_window(window)
    , m_bridge(bridge)
{
    connect(m_bridge, &EngineBridge::handlesImported, this, &HandlesActions::onImported);
    connect(m_bridge, &EngineBridge::handlesExported, this, &HandlesActions::onExported);
}

HandlesActions::~HandlesActions() = default;

void HandlesActions::addTo(QMenu *menu)
{
    QAction *importAction
        = menu->addAction(tr("Import Task Handles..."), this, &HandlesActions::askToImport);
    importAction->setObjectName(QStringLiteral("importHandles"));
    importAction->setToolTip(
        tr("Take in tasks another MCP client handed off and monitor them here"));
    QAction *exportAction
        = menu->addAction(tr("Export Task Handles..."), this, &HandlesActions::askToExport);
    exportAction->setObjectName(QStringLiteral("exportHandles"));
    exportAction->setToolTip(tr("Write references to the selected tasks for another MCP client"));
}

void HandlesActions::askToImport()
{
    if (m_importPending)
        return;
    QFileDialog *dialog = handlesDialog(m_window, tr("Import Task Handles"));
    dialog->setAcceptMode(QFileDialog::AcceptOpen);
    dialog->setFileMode(QFileDialog::ExistingFile);
    connect(dialog, &QFileDialog::fileSelected, this, &HandlesActions::importFile);
    dialog->open();
}

void HandlesActions::importFile(const QString &path)
{
    QSettings().setValue(QStringLiteral("handles/dir"), QFileInfo(path).absolutePath());
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        showMessage(
            QStringLiteral("handlesImportSummary"),
            true,
            tr("Import Task Handles"),
            tr("Eddy cannot read %1: %2").arg(QDir::toNativeSeparators(path), file.errorString()));
        return;
    }
    const QByteArray content = file.readAll();
    m_importPath = path;
    QStringList urls;
    for (const Store::ServerRecord &s : m_window->serverModel()->servers())
        urls << s.url;
    const QStringList unknown = EngineBridge::unknownHandleEndpoints(content, urls);
    if (unknown.isEmpty()) {
        startImport(content, {});
        return;
    }
    // The endpoint id is a hash of the URL the other client connected to: only the user knows
    // it. Nothing is imported when they cancel.
    auto *prompt = new QInputDialog(m_window);
    prompt->setObjectName(QStringLiteral("handlesServerPrompt"));
    prompt->setAttribute(Qt::WA_DeleteOnClose);
    prompt->setWindowTitle(tr("Import Task Handles"));
    prompt->setLabelText(
        tr("%n endpoint(s) in this file belong to no server Eddy knows (%1).\n"
           "Enter the URL of the server the other client connected to, exactly as it wrote it, "
           "or pick a known server. Leave it empty to import only the tasks of known servers.",
           nullptr,
           int(unknown.size()))
            .arg(unknown.first().left(40)
                 + (unknown.first().size() > 40 ? QStringLiteral("…") : QString())));
    prompt->setComboBoxEditable(true);
    prompt->setComboBoxItems(QStringList{QString()} + urls);
    prompt->setTextValue({});
    prompt->setOkButtonText(tr("Import"));
    connect(prompt, &QInputDialog::textValueSelected, this, [this, content](const QString &url) {
        startImport(content, url.trimmed());
    });
    prompt->open();
}

void HandlesActions::startImport(const QByteArray &content, const QString &serverUrl)
{
    const std::optional<qint64> shown = m_window->currentSession();
    QString session = shown ? m_window->sessionModel()->name(*shown) : QString();
    if (session.isEmpty()) // all sessions shown: the session eddyctl imports into
        session = tr("Imported handles");
    m_importPending = true;
    m_bridge->importHandles(content, session, serverUrl);
}

void HandlesActions::onImported(const Monitor::HandleImportReport &report)
{
    if (!m_importPending)
        return;
    m_importPending = false;
    const QString file = QDir::toNativeSeparators(m_importPath);
    if (!report.fileError.isEmpty()) {
        showMessage(QStringLiteral("handlesImportSummary"),
                    true,
                    tr("Import Task Handles"),
                    tr("Nothing was imported from %1: %2").arg(file, report.fileError));
        return;
    }
    using Outcome = Monitor::HandleImportReport::Line::Outcome;
    QStringList reasons;
    for (const auto &line : report.lines) {
        if (line.outcome == Outcome::Rejected)
            reasons << tr("Line %1: %2").arg(line.line).arg(line.message);
    }
    const QString text = tr("%1: %2 imported, %3 already known, %4 rejected.")
                             .arg(QFileInfo(m_importPath).fileName())
                             .arg(report.count(Outcome::Imported))
                             .arg(report.count(Outcome::Known))
                             .arg(report.count(Outcome::Rejected));
    showMessage(QStringLiteral("handlesImportSummary"),
                !reasons.isEmpty(),
                tr("Import Task Handles"),
                text,
                reasons.join(QLatin1Char('\n')));
    // The imported rows join the shown session's table (a fresh snapshot).
    m_window->switchSession(m_window->currentSession());
}

void HandlesActions::askToExport()
{
    if (m_exportPending)
        return;
    const QList<qint64> ids = m_window->monitor()->selectedTaskIds();
    if (ids.isEmpty()) {
        showMessage(QStringLiteral("handlesExportSummary"),
                    true,
                    tr("Export Task Handles"),
                    tr("Select the tasks to hand off in the task table first."));
        return;
    }
    if (QSettings().value(QStringLiteral("handles/secretWarned")).toBool()) {
        chooseExportFile(ids);
        return;
    }
    auto *box = new QMessageBox(QMessageBox::Warning,
                                tr("Export Task Handles"),
                                tr("The file will hold the tasks' ids. A task id is a secret: "
                                   "whoever has it can read the task's result and cancel it."),
                                QMessageBox::NoButton,
                                m_window);
    box->setObjectName(QStringLiteral("handlesSecretWarning"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setInformativeText(tr("Eddy writes it readable by you only; give it only to people "
                               "who may act on these tasks. This warning is shown once."));
    QPushButton *go = box->addButton(tr("Export"), QMessageBox::AcceptRole);
    go->setObjectName(QStringLiteral("confirmExport"));
    box->addButton(QMessageBox::Cancel);
    connect(box, &QMessageBox::buttonClicked, this, [this, go, ids](QAbstractButton *button) {
        if (button != go)
            return;
        QSettings().setValue(QStringLiteral("handles/secretWarned"), true);
        chooseExportFile(ids);
    });
    box->open();
}

void HandlesActions::chooseExportFile(const QList<qint64> &taskIds)
{
    QFileDialog *dialog = handlesDialog(m_window, tr("Export Task Handles"));
    dialog->setAcceptMode(QFileDialog::AcceptSave);
    dialog->setDefaultSuffix(QStringLiteral("jsonl"));
    connect(dialog, &QFileDialog::fileSelected, this, [this, taskIds](const QString &path) {
        QSettings().setValue(QStringLiteral("handles/dir"), QFileInfo(path).absolutePath());
        m_exportPath = path;
        m_exportPending = true;
        m_bridge->exportHandles(taskIds);
    });
    dialog->open();
}

void HandlesActions::onExported(const Monitor::HandleExport &handles)
{
    if (!m_exportPending)
        return;
    m_exportPending = false;
    const QString file = QDir::toNativeSeparators(m_exportPath);
    const QString skipped = handles.skipped.join(QLatin1Char('\n'));
    if (!handles.error.isEmpty() || handles.count == 0) {
        showMessage(QStringLiteral("handlesExportSummary"),
                    true,
                    tr("Export Task Handles"),
                    handles.error.isEmpty()
                        ? tr("Nothing was written: none of the selected tasks can be handed off.")
                        : tr("Nothing was written: %1").arg(handles.error),
                    skipped);
        return;
    }
    if (const QString why = writePrivate(m_exportPath, handles.jsonLines); !why.isEmpty()) {
        showMessage(QStringLiteral("handlesExportSummary"),
                    true,
                    tr("Export Task Handles"),
                    tr("Eddy cannot write %1: %2").arg(file, why));
        return;
    }
    QString text
        = tr("Wrote %n task reference(s) to %1 (readable by you only).", nullptr, handles.count)
              .arg(file);
    if (!handles.skipped.isEmpty())
        text += QLatin1Char(' ')
                + tr("Skipped %n task(s) that cannot be handed off.",
                     nullptr,
                     int(handles.skipped.size()));
    showMessage(
        QStringLiteral("handlesExportSummary"), false, tr("Export Task Handles"), text, skipped);
}

void HandlesActions::showMessage(const QString &objectName,
                                 bool isError,
                                 const QString &title,
                                 const QString &text,
                                 const QString &details)
{
    auto *box = new QMessageBox(isError ? QMessageBox::Warning : QMessageBox::Information,
                                title,
                                text,
                                QMessageBox::Ok,
                                m_window);
    box->setObjectName(objectName);
    box->setAttribute(Qt::WA_DeleteOnClose);
    if (!details.isEmpty())
        box->setInformativeText(details);
    box->open();
}

} // namespace Eddy
