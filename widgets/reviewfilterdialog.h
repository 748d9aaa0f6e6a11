#pragma once

#include "models/reviewfilter.h"

#include <QDialog>
#include <QHash>

class QCheckBox;
class QLabel;
class QLineEdit;

namespace Eddy {

// Edits a ReviewFilter: a from/to pair per varied parameter or result scalar, a check box per
// outcome and per tag, and words to find in a row's name, note and arguments. OK is refused with
// a message while a bound is not a number or a range is upside down. GUI thread.
class ReviewFilterDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ReviewFilterDialog)

public:
    ReviewFilterDialog(const QStringList &rangeNames, const QStringList &tags,
                       const ReviewFilter &current, QWidget *parent = nullptr);

    ReviewFilter filter() const { return m_filter; }
    void accept() override;

private:
    std::optional<ReviewFilter> read(QString *error) const;

    struct RangeEdits
    {
        QLineEdit *min = nullptr;
        QLineEdit *max = nullptr;
    };
    QHash<QString, RangeEdits> m_ranges;
    QHash<int, QCheckBox *> m_outcomes; // by int(Monitor::Outcome)
    QHash<QString, QCheckBox *> m_tags;
    QLineEdit *m_text;
    QLabel *m_error;
    ReviewFilter m_filter;
};

} // namespace Eddy
