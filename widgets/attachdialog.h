#pragma once

#include "app/vocab/records.h"

#include <QDialog>

class QComboBox;
class QDateEdit;
class QLineEdit;
class QTableWidget;
class QLabel;

namespace Eddy {

class EngineBridge;
class ServerListModel;

// "Attach Earlier Tasks...": search every stored task by server, tool, an argument, status and
// date, then attach the chosen ones (finished or running) to the current session. GUI thread.
class AttachDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(AttachDialog)

public:
    AttachDialog(EngineBridge *bridge, ServerListModel *servers, QWidget *parent = nullptr);

    Store::TaskQuery query() const;
    QList<qint64> selectedTaskIds() const;
    void search();

private:
    void showResults(const QList<Store::TaskRecord> &tasks);

    EngineBridge *m_bridge;
    QComboBox *m_server;
    QLineEdit *m_tool;
    QLineEdit *m_argument;
    QComboBox *m_status;
    QDateEdit *m_from;
    QTableWidget *m_results;
    QLabel *m_count;
};

} // namespace Eddy
