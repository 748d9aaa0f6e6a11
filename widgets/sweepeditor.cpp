#include "widgets/sweepeditor.h"

#include "app/vocab/sweepexpander.h"
#include "app/vocab/sweepspec.h"
#include "models/schemafield.h"
#include "models/serverlistmodel.h"
#include "widgets/schemaform.h"

#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>
#include <QSet>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace Eddy {

using json = nlohmann::json;
using ordered_json = nlohmann::ordered_json;

namespace {

constexpr int MaxPreviewRows = 500;
constexpr const char *s_keyArgument = "idempotency_key";

QString valueText(const json &v)
{
    if (v.is_string())
        return QString::fromStdString(v.get<std::string>());
    if (v.is_number_float())
        return QString::number(v.get<double>(), 'g', 8);
    return QString::fromStdString(v.dump());
}

std::optional<double> toNumber(const QString &t)
{
    bool ok = false;
    double d = QLocale::c().toDouble(t.trimmed(), &ok);
    if (!ok)
        d = QLocale().toDouble(t.trimmed(), &ok);
    if (!ok || !std::isfinite(d))
        return std::nullopt;
    return d;
}

} // namespace

SweepEditor::SweepEditor(QWidget *parent)
    : QWidget(parent)
    , m_server(new QComboBox(this))
    , m_tool(new QComboBox(this))
    , m_description(new QLabel(this))
    , m_form(new SchemaForm(this))
    , m_varied(new QTableWidget(0, 4, this))
    , m_mode(new QComboBox(this))
    , m_samples(new QSpinBox(this))
    , m_seed(new QSpinBox(this))
    , m_concurrency(new QSpinBox(this))
    , m_preview(new QTableWidget(this))
    , m_problems(new QLabel(this))
    , m_notice(new QLabel(this))
    , m_sweepDescription(new QLineEdit(this))
    , m_noticeTimer(new QTimer(this))
    , m_submit(new QPushButton(tr("Submit Sweep"), this))
    , m_once(new QPushButton(tr("Run Once"), this))
    , m_previewTimer(new QTimer(this))
{
    setObjectName(QStringLiteral("SweepEditor"));
    m_server->setObjectName(QStringLiteral("server"));
    m_tool->setObjectName(QStringLiteral("tool"));
    m_description->setWordWrap(true);
    m_description->setForegroundRole(QPalette::PlaceholderText);
    m_description->setTextFormat(Qt::PlainText);

    auto *pick = new QFormLayout;
    pick->addRow(tr("Server:"), m_server);
    pick->addRow(tr("Tool:"), m_tool);
    pick->addRow(QString(), m_description);

    auto *formBox = new QGroupBox(tr("Arguments"), this);
    auto *formLayout = new QVBoxLayout(formBox);
    auto *scroll = new QScrollArea(formBox);
    scroll->setWidgetResizable(true);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff); // help texts wrap instead
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(m_form);
    formLayout->addWidget(scroll);

    auto *sweepBox = new QGroupBox(tr("Sweep"), this);
    auto *sweepLayout = new QVBoxLayout(sweepBox);
    m_sweepDescription->setObjectName(QStringLiteral("sweepDescription"));
    m_sweepDescription->setPlaceholderText(tr("What this sweep is for (optional)"));
    m_sweepDescription->setToolTip(tr("Stored with the sweep and saved in its spec file"));
    connect(m_sweepDescription, &QLineEdit::textEdited, this, [this] { m_filled = true; });
    auto *describe = new QFormLayout;
    describe->setContentsMargins(0, 0, 0, 0);
    describe->addRow(tr("Description:"), m_sweepDescription);
    sweepLayout->addLayout(describe);
    m_varied->setObjectName(QStringLiteral("varied"));
    m_varied->setHorizontalHeaderLabels({tr("Parameter"), tr("Varies as"), tr("Values"), QString()});
    m_varied->horizontalHeader()->setSectionResizeMode(2, QHeaderView::Stretch);
    m_varied->horizontalHeader()->setSectionResizeMode(3, QHeaderView::Fixed); // sized to its button
    m_varied->verticalHeader()->hide();
    m_varied->setSelectionMode(QAbstractItemView::NoSelection);
    m_varied->setMinimumHeight(90);
    auto *addVary = new QPushButton(tr("Vary a Parameter"), sweepBox);
    addVary->setObjectName(QStringLiteral("addVaried"));
    connect(addVary, &QPushButton::clicked, this, &SweepEditor::addVariedRow);

    m_mode->addItem(tr("Grid (every combination)"), QStringLiteral("grid"));
    m_mode->addItem(tr("Latin hypercube"), QStringLiteral("lhs"));
    m_samples->setRange(1, Monitor::SweepExpander::MaxCases);
    m_samples->setValue(8);
    m_seed->setRange(0, 1'000'000'000);
    m_seed->setValue(1);
    m_concurrency->setRange(1, 256);
    m_concurrency->setValue(4);
    m_concurrency->setToolTip(tr("How many cases run on the server at the same time"));
    auto *options = new QHBoxLayout;
    options->addWidget(new QLabel(tr("Mode:"), sweepBox));
    options->addWidget(m_mode);
    options->addWidget(new QLabel(tr("Samples:"), sweepBox));
    options->addWidget(m_samples);
    options->addWidget(new QLabel(tr("Seed:"), sweepBox));
    options->addWidget(m_seed);
    options->addStretch(1);
    options->addWidget(new QLabel(tr("Concurrency:"), sweepBox));
    options->addWidget(m_concurrency);
    sweepLayout->addWidget(m_varied);
    auto *addRow = new QHBoxLayout;
    addRow->addWidget(addVary);
    addRow->addStretch(1);
    sweepLayout->addLayout(addRow);
    sweepLayout->addLayout(options);

    auto *previewBox = new QGroupBox(tr("Cases"), this);
    auto *previewLayout = new QVBoxLayout(previewBox);
    m_preview->setObjectName(QStringLiteral("preview"));
    m_preview->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_preview->verticalHeader()->hide();
    m_preview->setAlternatingRowColors(true);
    m_preview->horizontalHeader()->setStretchLastSection(true);
    previewLayout->addWidget(m_preview);

    m_problems->setObjectName(QStringLiteral("problems"));
    m_problems->setWordWrap(true);
    m_problems->setStyleSheet(QStringLiteral("color: #d0312d;"));
    m_submit->setObjectName(QStringLiteral("submit"));
    m_submit->setDefault(true);
    m_submit->setToolTip(tr("Journal every case, then submit them (Ctrl+Return)"));
    m_submit->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return));
    m_once->setObjectName(QStringLiteral("runOnce"));
    m_once->setToolTip(tr("Call the tool once with the form's values"));
    connect(m_submit, &QPushButton::clicked, this, &SweepEditor::submit);
    connect(m_once, &QPushButton::clicked, this, &SweepEditor::runOnce);
    m_notice->setObjectName(QStringLiteral("notice"));
    m_notice->setTextFormat(Qt::PlainText);
    m_notice->setWordWrap(true);
    m_noticeTimer->setSingleShot(true);
    m_noticeTimer->setInterval(8000);
    connect(m_noticeTimer, &QTimer::timeout, m_notice, &QLabel::clear);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_problems, 1);
    buttons->addWidget(m_notice, 1);
    buttons->addWidget(m_once);
    buttons->addWidget(m_submit);

    auto *left = new QWidget(this);
    auto *leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addLayout(pick);
    leftLayout->addWidget(formBox, 1);
    auto *right = new QWidget(this);
    auto *rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    rightLayout->addWidget(sweepBox);
    rightLayout->addWidget(previewBox, 1);
    auto *split = new QSplitter(this);
    split->addWidget(left);
    split->addWidget(right);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    split->setSizes({540, 560});

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(split, 1);
    layout->addLayout(buttons);

    // Every edit refreshes the preview, coalesced so typing stays fluid.
    m_previewTimer->setSingleShot(true);
    m_previewTimer->setInterval(150);
    connect(m_previewTimer, &QTimer::timeout, this, &SweepEditor::updatePreview);
    const auto later = [this] { m_previewTimer->start(); };
    connect(m_form, &SchemaForm::valueChanged, this, later);
    connect(m_form, &SchemaForm::valueChanged, this, [this] { m_filled = true; });
    connect(m_form, &SchemaForm::fieldEdited, this, &SweepEditor::clearFileProblems);
    connect(m_mode, &QComboBox::currentIndexChanged, this, [this, later] {
        const bool lhs = m_mode->currentData().toString() == QLatin1String("lhs");
        m_samples->setEnabled(lhs);
        m_seed->setEnabled(lhs);
        later();
    });
    connect(m_samples, &QSpinBox::valueChanged, this, later);
    connect(m_seed, &QSpinBox::valueChanged, this, later);
    connect(m_server, &QComboBox::currentIndexChanged, this, &SweepEditor::reloadTools);
    connect(m_tool, &QComboBox::currentIndexChanged, this, &SweepEditor::loadTool);
    m_samples->setEnabled(false);
    m_seed->setEnabled(false);
}

SweepEditor::~SweepEditor() = default;

void SweepEditor::setServerModel(QAbstractItemModel *servers)
{
    m_servers = servers;
    m_server->setModel(servers);
    const auto reload = [this] {
        if (m_server->currentIndex() < 0 && m_server->count() > 0)
            m_server->setCurrentIndex(0);
        reloadTools();
    };
    connect(servers, &QAbstractItemModel::modelReset, this, reload);
    connect(servers, &QAbstractItemModel::dataChanged, this, [this](const QModelIndex &tl) {
        if (tl.row() == m_server->currentIndex())
            reloadTools();
    });
    reload();
}

void SweepEditor::setCurrentServer(qint64 serverId)
{
    for (int i = 0; i < m_server->count(); ++i) {
        if (m_server->itemData(i, ServerListModel::ServerIdRole).toLongLong() == serverId) {
            m_server->setCurrentIndex(i);
            return;
        }
    }
}

qint64 SweepEditor::currentServer() const
{
    return m_server->currentIndex() < 0 ? 0 : m_server->currentData(ServerListModel::ServerIdRole).toLongLong();
}

QString SweepEditor::currentTool() const
{
    return m_tool->currentData().toString();
}

bool SweepEditor::setCurrentTool(const QString &name)
{
    const int i = m_tool->findData(name);
    if (i < 0)
        return false;
    m_tool->setCurrentIndex(i);
    return true;
}

void SweepEditor::reloadTools()
{
    const QString previous = currentTool();
    const QString toolsText = m_server->currentIndex() < 0 ? QString()
                                                           : m_server->currentData(ServerListModel::ToolsRole).toString();
    json tools = json::parse(toolsText.toStdString(), nullptr, false);
    if (tools.is_object() && tools.contains("tools"))
        tools = tools["tools"];
    m_tools = tools.is_array() ? tools : json::array();
    const QSignalBlocker block(m_tool);
    m_tool->clear();
    for (const json &t : m_tools) {
        if (!t.is_object() || !t.value("name", json()).is_string())
            continue;
        const QString name = QString::fromStdString(t["name"].get<std::string>());
        const QString title = t.value("title", json()).is_string() ? QString::fromStdString(t["title"].get<std::string>()) : QString();
        m_tool->addItem(title.isEmpty() ? name : tr("%1 (%2)").arg(title, name), name);
    }
    if (m_tool->count() == 0)
        m_tool->addItem(tr("(no tools yet: the server is being asked)"), QString());
    const int keep = m_tool->findData(previous);
    m_tool->setCurrentIndex(keep >= 0 ? keep : 0);
    if (keep < 0 || m_schema.is_null())
        loadTool();
}

void SweepEditor::loadTool()
{
    const QString name = currentTool();
    m_schema = json();
    m_description->clear();
    for (const json &t : m_tools) {
        if (t.is_object() && t.value("name", json()) == json(name.toStdString())) {
            m_schema = t.value("inputSchema", json::object());
            if (t.value("description", json()).is_string())
                m_description->setText(QString::fromStdString(t["description"].get<std::string>()));
        }
    }
    // Eddy sets the idempotency key of every case itself; a user-typed one would break dedup.
    json formSchema = m_schema;
    if (formSchema.is_object() && formSchema.contains("properties") && formSchema["properties"].is_object()) {
        formSchema["properties"].erase(s_keyArgument);
        if (formSchema.contains("required") && formSchema["required"].is_array()) {
            json req = json::array();
            for (const auto &r : formSchema["required"])
                if (r != json(s_keyArgument))
                    req.push_back(r);
            formSchema["required"] = req;
        }
    }
    m_form->setSchema(formSchema.is_null() ? json::object() : formSchema);
    m_varied->setRowCount(0);
    m_fileProblems.clear();
    m_preview->clear(); // another tool's cases are not kept in view
    m_preview->setRowCount(0);
    m_preview->setColumnCount(0);
    m_submit->setEnabled(!name.isEmpty());
    m_once->setEnabled(!name.isEmpty());
    updatePreview();
    m_filled = false; // a freshly loaded tool's defaults are nothing to lose
}

bool SweepEditor::isFilled() const
{
    return m_filled;
}

void SweepEditor::markClean()
{
    m_filled = false;
}

void SweepEditor::setSweepDescription(const QString &text)
{
    m_sweepDescription->setText(text);
}

QString SweepEditor::sweepDescription() const
{
    return m_sweepDescription->text().trimmed();
}

void SweepEditor::setFileProblems(const QList<Monitor::SweepExpander::Problem> &problems)
{
    m_fileProblems = problems;
    updatePreview();
}

QStringList SweepEditor::fileProblems() const
{
    QStringList texts;
    for (const auto &p : m_fileProblems)
        texts << p.text;
    return texts;
}

void SweepEditor::clearFileProblems(const QString &argument)
{
    const auto n = m_fileProblems.removeIf([&argument](const Monitor::SweepExpander::Problem &p) {
        return p.argument.isEmpty() || p.argument == argument;
    });
    if (n > 0)
        m_previewTimer->start();
}

void SweepEditor::startOver()
{
    m_sweepDescription->clear();
    m_mode->setCurrentIndex(0);
    m_concurrency->setValue(4);
    loadTool(); // the tool's defaults, nothing varied, no file problems
}

void SweepEditor::showNotice(const QString &text)
{
    m_notice->setText(text);
    m_noticeTimer->start();
}

void SweepEditor::addVariedRow()
{
    m_filled = true;
    const int row = m_varied->rowCount();
    m_varied->insertRow(row);
    auto *field = new QComboBox(m_varied);
    QSet<QString> taken;
    for (int r = 0; r < row; ++r) {
        if (auto *c = qobject_cast<QComboBox *>(m_varied->cellWidget(r, 0)))
            taken.insert(c->currentData().toString());
    }
    // The natural thing to vary: a number nobody varies yet; one the tool requires before an
    // optional one (reynolds, not a wall grading), a real number before a whole one (a grid).
    int best = -1;
    int bestRank = 4;
    // Every argument can be varied: one that takes an object (run_openfoam_case's `set`) or a
    // list varies as a list of JSON values, as a sweep file has it.
    for (const SchemaField &f : m_form->field().children) {
        const QString name = QString::fromStdString(f.name);
        if (!taken.contains(name)
            && (f.kind == SchemaField::Kind::Number || f.kind == SchemaField::Kind::Integer)) {
            const int rank = (f.required ? 0 : 2) + (f.kind == SchemaField::Kind::Number ? 0 : 1);
            if (rank < bestRank) {
                bestRank = rank;
                best = field->count();
            }
        }
        field->addItem(f.title, name);
    }
    if (best >= 0)
        field->setCurrentIndex(best);
    auto *kind = new QComboBox(m_varied);
    kind->addItem(tr("List"), int(VaryKind::List));
    kind->addItem(tr("Range"), int(VaryKind::Range));
    kind->addItem(tr("Interval (LHS)"), int(VaryKind::Interval));
    auto *values = new QLineEdit(m_varied);
    auto *remove = new QToolButton(m_varied);
    remove->setText(tr("Remove"));
    remove->setAutoRaise(true);
    m_varied->setCellWidget(row, 0, field);
    m_varied->setCellWidget(row, 1, kind);
    m_varied->setCellWidget(row, 2, values);
    m_varied->setCellWidget(row, 3, remove);
    // Room for the widgets, whatever the language: the Remove button is never clipped.
    m_varied->setColumnWidth(3, std::max(m_varied->columnWidth(3), remove->sizeHint().width() + 6));
    m_varied->setRowHeight(row, std::max({m_varied->rowHeight(row), field->sizeHint().height(),
                                          values->sizeHint().height(), remove->sizeHint().height()}));
    const auto changed = [this] {
        syncVaried();
        m_previewTimer->start();
    };
    const auto placeholder = [this, values] {
        for (int r = 0; r < m_varied->rowCount(); ++r) {
            if (m_varied->cellWidget(r, 2) == values)
                updatePlaceholder(r);
        }
    };
    connect(field, &QComboBox::currentIndexChanged, this, placeholder);
    connect(field, &QComboBox::currentIndexChanged, this, changed);
    connect(kind, &QComboBox::currentIndexChanged, this, placeholder);
    connect(kind, &QComboBox::currentIndexChanged, this, changed);
    connect(values, &QLineEdit::textChanged, this, changed);
    connect(remove, &QToolButton::clicked, this, [this, remove, changed] {
        for (int r = 0; r < m_varied->rowCount(); ++r) {
            if (m_varied->cellWidget(r, 3) == remove) {
                m_varied->removeRow(r);
                break;
            }
        }
        changed();
    });
    updatePlaceholder(row);
    syncVaried();
}

void SweepEditor::updatePlaceholder(int row)
{
    auto *field = static_cast<QComboBox *>(m_varied->cellWidget(row, 0));
    auto *kind = static_cast<QComboBox *>(m_varied->cellWidget(row, 1));
    auto *values = static_cast<QLineEdit *>(m_varied->cellWidget(row, 2));
    if (!field || !kind || !values)
        return;
    const SchemaField *f = nullptr;
    for (const SchemaField &c : m_form->field().children) {
        if (QString::fromStdString(c.name) == field->currentData().toString())
            f = &c;
    }
    // What this parameter takes, from its schema: never an example that suits another one.
    QString bounds;
    if (f && f->minimum && f->maximum)
        bounds = tr("%1 … %2").arg(QString::number(*f->minimum, 'g', 12), QString::number(*f->maximum, 'g', 12));
    else if (f && f->minimum)
        bounds = tr("≥ %1").arg(QString::number(*f->minimum, 'g', 12));
    else if (f && f->maximum)
        bounds = tr("≤ %1").arg(QString::number(*f->maximum, 'g', 12));
    QString text;
    switch (static_cast<VaryKind>(kind->currentData().toInt())) {
    case VaryKind::List:
        if (f && !f->isPrimitive()) {
            text = tr("JSON values separated by commas");
        } else if (f && f->kind == SchemaField::Kind::Boolean) {
            text = tr("true, false");
        } else if (f && f->kind == SchemaField::Kind::Enum) {
            QStringList options;
            for (const auto &o : f->options)
                options << f->optionTitle(o.value);
            text = tr("some of: %1").arg(options.join(QLatin1String(", ")));
        } else {
            text = bounds.isEmpty() ? tr("values separated by commas")
                                    : tr("values separated by commas, each %1").arg(bounds);
        }
        break;
    case VaryKind::Range:
        text = bounds.isEmpty() ? tr("from, to, step") : tr("from, to, step within %1").arg(bounds);
        break;
    case VaryKind::Interval:
        text = bounds.isEmpty() ? tr("min, max") : tr("min, max within %1").arg(bounds);
        break;
    }
    values->setPlaceholderText(text);
    values->setToolTip(text);
}

void SweepEditor::syncVaried()
{
    QSet<QString> varied;
    for (int r = 0; r < m_varied->rowCount(); ++r)
        varied.insert(static_cast<QComboBox *>(m_varied->cellWidget(r, 0))->currentData().toString());
    for (const SchemaField &f : m_form->field().children)
        m_form->setFieldVaried(f.name, varied.contains(QString::fromStdString(f.name)));
    for (const QString &name : std::as_const(varied)) // varying it replaces the file's value
        clearFileProblems(name);
}

void SweepEditor::setVaried(const QString &name, VaryKind kind, const QString &values)
{
    int row = -1;
    for (int r = 0; r < m_varied->rowCount(); ++r) {
        if (static_cast<QComboBox *>(m_varied->cellWidget(r, 0))->currentData().toString() == name)
            row = r;
    }
    if (row < 0) {
        addVariedRow();
        row = m_varied->rowCount() - 1;
    }
    auto *field = static_cast<QComboBox *>(m_varied->cellWidget(row, 0));
    field->setCurrentIndex(field->findData(name));
    auto *k = static_cast<QComboBox *>(m_varied->cellWidget(row, 1));
    k->setCurrentIndex(k->findData(int(kind)));
    static_cast<QLineEdit *>(m_varied->cellWidget(row, 2))->setText(values);
    syncVaried();
    updatePreview();
}

void SweepEditor::clearVaried()
{
    m_varied->setRowCount(0);
    syncVaried();
    updatePreview();
}

void SweepEditor::setLatinHypercube(bool on, int samples, quint64 seed)
{
    m_mode->setCurrentIndex(on ? 1 : 0);
    m_samples->setValue(samples);
    m_seed->setValue(static_cast<int>(seed));
    updatePreview();
}

void SweepEditor::setConcurrency(int n)
{
    m_concurrency->setValue(n);
}

json SweepEditor::parseValues(const std::string &field, VaryKind kind, const QString &text, QString *error) const
{
    const QStringList parts = text.split(text.contains(QLatin1Char(';')) ? QLatin1Char(';') : QLatin1Char(','),
                                         Qt::SkipEmptyParts);
    const SchemaField *f = nullptr;
    for (const SchemaField &c : m_form->field().children) {
        if (c.name == field)
            f = &c;
    }
    const QString title = f ? f->title : QString::fromStdString(field);
    if (kind == VaryKind::List && f && !f->isPrimitive()) {
        // JSON values hold commas of their own: the list is read as one JSON array.
        const json list = json::parse("[" + text.toStdString() + "]", nullptr, false);
        if (list.is_discarded() || list.empty()) {
            *error = tr("%1: enter JSON values separated by commas, one for each case.").arg(title);
            return {};
        }
        return json{{"list", list}};
    }
    if (kind == VaryKind::List) {
        json list = json::array();
        for (QString p : parts) {
            p = p.trimmed();
            if (f && (f->kind == SchemaField::Kind::Number || f->kind == SchemaField::Kind::Integer)) {
                auto d = toNumber(p);
                if (!d) {
                    *error = tr("%1: \"%2\" is not a number.").arg(title, p);
                    return {};
                }
                list.push_back(f->kind == SchemaField::Kind::Integer && std::floor(*d) == *d ? json(qint64(*d)) : json(*d));
            } else if (f && f->kind == SchemaField::Kind::Boolean) {
                list.push_back(p.toLower() == QLatin1String("true") || p == QLatin1String("1"));
            } else if (f && f->kind == SchemaField::Kind::Enum) {
                json match;
                for (const auto &o : f->options) {
                    if (f->optionTitle(o.value) == p || valueText(o.value) == p)
                        match = o.value;
                }
                if (match.is_null()) {
                    *error = tr("%1: \"%2\" is not one of the choices.").arg(title, p);
                    return {};
                }
                list.push_back(match);
            } else {
                list.push_back(p.toStdString());
            }
        }
        if (list.empty()) {
            *error = tr("%1: enter the values to try, separated by commas.").arg(title);
            return {};
        }
        return json{{"list", list}};
    }
    std::vector<double> nums;
    for (const QString &p : parts) {
        auto d = toNumber(p);
        if (!d) {
            *error = tr("%1: \"%2\" is not a number.").arg(title, p.trimmed());
            return {};
        }
        nums.push_back(*d);
    }
    if (kind == VaryKind::Range) {
        if (nums.size() != 3) {
            *error = tr("%1: a range needs from, to and step, e.g. 100, 1000, 300.").arg(title);
            return {};
        }
        return json{{"range", {{"from", nums[0]}, {"to", nums[1]}, {"step", nums[2]}}}};
    }
    if (nums.size() != 2) {
        *error = tr("%1: an interval needs min and max, e.g. 100, 1000.").arg(title);
        return {};
    }
    return json{{"min", nums[0]}, {"max", nums[1]}};
}

ordered_json SweepEditor::spec(QStringList *errors) const
{
    QStringList problems = fileProblems();
    problems << m_form->validate();
    ordered_json vary = ordered_json::object();
    for (int r = 0; r < m_varied->rowCount(); ++r) {
        const QString name = static_cast<QComboBox *>(m_varied->cellWidget(r, 0))->currentData().toString();
        const auto kind = static_cast<VaryKind>(static_cast<QComboBox *>(m_varied->cellWidget(r, 1))->currentData().toInt());
        const QString text = static_cast<QLineEdit *>(m_varied->cellWidget(r, 2))->text();
        QString error;
        json v = parseValues(name.toStdString(), kind, text, &error);
        if (!error.isEmpty())
            problems << error;
        else if (vary.contains(name.toStdString()))
            problems << tr("%1 is varied twice; keep one row.").arg(name);
        else
            vary[name.toStdString()] = ordered_json(v);
    }
    ordered_json s = ordered_json::object();
    if (!sweepDescription().isEmpty())
        s["description"] = sweepDescription().toStdString();
    s["tool"] = currentTool().toStdString();
    s["fixed"] = ordered_json(m_form->value());
    s["mode"] = m_mode->currentData().toString().toStdString();
    s["concurrency"] = m_concurrency->value();
    if (!vary.empty())
        s["vary"] = vary;
    if (m_mode->currentData().toString() == QLatin1String("lhs")) {
        s["samples"] = m_samples->value();
        s["seed"] = m_seed->value();
    }
    if (currentTool().isEmpty())
        problems << tr("Choose a tool first; add a server if the list is empty.");
    if (errors)
        *errors = problems;
    return problems.isEmpty() ? s : ordered_json();
}

int SweepEditor::updatePreview()
{
    QStringList errors;
    const ordered_json s = spec(&errors);
    m_once->setEnabled(!currentTool().isEmpty() && m_fileProblems.isEmpty());
    // The button always says what it would submit, or why it cannot. The cases stay in view,
    // greyed, while a row is being typed: the table does not blink empty at every keystroke.
    const auto blocked = [this](const QString &why) {
        m_problems->setText(why);
        m_submit->setText(tr("Submit Sweep"));
        m_submit->setEnabled(false);
        m_submit->setToolTip(tr("Fix this first: %1").arg(why));
        m_preview->setProperty("caseCount", 0);
        m_preview->setEnabled(false);
        m_preview->setToolTip(m_preview->rowCount() > 0
                                  ? tr("The cases before the last edit; they update once the sweep is valid again.")
                                  : QString());
        return 0;
    };
    if (s.is_null())
        return blocked(errors.join(QLatin1Char('\n')));
    QString error;
    auto parsed = Monitor::SweepSpec::fromJson(s, &error);
    if (!parsed)
        return blocked(error);
    auto cases = Monitor::SweepExpander::expand(*parsed, m_schema, &errors);
    if (!cases)
        return blocked(errors.join(QLatin1Char('\n')));
    if (cases->empty())
        return blocked(tr("The sweep has no cases."));
    m_problems->clear();
    m_preview->clear();
    m_preview->setEnabled(true);
    m_preview->setToolTip(QString());
    QStringList columns = parsed->variedOrder; // as the rows list them
    if (columns.isEmpty()) {
        for (auto it = s["fixed"].begin(); it != s["fixed"].end(); ++it)
            columns << QString::fromStdString(it.key());
    }
    m_preview->setColumnCount(static_cast<int>(columns.size()) + 1);
    m_preview->setHorizontalHeaderLabels(QStringList{tr("Case")} + columns);
    const int rows = std::min<int>(static_cast<int>(cases->size()), MaxPreviewRows);
    m_preview->setRowCount(rows);
    for (int r = 0; r < rows; ++r) {
        const json &c = (*cases)[static_cast<size_t>(r)];
        m_preview->setItem(r, 0, new QTableWidgetItem(QString::number(r + 1)));
        for (int col = 0; col < columns.size(); ++col) {
            auto it = c.find(columns[col].toStdString());
            m_preview->setItem(r, col + 1, new QTableWidgetItem(it == c.end() ? QString() : valueText(*it)));
        }
    }
    const int n = static_cast<int>(cases->size());
    m_submit->setText(tr("Submit %n Case(s)", nullptr, n));
    m_submit->setEnabled(true);
    m_submit->setToolTip(tr("Journal every case, then submit them (Ctrl+Return)"));
    if (n > MaxPreviewRows)
        m_problems->setText(tr("Showing the first %1 of %2 cases.").arg(MaxPreviewRows).arg(n));
    m_preview->setProperty("caseCount", n);
    return n;
}

int SweepEditor::previewCount() const
{
    return m_preview->property("caseCount").toInt();
}

QString SweepEditor::problemText() const
{
    return m_problems->text();
}

void SweepEditor::submit()
{
    m_preview->setProperty("caseCount", 0);
    const int n = updatePreview();
    if (n <= 0)
        return;
    QStringList errors;
    const ordered_json s = spec(&errors);
    if (s.is_null())
        return;
    m_filled = false;
    Q_EMIT submitRequested(currentServer(), QByteArray::fromStdString(s.dump()));
}

void SweepEditor::runOnce()
{
    const QStringList errors = fileProblems() + m_form->validate();
    if (!errors.isEmpty() || currentTool().isEmpty()) {
        m_problems->setText(errors.isEmpty() ? tr("Choose a tool first.") : errors.join(QLatin1Char('\n')));
        return;
    }
    // Varied fields are left out of value(): run once uses what the form shows, so un-vary them.
    for (const SchemaField &f : m_form->field().children)
        m_form->setFieldVaried(f.name, false);
    const json args = m_form->value();
    syncVaried();
    m_filled = false;
    Q_EMIT runOnceRequested(currentServer(), currentTool(), QByteArray::fromStdString(args.dump()));
}

} // namespace Eddy
