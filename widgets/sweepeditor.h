#pragma once

#include "app/vocab/sweepexpander.h"

#include <QWidget>

#include <nlohmann/json.hpp>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTableWidget;
class QTimer;
class QAbstractItemModel;

namespace Eddy {

class SchemaForm;

// The tool + sweep editor: pick a server and tool, fill the SchemaForm generated from the
// tool's inputSchema, mark fields as varied (list, range, Latin hypercube interval), preview
// the case table, set the concurrency, then Submit Sweep or Run Once. Emits the sweep spec
// (the same JSON eddyctl reads); never talks to the engine itself. GUI thread.
class SweepEditor final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SweepEditor)

public:
    enum class VaryKind { List, Range, Interval };
    Q_ENUM(VaryKind)

    explicit SweepEditor(QWidget *parent = nullptr);
    ~SweepEditor() override;

    // Servers to choose from: a model with ServerListModel's roles (tools JSON in ToolsRole).
    void setServerModel(QAbstractItemModel *servers);
    void setCurrentServer(qint64 serverId);
    qint64 currentServer() const;
    bool setCurrentTool(const QString &name);
    QString currentTool() const;
    SchemaForm *form() const { return m_form; }
    // The current tool's inputSchema as the server lists it.
    const nlohmann::json &toolSchema() const { return m_schema; }
    // The sweep's free-text description (the spec's "description").
    void setSweepDescription(const QString &text);
    QString sweepDescription() const;
    // Problems an opened file had that the form cannot show (a value of the wrong type, a key
    // the tool does not have): listed with the editor's problems, they keep Submit and Run Once
    // disabled until the argument they name is edited or varied (one naming no argument: until
    // any field is edited). Replaced by the next file; cleared by another tool or startOver().
    void setFileProblems(const QList<Monitor::SweepExpander::Problem> &problems);
    QStringList fileProblems() const;
    // Empties the editor for a new sweep: the tool's defaults, nothing varied, no description.
    void startOver();
    // A short confirmation under the buttons ("Saved to …"), gone after a while.
    void showNotice(const QString &text);

    // Adds (or changes) a varied parameter; `values` is the text the user would type:
    // List "100, 400, 1000"; Range "100, 1000, 300" (from, to, step); Interval "100, 1000".
    void setVaried(const QString &name, VaryKind kind, const QString &values);
    void clearVaried();
    void setLatinHypercube(bool on, int samples = 8, quint64 seed = 1);
    void setConcurrency(int n);

    // The sweep spec JSON, its parameters in the order the rows list them; empty + *errors
    // when something must be fixed first.
    nlohmann::ordered_json spec(QStringList *errors) const;
    // Expands the spec into the preview table; returns the number of cases (0 + message on error).
    int updatePreview();
    int previewCount() const;
    QString problemText() const;

    // True once the user typed an argument or varied a parameter since the tool was loaded or
    // the sweep submitted: closing then asks before discarding (SweepWindow).
    bool isFilled() const;
    void markClean();

    void submit();  // validates, emits submitRequested
    void runOnce(); // validates the form alone, emits runOnceRequested

Q_SIGNALS:
    void submitRequested(qint64 serverId, const QByteArray &specJson);
    void runOnceRequested(qint64 serverId, const QString &tool, const QByteArray &argumentsJson);

private:
    void reloadTools();
    void loadTool();
    void syncVaried();
    void addVariedRow();
    nlohmann::json parseValues(const std::string &field, VaryKind kind, const QString &text, QString *error) const;
    void clearFileProblems(const QString &argument);
    void updatePlaceholder(int row);

    QComboBox *m_server;
    QComboBox *m_tool;
    QLabel *m_description;
    SchemaForm *m_form;
    QTableWidget *m_varied;
    QComboBox *m_mode;
    QSpinBox *m_samples;
    QSpinBox *m_seed;
    QSpinBox *m_concurrency;
    QTableWidget *m_preview;
    QLabel *m_problems;
    QLabel *m_notice;
    QLineEdit *m_sweepDescription;
    QTimer *m_noticeTimer;
    QList<Monitor::SweepExpander::Problem> m_fileProblems;
    QPushButton *m_submit;
    QPushButton *m_once;
    QTimer *m_previewTimer;
    bool m_filled = false;
    QAbstractItemModel *m_servers = nullptr;
    nlohmann::json m_tools = nlohmann::json::array();
    nlohmann::json m_schema;
};

} // namespace Eddy
