#pragma once

#include "models/enginebridge.h"

#include <QDialog>
#include <QHash>

#include <nlohmann/json.hpp>

class QComboBox;
class QDialogButtonBox;
class QLabel;
class QTableWidget;

namespace Eddy {

// Server > Job Adapter...: how Eddy follows a server's job-id tools as tasks (which tool submits,
// which polls the status, answers, cancels and fetches the result, and where the id, state,
// progress and message are in their answers). Shows the adapter stored with the server, else the
// one Eddy proposes from its tools, for the engineer to confirm or edit. Save validates every
// field (JobAdapterForm: a problem names its field, which is marked and focused) and stores the
// adapter through the EngineBridge, the engine call `eddyctl adapter set` uses. GUI thread.
class JobAdapterDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(JobAdapterDialog)

public:
    JobAdapterDialog(EngineBridge *bridge,
                     qint64 serverId,
                     const QString &serverName,
                     QWidget *parent = nullptr);
    ~JobAdapterDialog() override;

    qint64 serverId() const { return m_serverId; }
    // The field widget of a format key (JobAdapterForm::fieldKeys()); its objectName is the key.
    QWidget *field(const QString &key) const { return m_fields.value(key); }
    QTableWidget *statesTable() const { return m_states; }
    // The adapter as the fields say, in the stored format.
    nlohmann::json adapterJson() const;
    // Validates; when valid, stores it (the dialog closes once stored). False: the problems show.
    bool save();

private:
    void onReady(const EngineBridge::JobAdapterView &view);
    void onStored(qint64 serverId, bool ok, const QString &message);
    void fill(const Monitor::JobAdapter &adapter);
    void addStateRow(const QString &serverState, const QString &taskState);
    void showProblems(const QList<std::pair<QString, QString>> &problems);
    QComboBox *toolBox(const QString &key, bool optional);
    QString text(const QString &key) const;

    EngineBridge *m_bridge;
    qint64 m_serverId;
    QString m_serverName;
    nlohmann::json m_tools; // the server's tools/list array, as last listed
    QHash<QString, QWidget *> m_fields;
    QTableWidget *m_states = nullptr;
    QLabel *m_intro = nullptr;
    QLabel *m_why = nullptr;
    QLabel *m_problems = nullptr;
    QDialogButtonBox *m_buttons = nullptr;
    bool m_saving = false;
};

} // namespace Eddy
