#include "widgets/resultview.h"
#include "widgets/fieldpictures.h"

#include "app/vocab/outcome.h"
#include "models/outcomepalette.h"
#include "widgets/charttheme.h"
#include "widgets/niceaxis.h"
#include "widgets/plotwindow.h"
#include "app/vocab/jsonfield.h"
#include "app/vocab/valuetext.h"

#include <QChart>
#include <QChartView>
#include <QFontDatabase>
#include <QGraphicsLayout>
#include <QLineSeries>
#include <QScatterSeries>
#include <QComboBox>
#include <QValueAxis>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QScrollArea>
#include <QTabWidget>
#include <QToolButton>
#include <QTreeWidget>
#include <QHBoxLayout>
#include <QVBoxLayout>

namespace Eddy {

using json = nlohmann::json;
using Store::TaskStatus;

namespace {


// A value as the user reads it: booleans in the UI's language (the JSON tab keeps true/false).
QString scalarText(const json &v)
{
    if (v.is_string())
        return QString::fromStdString(v.get<std::string>());
    if (v.is_number_float())
        return formatValue(v.get<double>());
    if (v.is_boolean())
        return v.get<bool>() ? ResultView::tr("yes") : ResultView::tr("no");
    return QString::fromStdString(v.dump());
}

} // namespace

ResultView::ResultView(QWidget *parent)
    : QWidget(parent)
    , m_banner(new QLabel(this))
    , m_lineage(new QLabel(this))
    , m_review(new QLabel(this))
    , m_answers(new QLabel(this))
    , m_curveList(new QComboBox(this))
    , m_curveView(new QChartView(this))
    , m_curveChart(new QChart)
    , m_plots(new QWidget(this))
    , m_tabs(new QTabWidget(this))
    , m_text(new QPlainTextEdit(this))
    , m_tree(new QTreeWidget(this))
    , m_raw(new QPlainTextEdit(this))
    , m_images(new QWidget(this))
{
    setObjectName(QStringLiteral("ResultView"));
    m_banner->setObjectName(QStringLiteral("banner"));
    m_banner->setWordWrap(true);
    m_banner->setMargin(6);
    m_banner->setTextFormat(Qt::PlainText);
    m_review->setObjectName(QStringLiteral("caseReview"));
    m_review->setWordWrap(true);
    m_review->setContentsMargins(6, 0, 6, 2);
    m_review->setTextFormat(Qt::PlainText);
    m_review->hide();
    m_lineage->setObjectName(QStringLiteral("lineage"));
    m_lineage->setWordWrap(true);
    m_lineage->setContentsMargins(6, 0, 6, 2);
    m_lineage->setTextFormat(Qt::PlainText);
    m_lineage->hide();
    m_answers->setObjectName(QStringLiteral("answers"));
    m_answers->setWordWrap(true);
    m_answers->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    // Beside a chart that needs its height its lines may be cut (the inbox has the question
    // whole) rather than hold the result dock so tall that the inbox below cannot grow for the
    // question being answered; see setSummaryWhole().
    m_answers->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Ignored);
    m_answers->setContentsMargins(6, 0, 6, 2);
    m_answers->setTextFormat(Qt::PlainText); // the question is the server's text: never HTML
    m_answers->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_answers->hide();
    m_curveList->setObjectName(QStringLiteral("curves"));
    m_curveList->setToolTip(tr("Numeric arrays in the result; pick one to plot it"));
    m_curveList->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_curveList->setMinimumContentsLength(12);
    m_curveChart->legend()->hide();
    // The legend under the plot: beside it, it took the narrow dock's width from the ticks.
    m_curveChart->legend()->setAlignment(Qt::AlignBottom);
    m_curveChart->legend()->setMarkerShape(QLegend::MarkerShapeFromSeries);
    m_curveChart->setMargins(QMargins(2, 2, 2, 2));
    m_curveChart->layout()->setContentsMargins(0, 0, 0, 0);
    m_curveView->setObjectName(QStringLiteral("curveView"));
    m_curveView->setChart(m_curveChart);
    m_curveView->setRenderHint(QPainter::Antialiasing);
    // Its own minimum (the chart's) made the result dock, and with it the window, taller than a
    // 1280x800 screen once the Plots tab showed.
    m_curveView->setMinimumSize(120, 40);
    // A short plot (the dock at 1280x800) gives the axis titles' and legend's rows to the plot:
    // the list above names both axes, and Qt Charts cut the crowded labels to "...".
    connect(m_curveChart, &QChart::plotAreaChanged, this, &ResultView::fitCurveChrome);
    m_curveTheme = ChartTheme::follow(m_curveView);
    auto *plots = new QVBoxLayout(m_plots);
    plots->setContentsMargins(0, 2, 0, 0);
    plots->setSpacing(2);
    auto *curveRow = new QHBoxLayout;
    curveRow->addWidget(m_curveList, 1);
    QToolButton *enlarge = enlargeButton(m_plots, QStringLiteral("enlargeCurve"));
    connect(enlarge, &QToolButton::clicked, this, &ResultView::enlargeCurve);
    curveRow->addWidget(enlarge);
    plots->addLayout(curveRow);
    plots->addWidget(m_curveView, 1);
    connect(m_curveList, &QComboBox::currentIndexChanged, this, &ResultView::showCurve);
    m_text->setReadOnly(true);
    m_raw->setReadOnly(true);
    m_raw->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_tree->setColumnCount(2);
    m_tree->setHeaderLabels({tr("Field"), tr("Value")});
    m_tree->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_tree->setAlternatingRowColors(true);
    auto *imagesLayout = new QVBoxLayout(m_images);
    imagesLayout->addStretch(1);
    auto *scroll = new QScrollArea(this);
    scroll->setWidget(m_images);
    scroll->setWidgetResizable(true);

    m_tabs->setDocumentMode(true);
    m_tabs->addTab(m_tree, tr("Structured"));
    m_tabs->addTab(m_plots, tr("Plots"));
    m_tabs->addTab(m_text, tr("Text"));
    m_tabs->addTab(scroll, tr("Images"));
    m_tabs->addTab(m_raw, tr("JSON"));

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_banner);
    layout->addWidget(m_lineage);
    layout->addWidget(m_review);
    layout->addWidget(m_answers);
    layout->addWidget(m_tabs, 1);
    clear();
}

void ResultView::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    fitSummary();
}

void ResultView::setSummaryWhole(bool whole)
{
    if (whole == m_summaryWhole)
        return;
    m_summaryWhole = whole;
    fitSummary();
}

void ResultView::fitSummary()
{
    // A word-wrapped label asks for one line's height only, and the dock above (the residual
    // chart) kept the rest: "Answer: Not answered yet." and a tool error's banner were cut
    // mid-line at 1280x800. Each summary label asks for all its lines at the width it has, up to
    // a few whole lines (the tabs below keep room; the inbox has a question whole, the JSON tab
    // an error). Cut there, a label ends on a whole line and its tooltip has the whole text.
    const auto fit = [this](QLabel *label, int maxLines) {
        label->ensurePolished(); // a banner's style sheet adds its border and padding
        if (label->isHidden() || !m_summaryWhole) {
            label->setToolTip(QString());
            label->setMinimumHeight(0);
            label->setMaximumHeight(QWIDGETSIZE_MAX);
            return;
        }
        const QMargins m = label->contentsMargins();
        const int chrome = m.top() + m.bottom() + 2 * label->margin();
        const int whole = label->heightForWidth(width());
        const int most = chrome + maxLines * label->fontMetrics().lineSpacing();
        const int h = std::min(whole, most);
        label->setToolTip(whole > most ? label->text() : QString());
        if (label->minimumHeight() != h || label->maximumHeight() != h)
            label->setFixedHeight(h);
    };
    fit(m_banner, 4);
    fit(m_lineage, 2);
    fit(m_review, 2);
    fit(m_answers, 9);
}

void ResultView::clear()
{
    m_outcome = Outcome::None;
    m_banner->setText(tr("Select a task to see its result."));
    m_banner->setStyleSheet(QString());
    m_text->clear();
    m_tree->clear();
    m_raw->clear();
    m_lineage->clear();
    m_lineage->hide();
    m_review->clear();
    m_review->hide();
    m_answers->clear();
    m_answers->hide();
    m_curves.clear();
    m_curveList->clear();
    showCurve(-1);
    fitSummary();
}

void ResultView::setAnswers(const QStringList &lines)
{
    m_answers->setText(lines.join(QLatin1Char('\n')));
    m_answers->setVisible(!lines.isEmpty());
    fitSummary();
}

QString ResultView::answersText() const
{
    return m_answers->text();
}

void ResultView::setLineage(std::optional<qint64> parentTaskId, const QList<qint64> &childTaskIds)
{
    QStringList parts;
    if (parentTaskId)
        parts << tr("Relaunched from #%1.").arg(*parentTaskId);
    if (!childTaskIds.isEmpty()) {
        QStringList ids;
        for (qint64 id : childTaskIds)
            ids << QStringLiteral("#%1").arg(id);
        parts << tr("Relaunched as %1.").arg(ids.join(QStringLiteral(", ")));
    }
    m_lineage->setText(parts.join(QLatin1Char(' ')));
    m_lineage->setVisible(!parts.isEmpty());
    fitSummary();
}

void ResultView::setReview(const QString &note, const QStringList &tags)
{
    QStringList parts;
    if (!tags.isEmpty())
        parts << tr("Tags: %1.").arg(tags.join(QStringLiteral(", ")));
    if (!note.isEmpty())
        parts << tr("Note: %1").arg(note);
    m_review->setText(parts.join(QLatin1Char(' ')));
    m_review->setVisible(!parts.isEmpty());
    fitSummary();
}

QString ResultView::reviewText() const
{
    return m_review->text();
}

QString ResultView::lineageText() const
{
    return m_lineage->text();
}

QStringList ResultView::curveNames() const
{
    QStringList names;
    for (const auto &c : m_curves)
        names << c.name;
    return names;
}

int ResultView::shownCurvePoints() const
{
    int n = 0;
    for (QAbstractSeries *s : m_curveChart->series())
        if (auto *line = qobject_cast<QLineSeries *>(s))
            n += int(line->count());
    return n;
}

int ResultView::shownReferencePoints() const
{
    int n = 0;
    for (QAbstractSeries *s : m_curveChart->series())
        if (auto *markers = qobject_cast<QScatterSeries *>(s))
            n += int(markers->count());
    return n;
}

QString ResultView::shownReferenceName() const
{
    for (QAbstractSeries *s : m_curveChart->series())
        if (qobject_cast<QScatterSeries *>(s))
            return s->name();
    return {};
}

void ResultView::enlargeCurve()
{
    enlargeIntoWindow(m_curveView, m_plots, tr("Result Plot"), QStringLiteral("enlargedCurve"),
                      [this] { static_cast<QVBoxLayout *>(m_plots->layout())->addWidget(m_curveView, 1); });
}

void ResultView::showCurve(int row)
{
    m_curveChart->removeAllSeries();
    for (QAbstractAxis *axis : m_curveChart->axes()) {
        m_curveChart->removeAxis(axis);
        delete axis;
    }
    if (row < 0 || row >= m_curves.size()) {
        m_curveChart->setTitle(m_curves.isEmpty() ? tr("No numeric arrays in this result.") : QString());
        m_curveList->setEnabled(!m_curves.isEmpty());
        return;
    }
    if (m_curveList->currentIndex() != row) {
        m_curveList->setCurrentIndex(row); // plots through currentIndexChanged
        return;
    }
    const ResultCurve &c = m_curves.at(row);
    auto *line = new QLineSeries;
    QList<QPointF> pts(c.points.begin(), c.points.end());
    line->replace(pts);
    line->setPointsVisible(pts.size() <= 40);
    m_curveChart->addSeries(line);
    auto *x = new QValueAxis;
    auto *y = new QValueAxis;
    x->setTitleText(c.xLabel);
    y->setTitleText(c.yLabel);
    m_curveChart->addAxis(x, Qt::AlignBottom);
    m_curveChart->addAxis(y, Qt::AlignLeft);
    line->attachAxis(x);
    line->attachAxis(y);
    line->setName(c.yLabel);
    QList<QPointF> extent = pts;
    if (!c.reference.empty()) {
        // Published reference values over the computed curve: markers, named by their source.
        auto *markers = new QScatterSeries;
        markers->setName(c.referenceSource);
        markers->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
        markers->setMarkerSize(7);
        markers->replace(QList<QPointF>(c.reference.begin(), c.reference.end()));
        m_curveChart->addSeries(markers);
        markers->attachAxis(x);
        markers->attachAxis(y);
        extent += markers->points();
    }
    fitCurveChrome();
    double x0 = pts.first().x(), x1 = x0, y0 = pts.first().y(), y1 = y0;
    for (const QPointF &p : std::as_const(extent)) {
        x0 = std::min(x0, p.x());
        x1 = std::max(x1, p.x());
        y0 = std::min(y0, p.y());
        y1 = std::max(y1, p.y());
    }
    x->setRange(x0, x1 > x0 ? x1 : x0 + 1);
    const double pad = y1 > y0 ? (y1 - y0) * 0.05 : 0.5;
    y->setRange(y0 - pad, y1 + pad);
    // As many ticks as the narrow dock holds legibly (Qt Charts cuts crowded labels to "...").
    keepTicksNice(x, 4);
    keepTicksNice(y, 4);
    // The name is in the list above the plot: no title repeating it.
    m_curveChart->setTitle(QString());
    m_curveList->setEnabled(true);
    m_curveTheme->apply(); // new axes take Qt's light look until styled
}


void ResultView::fitCurveChrome()
{
    // The legend (what the markers are) first, then the axes' titles, as the height allows.
    const int rows = m_curveView->height() / std::max(1, m_curveView->fontMetrics().height());
    const int shown = m_curveList->currentIndex();
    const bool reference = shown >= 0 && shown < m_curves.size() && !m_curves.at(shown).reference.empty();
    const bool legend = reference && rows >= 9;
    if (m_curveChart->legend()->isVisible() != legend)
        m_curveChart->legend()->setVisible(legend);
    for (QAbstractAxis *axis : m_curveChart->axes()) {
        // The upright y title takes width, not height.
        const bool title = rows >= (axis->orientation() == Qt::Vertical ? 7 : 12);
        if (axis->isTitleVisible() != title)
            axis->setTitleVisible(title);
    }
}

QString ResultView::bannerText() const
{
    return m_banner->text();
}

QString ResultView::text() const
{
    return m_text->toPlainText();
}

void ResultView::fillTree(QTreeWidgetItem *parent, const json &value)
{
    if (value.is_object()) {
        for (auto it = value.begin(); it != value.end(); ++it) {
            auto *item = new QTreeWidgetItem(parent, {QString::fromStdString(it.key())});
            if (it->is_structured()) {
                item->setText(1, it->is_array() ? tr("%n item(s)", nullptr, int(it->size())) : QString());
                fillTree(item, *it);
            } else {
                item->setText(1, scalarText(*it));
            }
        }
    } else if (value.is_array()) {
        // Long numeric arrays (centreline profiles) are shown compactly, not as 257 rows.
        const bool numeric = std::all_of(value.begin(), value.end(), [](const json &v) { return v.is_number(); });
        if (numeric && value.size() > 12) {
            QStringList parts;
            for (size_t i = 0; i < value.size(); ++i)
                parts << scalarText(value[i]);
            parent->setText(1, parts.join(QStringLiteral(", ")));
            parent->setToolTip(1, tr("%n value(s)", nullptr, int(value.size())));
            return;
        }
        for (size_t i = 0; i < value.size(); ++i) {
            auto *item = new QTreeWidgetItem(parent, {QStringLiteral("[%1]").arg(i)});
            if (value[i].is_structured())
                fillTree(item, value[i]);
            else
                item->setText(1, scalarText(value[i]));
        }
    }
}

// The banner in the theme's own colours: the window's text on the window colour tinted with the
// outcome's (the one palette), and a bar of the outcome colour. Text contrast stays that of the
// theme, light or dark.
QString ResultView::bannerStyle(Monitor::Outcome outcome) const
{
    const QColor base = palette().color(QPalette::Window);
    const QColor text = palette().color(QPalette::WindowText);
    const QColor accent = OutcomePalette::color(outcome, base.lightnessF() < 0.5);
    const auto mix = [](int a, int b) { return (a * 4 + b) / 5; };
    const QColor tint(mix(base.red(), accent.red()), mix(base.green(), accent.green()),
                      mix(base.blue(), accent.blue()));
    return QStringLiteral("background:%1;color:%2;border-left:4px solid %3;border-radius:3px;")
        .arg(tint.name(), text.name(), accent.name());
}

void ResultView::setTask(const Store::TaskRecord &task)
{
    clear();
    const json result = json::parse(task.result.toStdString(), nullptr, false);
    const json error = json::parse(task.error.toStdString(), nullptr, false);
    QString banner;
    QString css;
    switch (task.status) {
    case TaskStatus::Working:
    case TaskStatus::InputRequired:
        m_outcome = Outcome::Running;
        banner = task.status == TaskStatus::Working ? tr("Task %1 is still running.").arg(task.id)
                                                    : tr("Task %1 is waiting for your answer (see the inbox).").arg(task.id);
        break;
    case TaskStatus::Completed:
        if (task.isToolError) {
            m_outcome = Outcome::ToolError;
            banner = tr("Tool error: the tool ran and reported a problem. The task itself completed; "
                        "read the message below, fix the arguments and relaunch.");
            css = bannerStyle(Monitor::Outcome::ToolError);
        } else if (Monitor::convergedOf(task.result) == false) {
            // Green is for success only: a run that stopped short of convergence says so.
            m_outcome = Outcome::Success;
            banner = tr("Completed – not converged: the run stopped before its residual reached the "
                        "tolerance. Treat the numbers as provisional; rerun with more iterations.");
            css = bannerStyle(Monitor::Outcome::NotConverged);
        } else {
            m_outcome = Outcome::Success;
            banner = tr("Completed: the result is stored in Eddy's database.");
            css = bannerStyle(Monitor::Outcome::Converged);
        }
        break;
    case TaskStatus::Failed: {
        m_outcome = Outcome::Failed;
        const QString msg = error.is_object() ? Json::string(error, "message") : task.error;
        const QString code = error.is_object() && error.contains("code") ? scalarText(error["code"]) : QString();
        banner = code.isEmpty() ? tr("Failed: %1").arg(msg) : tr("Failed (error %1): %2").arg(code, msg);
        css = bannerStyle(Monitor::Outcome::Failed);
        break;
    }
    case TaskStatus::Cancelled:
        m_outcome = Outcome::Cancelled;
        banner = tr("Cancelled.");
        break;
    case TaskStatus::Expired:
    case TaskStatus::Lost:
        m_outcome = Outcome::Gone;
        banner = task.status == TaskStatus::Expired
                     ? tr("Expired: the server forgot this task before it finished; re-run the case.")
                     : tr("Lost: the server does not know this task any more; re-run the case.");
        css = bannerStyle(Monitor::Outcome::Expired);
        break;
    }
    m_banner->setText(banner);
    m_banner->setStyleSheet(css);
    fitSummary();

    if (result.is_object()) {
        QStringList texts;
        QStringList links;
        auto *imagesLayout = static_cast<QVBoxLayout *>(m_images->layout());
        while (imagesLayout->count() > 1) {
            QLayoutItem *item = imagesLayout->takeAt(0);
            delete item->widget();
            delete item;
        }
        bool hasImage = false;
        for (const json &block : result.value("content", json::array())) {
            const QString type = Json::string(block, "type");
            if (type == QLatin1String("text")) {
                texts << Json::string(block, "text");
            } else if (type == QLatin1String("image")) {
                hasImage = true;
            } else if (type == QLatin1String("resource_link")) {
                links << tr("Link: %1 (%2)").arg(Json::string(block, "name"), Json::string(block, "uri"));
            } else if (type == QLatin1String("resource")) {
                const json res = block.value("resource", json::object());
                links << tr("Resource: %1").arg(Json::string(res, "uri"));
                if (res.contains("text"))
                    texts << Json::string(res, "text");
            }
        }
        if (hasImage) {
            // Decoded, at a readable size, with the colour scale the server states (or why a
            // picture cannot be shown).
            auto *pictures = new FieldPictures(m_images);
            pictures->setCases({FieldPictures::CasePictures{QString(), task.result}});
            pictures->setMinimumHeight(280);
            imagesLayout->insertWidget(imagesLayout->count() - 1, pictures);
        }
        m_text->setPlainText((texts + links).join(QStringLiteral("\n\n")));
        if (result.contains("structuredContent")) {
            auto *root = m_tree->invisibleRootItem();
            fillTree(root, result["structuredContent"]);
            m_tree->expandToDepth(0);
            m_tabs->setCurrentWidget(m_tree);
        } else {
            m_tabs->setCurrentWidget(m_text);
        }
        m_raw->setPlainText(QString::fromStdString(result.dump(2)));
        m_curves = resultCurves(task.result);
        {
            const QSignalBlocker blocker(m_curveList);
            for (const auto &c : std::as_const(m_curves))
                m_curveList->addItem(tr("%1 (%2 vs %3)").arg(c.name, c.yLabel, c.xLabel));
            m_curveList->setCurrentIndex(-1);
        }
        showCurve(preferredCurve(m_curves));
    } else if (error.is_object()) {
        m_raw->setPlainText(QString::fromStdString(error.dump(2)));
        m_text->setPlainText(Json::string(error, "message"));
        m_tabs->setCurrentWidget(m_text);
    } else if (!task.statusMessage.isEmpty()) {
        m_text->setPlainText(task.statusMessage);
    }
}

} // namespace Eddy
