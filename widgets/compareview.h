#pragma once

#include "models/casecomparison.h"

#include <QWidget>

#include <optional>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QTabWidget;
class QTableWidget;

namespace Eddy {

class ChartSeriesSet;
class FieldPictures;
class ResidualChart;
class SampleSeriesModel;
class SweepResultsModel;

// Cases of one sweep side by side against a baseline case: the arguments that differ (or all),
// each result scalar with its difference and relative change, regressions flagged by
// CaseComparison's rule with thresholds the engineer can edit, the residual histories on one
// chart (one colour per case), the cases' field pictures at one colour scale, and the questions
// each case was asked with their answers (who, when). Exports the comparison as CSV with its
// flags. A window of its own; reads the sweep's model, owns its residual series. GUI thread.
class CompareView final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CompareView)

public:
    explicit CompareView(SweepResultsModel *model, QWidget *parent = nullptr);
    ~CompareView() override;

    // Compares these tasks of the model's sweep. One case alone is compared with its baseline:
    // the sweep's first case, or the marked one (setMarkedBaseline()).
    void setCases(const QList<qint64> &taskIds);
    QList<qint64> cases() const { return m_cases; }
    // The baseline the engineer marked for the sweep (stored with it: SweepResultsModel's
    // baselineTask()); it joins the comparison and is its baseline. None: the sweep's first case.
    void setMarkedBaseline(std::optional<qint64> taskId);
    // The baseline now: the one chosen in the view, else CaseComparison::pickBaseline().
    qint64 baseline() const { return m_baseline; }
    void setBaseline(qint64 taskId);

    CaseComparison::Thresholds thresholds() const;
    void setThresholds(const CaseComparison::Thresholds &thresholds);
    int regressionCount() const { return m_regressions; }

    QComboBox *baselineCombo() const { return m_baselineCombo; }
    QCheckBox *allArgumentsBox() const { return m_allArguments; }
    QTableWidget *inputsTable() const { return m_inputs; }
    QTableWidget *resultsTable() const { return m_results; }
    QTableWidget *questionsTable() const { return m_questions; }
    QLabel *summaryLabel() const { return m_summary; }
    ResidualChart *residualChart() const { return m_chart; }
    FieldPictures *pictures() const { return m_pictures; }
    QTabWidget *detailTabs() const { return m_tabs; }
    // The residual series of the compared cases: fed with their stored samples (samplesNeeded()).
    ChartSeriesSet *residualSeries() const { return m_series; }

    bool exportCsv(const QString &path) const;

Q_SIGNALS:
    // The stored residual samples of these tasks are wanted (ChartSeriesSet::setSamples()).
    void samplesNeeded(const QList<qint64> &taskIds);
    // The engineer chose this case as the baseline in the view's Baseline box: to be stored as
    // the sweep's baseline (what eddyctl and the sweep report then use too).
    void baselineChosen(qint64 taskId);

private:
    void refill();
    void fillInputs(const QList<CaseComparison::Case> &cases);
    void fillResults(const CaseComparison::Case &base, const QList<CaseComparison::Case> &others);
    void fillQuestions(const QList<CaseComparison::Case> &cases);
    void showSeries(const QList<SampleSeriesModel *> &series);
    void exportInteractive();
    QList<CaseComparison::Case> comparedCases() const; // the baseline first

    SweepResultsModel *m_model;
    QList<qint64> m_cases; // as compared, in case order
    qint64 m_baseline = 0;
    bool m_baselineChosen = false;
    std::optional<qint64> m_marked;
    int m_regressions = 0;
    QComboBox *m_baselineCombo;
    QCheckBox *m_allArguments;
    QDoubleSpinBox *m_iterations;
    QDoubleSpinBox *m_residuals;
    QDoubleSpinBox *m_other;
    QLabel *m_summary;
    QTableWidget *m_inputs;
    QTableWidget *m_results;
    QTableWidget *m_questions;
    ResidualChart *m_chart;
    ChartSeriesSet *m_series;
    FieldPictures *m_pictures;
    QTabWidget *m_tabs;
};

} // namespace Eddy
