#pragma once

#include <QWidget>

#include <nlohmann/json.hpp>

class QComboBox;
class QLabel;
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

    // Adds (or changes) a varied parameter; `values` is the text the user would type:
    // List "100, 400, 1000"; Range "100, 1000, 300" (from, to, step); Interval "100, 1000".
    void setVaried(const QString &name, VaryKind kind, const QString &values);
    void clearVaried();
    void setLatinHypercube(bool on, int samples = 8, quint64 seed = 1);
    void setConcurrency(int n);

    // The sweep spec JSON; empty + *errors when something must be fixed first.
    nlohmann::json spec(QStringList *errors) const;
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
    QPushButton *m_submit;
    QPushButton *m_once;
    QTimer *m_previewTimer;
    bool m_filled = false;
    QAbstractItemModel *m_servers = nullptr;
    nlohmann::json m_tools = nlohmann::json::array();
    nlohmann::json m_schema;
};

} // namespace Eddy
