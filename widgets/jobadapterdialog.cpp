#include "widgets/jobadapterdialog.h"

#include "models/jobadapterform.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSet>
#include <QSpinBox>
#include <QStyle>
#include <QTableWidget>
#include <QVBoxLayout>

namespace Eddy {

using nlohmann::json;

namespace {

const QStringList &taskStates()
{
    static const QStringList s{QStringLiteral("working"),
                               QStringLiteral("input_required"),
                               QStringLiteral("completed"),
                               QStringLiteral("failed"),
                               QStringLiteral("cancelled")};
    return s;
}

void put(json &o, const char *key, const QString &value)
{
    if (!value.isEmpty())
        o[key] = value.toStdString();
}

void markInvalid(QWidget *w, const QString &message)
{
    w->setProperty("invalid", !message.isEmpty());
    w->setToolTip(message);
    w->style()->unpolish(w);
    w->style()->polish(w);
}

} // namespace

JobAdapterDialog::JobAdapterDialog(EngineBridge *bridge,
                                   qint64 serverId,
                                   const QString &serverName,
                                   QWidget *parent)
    : QDialog(parent)
    , m_bridge(bridge)
    , m_serverId(serverId)
    , m_serverName(serverName)
{
    setObjectName(QStringLiteral("jobAdapterDialog"));
    setWindowTitle(tr("Job Adapter of %1").arg(serverName));
    setStyleSheet(QStringLiteral("*[invalid=\"true\"] { border: 2px solid #c62828; }"));
    auto *layout = new QVBoxLayout(this);
    m_intro = new QLabel(tr("Reading the tools of %1...").arg(serverName), this);
    m_intro->setObjectName(QStringLiteral("adapterIntro"));
    m_intro->setWordWrap(true);
    m_intro->setTextFormat(Qt::PlainText);
    layout->addWidget(m_intro);
    m_why = new QLabel(this);
    m_why->setObjectName(QStringLiteral("adapterWhy"));
    m_why->setWordWrap(true);
    m_why->setTextFormat(Qt::PlainText);
    m_why->setForegroundRole(QPalette::PlaceholderText);
    m_why->setVisible(false);
    layout->addWidget(m_why);

    auto *body = new QWidget(this);
    auto *bodyLayout = new QVBoxLayout(body);
    bodyLayout->setContentsMargins(0, 0, 0, 0);
    const auto line = [this](const QString &key, const QString &placeholder, const QString &tip) {
        auto *edit = new QLineEdit(this);
        edit->setObjectName(key);
        edit->setPlaceholderText(placeholder);
        edit->setWhatsThis(tip);
        m_fields.insert(key, edit);
        return edit;
    };
    // "Status ▸ Id argument" is "Id argument:" inside the Status group.
    const auto label = [](const QString &key) {
        const QString l = JobAdapterForm::fieldLabel(key);
        const qsizetype at = l.indexOf(QStringLiteral("\u25B8 "));
        return (at < 0 ? l : l.mid(at + 2)) + QLatin1Char(':');
    };

    auto *submit = new QGroupBox(tr("Submit: the tool that starts a job"), body);
    auto *submitForm = new QFormLayout(submit);
    submitForm->addRow(label(QStringLiteral("submit.tool")),
                       toolBox(QStringLiteral("submit.tool"), false));
    submitForm->addRow(label(QStringLiteral("submit.jobIdPointer")),
                       line(QStringLiteral("submit.jobIdPointer"),
                            tr("/job_id"),
                            tr("Where the job id is in the submit answer's structuredContent (a "
                               "JSON pointer)")));
    submitForm->addRow(label(QStringLiteral("submit.jobIdRegex")),
                       line(QStringLiteral("submit.jobIdRegex"),
                            tr("optional: a regular expression over the text"),
                            tr("Where the job id is in the answer's text, when it has no "
                               "structuredContent: the first capture group")));
    bodyLayout->addWidget(submit);

    auto *status = new QGroupBox(tr("Status: the tool Eddy polls"), body);
    auto *statusForm = new QFormLayout(status);
    statusForm->addRow(label(QStringLiteral("status.tool")),
                       toolBox(QStringLiteral("status.tool"), false));
    statusForm->addRow(label(QStringLiteral("status.idArgument")),
                       line(QStringLiteral("status.idArgument"),
                            tr("job_id"),
                            tr("The status tool's argument that takes one job id")));
    statusForm->addRow(label(QStringLiteral("status.batchArgument")),
                       line(QStringLiteral("status.batchArgument"),
                            tr("optional: job_ids"),
                            tr("The argument that takes several ids at once (batched polling)")));
    statusForm->addRow(label(QStringLiteral("status.batchResultPointer")),
                       line(QStringLiteral("status.batchResultPointer"),
                            tr("optional: /jobs"),
                            tr("Where a batched answer lists the jobs, in the order asked")));
    auto *maxBatch = new QSpinBox(this);
    maxBatch->setObjectName(QStringLiteral("status.maxBatch"));
    maxBatch->setRange(1, 10000);
    maxBatch->setValue(100);
    m_fields.insert(QStringLiteral("status.maxBatch"), maxBatch);
    statusForm->addRow(label(QStringLiteral("status.maxBatch")), maxBatch);
    statusForm->addRow(label(QStringLiteral("status.statePointer")),
                       line(QStringLiteral("status.statePointer"),
                            tr("/state"),
                            tr("Where the job's state is in a status answer")));
    statusForm->addRow(label(QStringLiteral("status.progressPointer")),
                       line(QStringLiteral("status.progressPointer"),
                            tr("optional: /progress"),
                            tr("A fraction 0..1 (or a percentage)")));
    statusForm->addRow(label(QStringLiteral("status.messagePointer")),
                       line(QStringLiteral("status.messagePointer"),
                            tr("optional: /message"),
                            tr("The status text shown in the task table")));
    statusForm->addRow(label(QStringLiteral("status.questionPointer")),
                       line(QStringLiteral("status.questionPointer"),
                            tr("optional: /question"),
                            tr("Where a job waiting for input has its question")));
    bodyLayout->addWidget(status);

    auto *states
        = new QGroupBox(tr("States: each state the server reports, as a task state"), body);
    auto *statesLayout = new QVBoxLayout(states);
    m_states = new QTableWidget(0, 2, states);
    m_states->setObjectName(QStringLiteral("status.states"));
    m_states->setHorizontalHeaderLabels({tr("Server's state"), tr("Task state")});
    m_states->horizontalHeader()->setStretchLastSection(true);
    m_states->verticalHeader()->hide();
    m_states->setMinimumHeight(140);
    m_fields.insert(QStringLiteral("status.states"), m_states);
    statesLayout->addWidget(m_states);
    auto *stateButtons = new QHBoxLayout;
    auto *addState = new QPushButton(tr("Add State"), states);
    addState->setObjectName(QStringLiteral("addState"));
    connect(addState, &QPushButton::clicked, this, [this] {
        addStateRow({}, QStringLiteral("working"));
        m_states->setCurrentCell(m_states->rowCount() - 1, 0);
        m_states->editItem(m_states->item(m_states->rowCount() - 1, 0));
    });
    auto *removeState = new QPushButton(tr("Remove State"), states);
    connect(removeState, &QPushButton::clicked, this, [this] {
        if (m_states->currentRow() >= 0)
            m_states->removeRow(m_states->currentRow());
    });
    stateButtons->addWidget(addState);
    stateButtons->addWidget(removeState);
    stateButtons->addStretch(1);
    statesLayout->addLayout(stateButtons);
    bodyLayout->addWidget(states);

    auto *tools = new QGroupBox(tr("Other tools (each takes the id argument)"), body);
    auto *toolsForm = new QFormLayout(tools);
    toolsForm->addRow(label(QStringLiteral("cancelTool")),
                      toolBox(QStringLiteral("cancelTool"), true));
    toolsForm->addRow(label(QStringLiteral("resultTool")),
                      toolBox(QStringLiteral("resultTool"), true));
    toolsForm->addRow(label(QStringLiteral("answerTool")),
                      toolBox(QStringLiteral("answerTool"), true));
    bodyLayout->addWidget(tools);

    auto *poll = new QGroupBox(tr("Polling"), body);
    auto *pollForm = new QFormLayout(poll);
    const auto ms = [this](const QString &key, int value) {
        auto *spin = new QSpinBox(this);
        spin->setObjectName(key);
        spin->setRange(100, 24 * 3600 * 1000);
        spin->setSingleStep(500);
        spin->setSuffix(tr(" ms"));
        spin->setValue(value);
        m_fields.insert(key, spin);
        return spin;
    };
    pollForm->addRow(label(QStringLiteral("poll.intervalMs")),
                     ms(QStringLiteral("poll.intervalMs"), 5000));
    auto *backoff = new QDoubleSpinBox(this);
    backoff->setObjectName(QStringLiteral("poll.backoff"));
    backoff->setRange(1.0, 10.0);
    backoff->setSingleStep(0.1);
    backoff->setValue(1.5);
    backoff->setToolTip(tr("The interval grows by this factor while nothing changes"));
    m_fields.insert(QStringLiteral("poll.backoff"), backoff);
    pollForm->addRow(label(QStringLiteral("poll.backoff")), backoff);
    pollForm->addRow(label(QStringLiteral("poll.maxIntervalMs")),
                     ms(QStringLiteral("poll.maxIntervalMs"), 60000));
    bodyLayout->addWidget(poll);

    auto *scroll = new QScrollArea(this);
    scroll->setWidget(body);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    layout->addWidget(scroll, 1);

    m_problems = new QLabel(this);
    m_problems->setObjectName(QStringLiteral("adapterProblems"));
    m_problems->setWordWrap(true);
    m_problems->setTextFormat(Qt::PlainText);
    m_problems->setStyleSheet(QStringLiteral("color: #c62828;"));
    m_problems->setVisible(false);
    layout->addWidget(m_problems);

    m_buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel, this);
    m_buttons->button(QDialogButtonBox::Save)->setObjectName(QStringLiteral("saveAdapter"));
    m_buttons->button(QDialogButtonBox::Save)->setEnabled(false); // until the adapter is read
    connect(m_buttons, &QDialogButtonBox::accepted, this, &JobAdapterDialog::save);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(m_buttons);
    resize(620, 760);

    connect(m_bridge, &EngineBridge::jobAdapterReady, this, &JobAdapterDialog::onReady);
    connect(m_bridge, &EngineBridge::jobAdapterStored, this, &JobAdapterDialog::onStored);
    m_bridge->requestJobAdapter(serverId);
}

JobAdapterDialog::~JobAdapterDialog() = default;

QComboBox *JobAdapterDialog::toolBox(const QString &key, bool optional)
{
    auto *box = new QComboBox(this);
    box->setObjectName(key);
    box->setEditable(true);
    box->setInsertPolicy(QComboBox::NoInsert);
    box->setProperty("optional", optional);
    if (optional)
        box->lineEdit()->setPlaceholderText(tr("none"));
    m_fields.insert(key, box);
    return box;
}

QString JobAdapterDialog::text(const QString &key) const
{
    QWidget *w = m_fields.value(key);
    if (auto *edit = qobject_cast<QLineEdit *>(w))
        return edit->text().trimmed();
    if (auto *box = qobject_cast<QComboBox *>(w))
        return box->currentText().trimmed();
    return {};
}

void JobAdapterDialog::onReady(const EngineBridge::JobAdapterView &view)
{
    if (view.server.id != m_serverId && view.server.id != 0)
        return;
    m_tools = json::parse(view.server.tools.toStdString(), nullptr, false);
    if (m_tools.is_discarded() || !m_tools.is_array())
        m_tools = json::array();
    const QStringList names = JobAdapterForm::toolNames(m_tools);
    for (auto it = m_fields.cbegin(); it != m_fields.cend(); ++it) {
        auto *box = qobject_cast<QComboBox *>(it.value());
        if (!box)
            continue;
        const QString current = box->currentText();
        box->clear();
        if (box->property("optional").toBool())
            box->addItem(QString());
        box->addItems(names);
        box->setCurrentText(current);
    }
    QStringList intro;
    if (view.stored) {
        intro << tr("The job adapter stored with %1. Edit it and Save, or Cancel to keep it.")
                     .arg(m_serverName);
        fill(*view.stored);
    } else if (view.proposal && view.proposal->adapter) {
        intro << tr("Eddy proposes this job adapter from the tools of %1 (confidence %2 %). "
                    "Review it, edit what is wrong, and Save: Eddy then follows each job its "
                    "submit tool starts as a task.")
                     .arg(m_serverName)
                     .arg(qRound(view.proposal->confidence * 100));
        fill(*view.proposal->adapter);
    } else if (view.proposal) {
        intro << tr("Eddy found no job tools to propose an adapter from: %1 Fill the fields in "
                    "by hand if the server has them.")
                     .arg(view.proposal->reason);
    }
    if (!view.storedError.isEmpty())
        intro << tr("The adapter stored with %1 is not valid (%2); this is Eddy's proposal "
                    "instead.")
                     .arg(m_serverName, view.storedError);
    if (!view.error.isEmpty())
        intro << tr("Eddy could not list the server's tools (%1): fill the fields in by hand, or "
                    "close this and try again once the server is reachable.")
                     .arg(view.error);
    if (view.offersTasks)
        intro << tr("This server offers MCP Tasks: its task tools need no adapter.");
    m_intro->setText(intro.join(QLatin1Char(' ')));
    if (view.proposal && !view.stored && !view.proposal->why.isEmpty()) {
        m_why->setText(view.proposal->why.join(QLatin1Char('\n')));
        m_why->setVisible(true);
    }
    m_buttons->button(QDialogButtonBox::Save)->setEnabled(true);
}

void JobAdapterDialog::fill(const Monitor::JobAdapter &a)
{
    const auto set = [this](const QString &key, const QString &value) {
        QWidget *w = m_fields.value(key);
        if (auto *edit = qobject_cast<QLineEdit *>(w))
            edit->setText(value);
        else if (auto *box = qobject_cast<QComboBox *>(w))
            box->setCurrentText(value);
    };
    set(QStringLiteral("submit.tool"), a.submitTool);
    set(QStringLiteral("submit.jobIdPointer"), a.jobIdPointer);
    set(QStringLiteral("submit.jobIdRegex"), a.jobIdRegex);
    set(QStringLiteral("status.tool"), a.statusTool);
    set(QStringLiteral("status.idArgument"), a.idArgument);
    set(QStringLiteral("status.batchArgument"), a.batchArgument);
    set(QStringLiteral("status.batchResultPointer"), a.batchResultPointer);
    qobject_cast<QSpinBox *>(m_fields.value(QStringLiteral("status.maxBatch")))
        ->setValue(a.maxBatch);
    set(QStringLiteral("status.statePointer"), a.statePointer);
    set(QStringLiteral("status.progressPointer"), a.progressPointer);
    set(QStringLiteral("status.messagePointer"), a.messagePointer);
    set(QStringLiteral("status.questionPointer"), a.questionPointer);
    set(QStringLiteral("cancelTool"), a.cancelTool);
    set(QStringLiteral("resultTool"), a.resultTool);
    set(QStringLiteral("answerTool"), a.answerTool);
    qobject_cast<QSpinBox *>(m_fields.value(QStringLiteral("poll.intervalMs")))
        ->setValue(a.pollIntervalMs);
    qobject_cast<QDoubleSpinBox *>(m_fields.value(QStringLiteral("poll.backoff")))
        ->setValue(a.backoff);
    qobject_cast<QSpinBox *>(m_fields.value(QStringLiteral("poll.maxIntervalMs")))
        ->setValue(a.maxPollIntervalMs);
    m_states->setRowCount(0);
    for (const auto &[from, to] : a.states)
        addStateRow(from, to);
}

void JobAdapterDialog::addStateRow(const QString &serverState, const QString &taskState)
{
    const int row = m_states->rowCount();
    m_states->insertRow(row);
    m_states->setItem(row, 0, new QTableWidgetItem(serverState));
    auto *box = new QComboBox(m_states);
    box->addItems(taskStates());
    box->setCurrentText(taskState);
    m_states->setCellWidget(row, 1, box);
}

json JobAdapterDialog::adapterJson() const
{
    json submit = {{"tool", text(QStringLiteral("submit.tool")).toStdString()}};
    put(submit, "jobIdPointer", text(QStringLiteral("submit.jobIdPointer")));
    put(submit, "jobIdRegex", text(QStringLiteral("submit.jobIdRegex")));
    json status = {{"tool", text(QStringLiteral("status.tool")).toStdString()},
                   {"idArgument", text(QStringLiteral("status.idArgument")).toStdString()},
                   {"statePointer", text(QStringLiteral("status.statePointer")).toStdString()}};
    put(status, "batchArgument", text(QStringLiteral("status.batchArgument")));
    put(status, "batchResultPointer", text(QStringLiteral("status.batchResultPointer")));
    if (!text(QStringLiteral("status.batchArgument")).isEmpty())
        status["maxBatch"]
            = qobject_cast<QSpinBox *>(m_fields.value(QStringLiteral("status.maxBatch")))->value();
    put(status, "progressPointer", text(QStringLiteral("status.progressPointer")));
    put(status, "messagePointer", text(QStringLiteral("status.messagePointer")));
    put(status, "questionPointer", text(QStringLiteral("status.questionPointer")));
    json table = json::object();
    for (int r = 0; r < m_states->rowCount(); ++r) {
        const QTableWidgetItem *item = m_states->item(r, 0);
        const QString from = item ? item->text().trimmed() : QString();
        const auto *box = qobject_cast<QComboBox *>(m_states->cellWidget(r, 1));
        if (!from.isEmpty() && box)
            table[from.toStdString()] = box->currentText().toStdString();
    }
    status["states"] = table;
    json out
        = {{"version", Monitor::JobAdapter::FormatVersion}, {"submit", submit}, {"status", status}};
    put(out, "cancelTool", text(QStringLiteral("cancelTool")));
    put(out, "resultTool", text(QStringLiteral("resultTool")));
    put(out, "answerTool", text(QStringLiteral("answerTool")));
    out["poll"] = {
        {"intervalMs",
         qobject_cast<QSpinBox *>(m_fields.value(QStringLiteral("poll.intervalMs")))->value()},
        {"backoff",
         qobject_cast<QDoubleSpinBox *>(m_fields.value(QStringLiteral("poll.backoff")))->value()},
        {"maxIntervalMs",
         qobject_cast<QSpinBox *>(m_fields.value(QStringLiteral("poll.maxIntervalMs")))->value()}};
    return out;
}

bool JobAdapterDialog::save()
{
    if (m_saving)
        return false;
    QList<std::pair<QString, QString>> problems;
    // A state listed twice (the table is case-insensitive) would silently lose one mapping.
    QSet<QString> seen;
    for (int r = 0; r < m_states->rowCount(); ++r) {
        const QTableWidgetItem *item = m_states->item(r, 0);
        const QString from = item ? item->text().trimmed().toLower() : QString();
        if (from.isEmpty())
            continue;
        if (seen.contains(from))
            problems.append(
                {QStringLiteral("status.states"),
                 tr("%1: \"%2\" is listed twice; keep one row per state.")
                     .arg(JobAdapterForm::fieldLabel(QStringLiteral("status.states")), from)});
        seen.insert(from);
    }
    QList<JobAdapterForm::Problem> found;
    const std::optional<Monitor::JobAdapter> adapter
        = JobAdapterForm::validate(adapterJson(), m_tools, &found);
    for (const JobAdapterForm::Problem &p : std::as_const(found))
        problems.append({p.field, p.message});
    showProblems(problems);
    if (!problems.isEmpty() || !adapter)
        return false;
    m_saving = true;
    m_buttons->button(QDialogButtonBox::Save)->setEnabled(false);
    m_intro->setText(tr("Storing the adapter..."));
    m_bridge->setJobAdapter(m_serverId, *adapter);
    return true;
}

void JobAdapterDialog::showProblems(const QList<std::pair<QString, QString>> &problems)
{
    for (auto it = m_fields.cbegin(); it != m_fields.cend(); ++it)
        markInvalid(it.value(), {});
    QStringList lines;
    QWidget *first = nullptr;
    QHash<QString, QStringList> byField;
    for (const auto &[field, message] : problems) {
        lines << message;
        if (!field.isEmpty())
            byField[field] << message;
    }
    // The first wrong field in the dialog's order takes the focus.
    for (const QString &key : JobAdapterForm::fieldKeys()) {
        if (!byField.contains(key) || !m_fields.contains(key))
            continue;
        markInvalid(m_fields[key], byField[key].join(QLatin1Char('\n')));
        if (!first)
            first = m_fields[key];
    }
    m_problems->setText(
        lines.isEmpty() ? QString() : tr("Not saved. Fix:\n%1").arg(lines.join(QLatin1Char('\n'))));
    m_problems->setVisible(!lines.isEmpty());
    if (first) {
        first->setFocus(Qt::OtherFocusReason);
        if (auto *scroll = findChild<QScrollArea *>())
            scroll->ensureWidgetVisible(first);
    }
}

void JobAdapterDialog::onStored(qint64 serverId, bool ok, const QString &message)
{
    if (serverId != m_serverId || !m_saving)
        return;
    m_saving = false;
    if (ok) {
        accept();
        return;
    }
    m_buttons->button(QDialogButtonBox::Save)->setEnabled(true);
    m_intro->setText(tr("The adapter could not be stored: %1 Nothing was changed; try Save again.")
                         .arg(message));
}

} // namespace Eddy
