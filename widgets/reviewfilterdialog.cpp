#include "widgets/reviewfilterdialog.h"

#include "models/outcomepalette.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QVBoxLayout>

namespace Eddy {

namespace {

QString numberText(std::optional<double> v)
{
    return v ? QLocale().toString(*v, 'g', 12) : QString();
}

// A bound as typed ('' = open); *ok false when it is not a number.
std::optional<double> bound(const QLineEdit *edit, bool *ok)
{
    const QString text = edit->text().trimmed();
    *ok = true;
    if (text.isEmpty())
        return std::nullopt;
    double v = QLocale().toDouble(text, ok);
    if (!*ok)
        v = text.toDouble(ok); // "1e-6" typed in the C locale's way
    return *ok ? std::optional<double>(v) : std::nullopt;
}

} // namespace

ReviewFilterDialog::ReviewFilterDialog(const QStringList &rangeNames, const QStringList &tags,
                                       const ReviewFilter &current, QWidget *parent)
    : QDialog(parent)
    , m_text(new QLineEdit(this))
    , m_error(new QLabel(this))
    , m_filter(current)
{
    setObjectName(QStringLiteral("reviewFilterDialog"));
    setWindowTitle(tr("Filter Runs"));
    auto *layout = new QVBoxLayout(this);

    auto *ranges = new QGroupBox(tr("Ranges"), this);
    auto *rangeGrid = new QGridLayout(ranges);
    rangeGrid->addWidget(new QLabel(tr("From"), ranges), 0, 1);
    rangeGrid->addWidget(new QLabel(tr("To"), ranges), 0, 2);
    int row = 1;
    QStringList names = rangeNames;
    for (auto it = current.ranges.cbegin(); it != current.ranges.cend(); ++it)
        if (!names.contains(it.key()))
            names << it.key(); // a range of an opened filter on a name not shown here stays
    for (const QString &name : std::as_const(names)) {
        RangeEdits edits{new QLineEdit(ranges), new QLineEdit(ranges)};
        edits.min->setObjectName(QStringLiteral("rangeMin_%1").arg(name));
        edits.max->setObjectName(QStringLiteral("rangeMax_%1").arg(name));
        edits.min->setPlaceholderText(tr("any"));
        edits.max->setPlaceholderText(tr("any"));
        const ReviewFilter::Range r = current.ranges.value(name);
        edits.min->setText(numberText(r.min));
        edits.max->setText(numberText(r.max));
        rangeGrid->addWidget(new QLabel(name, ranges), row, 0);
        rangeGrid->addWidget(edits.min, row, 1);
        rangeGrid->addWidget(edits.max, row, 2);
        m_ranges.insert(name, edits);
        ++row;
    }
    ranges->setVisible(!names.isEmpty());
    layout->addWidget(ranges);

    auto *outcomes = new QGroupBox(tr("Outcomes (none checked: every outcome)"), this);
    auto *outcomeGrid = new QGridLayout(outcomes);
    for (int o = 0; o <= int(Monitor::Outcome::Lost); ++o) {
        const auto outcome = static_cast<Monitor::Outcome>(o);
        auto *box = new QCheckBox(OutcomePalette::label(outcome), outcomes);
        box->setObjectName(QStringLiteral("outcome_%1").arg(Monitor::OutcomeText::key(outcome)));
        box->setChecked(current.outcomes.contains(outcome));
        outcomeGrid->addWidget(box, o / 2, o % 2);
        m_outcomes.insert(o, box);
    }
    layout->addWidget(outcomes);

    QStringList allTags = tags;
    for (const QString &t : current.tags)
        if (!allTags.contains(t))
            allTags << t;
    auto *tagBox = new QGroupBox(tr("Tags (a run must carry every tag checked)"), this);
    auto *tagLayout = new QHBoxLayout(tagBox);
    for (const QString &t : std::as_const(allTags)) {
        auto *box = new QCheckBox(t, tagBox);
        box->setObjectName(QStringLiteral("tag_%1").arg(t));
        box->setChecked(current.tags.contains(t));
        tagLayout->addWidget(box);
        m_tags.insert(t, box);
    }
    tagLayout->addStretch(1);
    tagBox->setVisible(!allTags.isEmpty());
    layout->addWidget(tagBox);

    auto *form = new QFormLayout;
    m_text->setObjectName(QStringLiteral("filterText"));
    m_text->setText(current.text);
    m_text->setPlaceholderText(tr("Words in the case's name, note or arguments"));
    form->addRow(tr("Text:"), m_text);
    layout->addLayout(form);

    m_error->setObjectName(QStringLiteral("filterError"));
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: palette(highlight)"));
    m_error->hide();
    layout->addWidget(m_error);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &ReviewFilterDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
}

std::optional<ReviewFilter> ReviewFilterDialog::read(QString *error) const
{
    ReviewFilter f;
    for (auto it = m_ranges.cbegin(); it != m_ranges.cend(); ++it) {
        bool okMin = false;
        bool okMax = false;
        ReviewFilter::Range r{bound(it->min, &okMin), bound(it->max, &okMax)};
        if (!okMin || !okMax) {
            *error = tr("The range of %1 needs numbers (or nothing, for no bound).").arg(it.key());
            return std::nullopt;
        }
        if (r.min && r.max && *r.min > *r.max) {
            *error = tr("The range of %1 goes from %2 down to %3: swap them.")
                         .arg(it.key(), numberText(r.min), numberText(r.max));
            return std::nullopt;
        }
        if (r.min || r.max)
            f.ranges.insert(it.key(), r);
    }
    for (auto it = m_outcomes.cbegin(); it != m_outcomes.cend(); ++it)
        if (it.value()->isChecked())
            f.outcomes.insert(static_cast<Monitor::Outcome>(it.key()));
    for (auto it = m_tags.cbegin(); it != m_tags.cend(); ++it)
        if (it.value()->isChecked())
            f.tags << it.key();
    f.tags.sort();
    f.text = m_text->text().trimmed();
    return f;
}

void ReviewFilterDialog::accept()
{
    QString error;
    const auto f = read(&error);
    if (!f) {
        m_error->setText(error);
        m_error->show();
        return;
    }
    m_filter = *f;
    QDialog::accept();
}

} // namespace Eddy
