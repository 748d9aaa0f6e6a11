#pragma once

#include "models/enginebridge.h"

#include <QList>
#include <QObject>
#include <QString>

class QMenu;

namespace Eddy {

class MainWindow;

// File > Import Task Handles... and Export Task Handles...: moves task references between Eddy
// and other MCP clients (docs/interop.md) through the EngineBridge. Dialogs are window-modal and
// opened without a nested event loop. GUI thread; a child of the main window.
class HandlesActions final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HandlesActions)

public:
    HandlesActions(MainWindow *window, EngineBridge *bridge);
    ~HandlesActions() override;

    void addTo(QMenu *menu);
    void askToImport();
    void askToExport();

private:
    void importFile(const QString &path);
    void startImport(const QByteArray &content, const QString &serverUrl);
    void chooseExportFile(const QList<qint64> &taskIds);
    void onImported(const Monitor::HandleImportReport &report);
    void onExported(const Monitor::HandleExport &handles);
    void showMessage(const QString &objectName,
                     bool isError,
                     const QString &title,
                     const QString &text,
                     const QString &details = {});

    MainWindow *m_window;
    EngineBridge *m_bridge;
    bool m_importPending = false;
    QString m_importPath;
    bool m_exportPending = false;
    QString m_exportPath;
};

} // namespace Eddy
