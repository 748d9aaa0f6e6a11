#pragma once

#include "app/vocab/records.h"
#include "models/resultcurves.h"

#include <QWidget>

#include <nlohmann/json.hpp>

class QChart;
class QChartView;
class QComboBox;
class QLabel;
class QPlainTextEdit;
class QTabWidget;
class QTreeWidget;
class QTreeWidgetItem;

namespace Eddy::Monitor {
enum class Outcome;
}

namespace Eddy {

class ChartTheme;

// A task's outcome: the tool result's text blocks, its structured content as a tree, images,
// resource links and the raw JSON. A tool error (completed, isError) gets an amber banner that
// says the tool reported a problem; a failed task (a protocol error) a red one. GUI thread.
class ResultView final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ResultView)

public:
    enum class Outcome { None, Running, Success, ToolError, Failed, Cancelled, Gone };
    Q_ENUM(Outcome)

    explicit ResultView(QWidget *parent = nullptr);

    void setTask(const Store::TaskRecord &task);
    void clear();
    // Lineage: "relaunched from #N" and the tasks relaunched from this one.
    void setLineage(std::optional<qint64> parentTaskId, const QList<qint64> &childTaskIds);
    QString lineageText() const;
    // The questions the task asked and what was answered, by whom and when (one line each).
    void setAnswers(const QStringList &lines);
    QString answersText() const;
    // Numeric arrays of the structured content, plotted one at a time (Plots tab); a result
    // opens on its preferredCurve().
    QStringList curveNames() const;
    void showCurve(int row);
    // Enlarge Plot: the chosen curve's chart in a large window of its own, for a dock too small
    // to read it (1280x800).
    void enlargeCurve();
    int shownCurvePoints() const; // points of the plotted curve (0 = none)
    // Reference markers drawn over the plotted curve (0 = none), and their legend name.
    int shownReferencePoints() const;
    QString shownReferenceName() const;
    // Whether the banner, lineage and answers take the height of all their lines (up to a few
    // each). Only while the dock above has height to spare (the residual chart shows no series):
    // beside a chart at its minimum they would push the window past a 1280x800 screen.
    void setSummaryWhole(bool whole);
    // The engineer's note and tags on the task's case (hidden when it has neither).
    void setReview(const QString &note, const QStringList &tags);
    QString reviewText() const;
    Outcome outcome() const { return m_outcome; }
    QString bannerText() const;
    QString text() const;
    QTreeWidget *tree() const { return m_tree; }

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    // Gives the banner, lineage and answers the height of their lines (see the .cpp).
    void fitSummary();
    // Axis titles and the legend only where the plot keeps room for its labels.
    void fitCurveChrome();
    static void fillTree(QTreeWidgetItem *parent, const nlohmann::json &value);

    QLabel *m_banner;
    QLabel *m_lineage;
    QLabel *m_review; // the engineer's tags and note on the case
    QLabel *m_answers;
    QComboBox *m_curveList; // above the plot: beside it, it left the plot too narrow for its ticks
    QChartView *m_curveView;
    QChart *m_curveChart;
    ChartTheme *m_curveTheme;
    QWidget *m_plots;
    QList<ResultCurve> m_curves;
    QTabWidget *m_tabs;
    QPlainTextEdit *m_text;
    QTreeWidget *m_tree;
    QPlainTextEdit *m_raw;
    QWidget *m_images;
    QString bannerStyle(Monitor::Outcome outcome) const;
    Outcome m_outcome = Outcome::None;
    bool m_summaryWhole = true;
};

} // namespace Eddy
