#include "widgets/compareview.h"

#include "models/chartseriesset.h"
#include "models/outcomepalette.h"
#include "models/sampleseriesmodel.h"
#include "models/sweepresultsmodel.h"
#include "widgets/fieldpictures.h"
#include "widgets/filedialog.h"
#include "widgets/residualchart.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSaveFile>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace Eddy {

namespace {

QTableWidget *newTable(const QString &name, QWidget *parent)
{
    auto *table = new QTableWidget(parent);
    table->setObjectName(name);
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setAlternatingRowColors(true);
    table->setWordWrap(false);
    table->verticalHeader()->hide();
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table->horizontalHeader()->setStretchLastSection(true);
    return table;
}

QDoubleSpinBox *newThreshold(const QString &name, const QString &tip, QWidget *parent)
{
    auto *box = new QDoubleSpinBox(parent);
    box->setObjectName(name);
    box->setToolTip(tip);
    box->setRange(0, 10000);
    box->setDecimals(0);
    box->setSingleStep(5);
    box->setSuffix(QStringLiteral(" %"));
    return box;
}

QTableWidgetItem *cell(const QString &text, const QString &tip = {})
{
    auto *item = new QTableWidgetItem(text);
    if (!tip.isEmpty())
        item->setToolTip(tip);
    return item;
}

} // namespace

CompareView::CompareView(SweepResultsModel *model, QWidget *parent)
    : QWidget(parent, Qt::Window)
    , m_model(model)
    , m_baselineCombo(new QComboBox(this))
    , m_allArguments(new QCheckBox(tr("Show all arguments"), this))
    , m_iterations(newThreshold(QStringLiteral("iterationsThreshold"),
                                tr("Flag a case that needs more iterations than the baseline by this much"), this))
    , m_residuals(newThreshold(QStringLiteral("residualsThreshold"),
                               tr("Flag a case whose residual is higher than the baseline's by this much"), this))
    , m_other(newThreshold(QStringLiteral("otherThreshold"),
                           tr("Flag any other result that moved this much either way"), this))
    , m_summary(new QLabel(this))
    , m_inputs(newTable(QStringLiteral("compareInputs"), this))
    , m_results(newTable(QStringLiteral("compareResults"), this))
    , m_questions(newTable(QStringLiteral("compareQuestions"), this))
    , m_chart(new ResidualChart(this))
    , m_series(new ChartSeriesSet(this))
    , m_pictures(new FieldPictures(this))
    , m_tabs(new QTabWidget(this))
{
    setObjectName(QStringLiteral("CompareView"));
    setWindowTitle(tr("Compare Cases"));
    m_baselineCombo->setObjectName(QStringLiteral("baselineCase"));
    m_baselineCombo->setToolTip(tr("The case the others are compared with"));
    m_allArguments->setObjectName(QStringLiteral("allArguments"));
    m_allArguments->setToolTip(tr("List every argument, not only those that differ"));
    m_summary->setObjectName(QStringLiteral("compareSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextFormat(Qt::PlainText);
    setThresholds({});

    auto *tools = new QHBoxLayout;
    tools->addWidget(new QLabel(tr("Baseline"), this));
    tools->addWidget(m_baselineCombo);
    tools->addWidget(m_allArguments);
    tools->addSpacing(12);
    tools->addWidget(new QLabel(tr("Flag: iterations +"), this));
    tools->addWidget(m_iterations);
    tools->addWidget(new QLabel(tr("residuals +"), this));
    tools->addWidget(m_residuals);
    tools->addWidget(new QLabel(tr("other ±"), this));
    tools->addWidget(m_other);
    tools->addStretch(1);
    auto *exportButton = new QPushButton(tr("Export CSV..."), this);
    exportButton->setObjectName(QStringLiteral("exportComparison"));
    exportButton->setToolTip(tr("Save the comparison with its flags and thresholds as CSV"));
    tools->addWidget(exportButton);
    connect(exportButton, &QPushButton::clicked, this, &CompareView::exportInteractive);

    m_chart->setPlaceholder(tr("No residual history stored for these cases."));
    auto *tables = new QSplitter(Qt::Vertical, this);
    tables->addWidget(m_inputs);
    tables->addWidget(m_results);
    tables->setStretchFactor(0, 1);
    tables->setStretchFactor(1, 3);
    auto *top = new QSplitter(Qt::Horizontal, this);
    top->addWidget(tables);
    top->addWidget(m_chart);
    top->setStretchFactor(0, 3);
    top->setStretchFactor(1, 2);
    m_tabs->setObjectName(QStringLiteral("compareDetails"));
    m_tabs->addTab(m_pictures, tr("Field Pictures"));
    m_tabs->addTab(m_questions, tr("Questions and Answers"));
    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(top);
    split->addWidget(m_tabs);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(tools);
    layout->addWidget(m_summary);
    layout->addWidget(split, 1);

    connect(m_baselineCombo, &QComboBox::activated, this, [this](int i) {
        const qint64 taskId = m_baselineCombo->itemData(i).toLongLong();
        setBaseline(taskId);
        if (m_baseline == taskId)
            Q_EMIT baselineChosen(taskId);
    });
    connect(m_allArguments, &QCheckBox::toggled, this, &CompareView::refill);
    for (QDoubleSpinBox *box : {m_iterations, m_residuals, m_other})
        connect(box, &QDoubleSpinBox::valueChanged, this, &CompareView::refill);
    connect(m_series, &ChartSeriesSet::seriesChanged, this, &CompareView::showSeries);
    connect(m_series, &ChartSeriesSet::reloadNeeded, this, &CompareView::samplesNeeded);
    connect(m_model, &SweepResultsModel::resultsChanged, this, &CompareView::refill);
    connect(m_model, &QAbstractItemModel::modelReset, this, [this] {
        // Another sweep: what was compared is no longer there.
        QList<qint64> kept;
        for (qint64 id : std::as_const(m_cases))
            if (m_model->rowOfTask(id) >= 0)
                kept << id;
        if (kept != m_cases)
            setCases(kept);
        else
            refill();
    });
    resize(1200, 740);
}

CompareView::~CompareView() = default;

void CompareView::setCases(const QList<qint64> &taskIds)
{
    QList<qint64> chosen;
    for (qint64 id : taskIds)
        if (m_model->rowOfTask(id) >= 0 && !chosen.contains(id))
            chosen << id;
    const QList<qint64> order = m_model->tasksInCaseOrder();
    if (m_marked && m_model->rowOfTask(*m_marked) >= 0 && !chosen.contains(*m_marked))
        chosen << *m_marked;
    if (chosen.size() == 1 && !order.isEmpty() && !chosen.contains(order.first()))
        chosen << order.first(); // one case: against the sweep's first
    std::sort(chosen.begin(), chosen.end(), [&](qint64 a, qint64 b) {
        return order.indexOf(a) < order.indexOf(b);
    });
    m_cases = chosen;
    m_baselineChosen = false;
    m_baseline = CaseComparison::pickBaseline(m_cases, m_marked);
    const QList<qint64> charted = m_series->setTasks(m_cases);
    if (!charted.isEmpty())
        Q_EMIT samplesNeeded(charted);
    refill();
}

void CompareView::setMarkedBaseline(std::optional<qint64> taskId)
{
    if (m_marked == taskId)
        return;
    m_marked = taskId;
    if (!m_baselineChosen && !m_cases.isEmpty())
        setCases(m_cases);
}

void CompareView::setBaseline(qint64 taskId)
{
    if (!m_cases.contains(taskId))
        return;
    m_baseline = taskId;
    m_baselineChosen = true;
    refill();
}

CaseComparison::Thresholds CompareView::thresholds() const
{
    CaseComparison::Thresholds t;
    t.iterationsPercent = m_iterations->value();
    t.residualsPercent = m_residuals->value();
    t.otherPercent = m_other->value();
    return t;
}

void CompareView::setThresholds(const CaseComparison::Thresholds &t)
{
    m_iterations->setValue(t.iterationsPercent);
    m_residuals->setValue(t.residualsPercent);
    m_other->setValue(t.otherPercent);
}

QList<CaseComparison::Case> CompareView::comparedCases() const
{
    QList<CaseComparison::Case> out;
    for (qint64 id : m_cases) {
        CaseComparison::Case c = m_model->comparisonCase(m_model->rowOfTask(id));
        if (id == m_baseline)
            out.prepend(c);
        else
            out << c;
    }
    return out;
}

void CompareView::refill()
{
    {
        const QSignalBlocker block(m_baselineCombo);
        m_baselineCombo->clear();
        for (qint64 id : std::as_const(m_cases)) {
            m_baselineCombo->addItem(m_model->caseLabelAt(m_model->rowOfTask(id)), id);
            if (id == m_baseline)
                m_baselineCombo->setCurrentIndex(m_baselineCombo->count() - 1);
        }
    }
    const QList<CaseComparison::Case> cases = comparedCases();
    if (cases.size() < 2) {
        m_summary->setText(tr("Select two or more cases of the sweep (or one, to compare it with the "
                              "sweep's baseline), then choose Compare."));
        m_inputs->clear();
        m_inputs->setRowCount(0);
        m_results->clear();
        m_results->setRowCount(0);
        m_regressions = 0;
        fillQuestions(cases);
        m_pictures->setCases({});
        return;
    }
    fillInputs(cases);
    fillResults(cases.first(), cases.mid(1));
    fillQuestions(cases);
    QList<FieldPictures::CasePictures> pictures;
    for (const CaseComparison::Case &c : cases)
        pictures << FieldPictures::CasePictures{c.label, m_model->resultAt(m_model->rowOfTask(c.taskId))};
    m_pictures->setCases(pictures);
}

void CompareView::fillInputs(const QList<CaseComparison::Case> &cases)
{
    const QStringList names = CaseComparison::differingArguments(cases, m_allArguments->isChecked());
    m_inputs->clear();
    QStringList headers{tr("Argument")};
    for (const auto &c : cases)
        headers << (c.taskId == m_baseline ? tr("%1 (baseline)").arg(c.label) : c.label);
    m_inputs->setColumnCount(int(headers.size()));
    m_inputs->setHorizontalHeaderLabels(headers);
    if (names.isEmpty()) {
        m_inputs->setRowCount(1);
        m_inputs->setItem(0, 0, cell(tr("No argument differs; tick Show all arguments to list them.")));
        m_inputs->setSpan(0, 0, 1, int(headers.size()));
        return;
    }
    m_inputs->setRowCount(int(names.size()));
    for (int r = 0; r < names.size(); ++r) {
        m_inputs->setItem(r, 0, cell(names.at(r)));
        const QVariant base = cases.first().arguments.value(names.at(r));
        for (int c = 0; c < cases.size(); ++c) {
            const QVariant v = cases.at(c).arguments.value(names.at(r));
            auto *item = cell(CaseComparison::text(v));
            if (c > 0 && v != base) { // differs from the baseline: bold
                QFont bold = item->font();
                bold.setBold(true);
                item->setFont(bold);
            }
            m_inputs->setItem(r, c + 1, item);
        }
    }
}

void CompareView::fillResults(const CaseComparison::Case &base, const QList<CaseComparison::Case> &others)
{
    QList<CaseComparison::Case> all{base};
    all += others;
    const QStringList scalars = CaseComparison::scalarNames(all);
    const CaseComparison::Thresholds t = thresholds();
    m_results->clear();
    QStringList headers{tr("Result"), tr("%1 (baseline)").arg(base.label)};
    for (const auto &c : others)
        headers << c.label << tr("Difference") << tr("Change");
    m_results->setColumnCount(int(headers.size()));
    m_results->setHorizontalHeaderLabels(headers);
    m_results->setRowCount(int(scalars.size()));
    const QColor flagColor = OutcomePalette::color(Monitor::Outcome::ToolError);
    QStringList flagged; // per case: "Case 3: iterations, final_residual" (the reasons are tooltips)
    m_regressions = 0;
    for (int r = 0; r < scalars.size(); ++r) {
        m_results->setItem(r, 0, cell(scalars.at(r)));
        m_results->setItem(r, 1, cell(CaseComparison::text(base.scalars.value(scalars.at(r)))));
    }
    for (int i = 0; i < others.size(); ++i) {
        const auto deltas = CaseComparison::compareCase(base, others.at(i), scalars, t);
        QStringList flaggedScalars;
        for (int r = 0; r < deltas.size(); ++r) {
            const CaseComparison::Delta &d = deltas.at(r);
            const int col = 2 + 3 * i;
            m_results->setItem(r, col, cell(CaseComparison::text(d.value)));
            m_results->setItem(r, col + 1, cell(d.difference ? CaseComparison::signedText(*d.difference) : QString()));
            // The flag in words, not by colour alone.
            QString change = CaseComparison::percentText(d.relative);
            if (d.regression)
                change = change.isEmpty() ? tr("⚠ regression") : tr("⚠ %1").arg(change);
            auto *item = cell(change, d.reason);
            if (d.regression) {
                item->setForeground(flagColor);
                QFont bold = item->font();
                bold.setBold(true);
                item->setFont(bold);
                item->setData(Qt::UserRole, true);
                flaggedScalars << d.scalar;
                ++m_regressions;
            }
            m_results->setItem(r, col + 2, item);
        }
        if (!flaggedScalars.isEmpty())
            flagged << tr("%1: %2").arg(others.at(i).label, flaggedScalars.join(QStringLiteral(", ")));
    }
    QString summary = m_regressions == 0
                          ? tr("No regression against %1 (iterations +%2 %, residuals +%3 %, other results ±%4 %).")
                                .arg(base.label)
                                .arg(t.iterationsPercent)
                                .arg(t.residualsPercent)
                                .arg(t.otherPercent)
                          : tr("%n regression(s) against %1 (marked ⚠ in the table; point at one for its reason):",
                               nullptr, m_regressions)
                                .arg(base.label);
    if (!flagged.isEmpty())
        summary += QLatin1Char(' ') + flagged.join(QStringLiteral("; ")) + QLatin1Char('.');
    // A case without result values (failed, a tool error, still waiting) has nothing to compare:
    // say so, rather than leave its column of dashes unexplained.
    for (const CaseComparison::Case &c : std::as_const(all)) {
        if (c.scalars.isEmpty())
            summary += QLatin1Char(' ')
                       + tr("%1 has no result values to compare (%2); choose a case that completed.")
                             .arg(c.label, OutcomePalette::label(m_model->outcomeAt(m_model->rowOfTask(c.taskId))));
    }
    m_summary->setText(summary);
}

void CompareView::fillQuestions(const QList<CaseComparison::Case> &cases)
{
    m_questions->clear();
    m_questions->setColumnCount(2);
    m_questions->setHorizontalHeaderLabels({tr("Case"), tr("Questions asked and answers given")});
    m_questions->setRowCount(int(cases.size()));
    for (int r = 0; r < cases.size(); ++r) {
        const QString answers = m_model->answersOf(cases.at(r).taskId);
        m_questions->setItem(r, 0, cell(cases.at(r).label));
        m_questions->setItem(r, 1, cell(answers.isEmpty() ? tr("No question was answered.") : answers, answers));
    }
}

void CompareView::showSeries(const QList<SampleSeriesModel *> &series)
{
    QHash<qint64, QString> labels;
    for (qint64 id : std::as_const(m_cases))
        labels.insert(id, m_model->caseLabelAt(m_model->rowOfTask(id)));
    m_chart->setSeries(series, labels);
}

bool CompareView::exportCsv(const QString &path) const
{
    const QList<CaseComparison::Case> cases = comparedCases();
    if (cases.size() < 2)
        return false;
    const QString csv = CaseComparison::toCsv(cases.first(), cases.mid(1),
                                              CaseComparison::scalarNames(cases), thresholds());
    QSaveFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(csv.toUtf8()) >= 0 && file.commit();
}

void CompareView::exportInteractive()
{
    const QString path = saveFileName(this, tr("Export Comparison"),
                                      QStringLiteral("sweep-%1-comparison.csv").arg(m_model->sweepId()),
                                      tr("CSV files (*.csv)"));
    if (path.isEmpty())
        return;
    if (!exportCsv(path))
        QMessageBox::warning(this, tr("Export Comparison"),
                             tr("Could not write %1. Choose a folder you can write to.").arg(path));
}

} // namespace Eddy
