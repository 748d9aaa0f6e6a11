#include "widgets/reviewfilterbutton.h"

#include "models/taskfilterproxymodel.h"
#include "models/tasktablemodel.h"
#include "widgets/filedialog.h"
#include "widgets/reviewfilterdialog.h"

#include <QFile>
#include <QFileDialog>
#include <QMenu>
#include <QMessageBox>
#include <QSaveFile>
#include <QStyle>

namespace Eddy {

ReviewFilterButton::ReviewFilterButton(TaskTableModel *model, TaskFilterProxyModel *proxy, QWidget *parent)
    : QToolButton(parent)
    , m_model(model)
    , m_proxy(proxy)
{
    setObjectName(QStringLiteral("reviewFilter"));
    setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    setIcon(style()->standardIcon(QStyle::SP_FileDialogContentsView));
    setAutoRaise(true);
    setPopupMode(QToolButton::MenuButtonPopup);
    auto *menu = new QMenu(this);
    QAction *edit = menu->addAction(tr("Filter..."), this, &ReviewFilterButton::editFilter);
    edit->setObjectName(QStringLiteral("editFilter"));
    QAction *clear = menu->addAction(tr("Clear Filter"), this, [this] { setFilter({}); });
    clear->setObjectName(QStringLiteral("clearFilter"));
    menu->addSeparator();
    QAction *save = menu->addAction(tr("Save Filter..."), this, &ReviewFilterButton::saveFilter);
    save->setObjectName(QStringLiteral("saveFilter"));
    QAction *open = menu->addAction(tr("Open Filter..."), this, &ReviewFilterButton::openFilter);
    open->setObjectName(QStringLiteral("openFilter"));
    setMenu(menu);
    connect(this, &QToolButton::clicked, this, &ReviewFilterButton::editFilter);
    showFilterState();
}

ReviewFilter ReviewFilterButton::filter() const
{
    return m_proxy->reviewFilter();
}

void ReviewFilterButton::setFilter(const ReviewFilter &filter)
{
    m_proxy->setReviewFilter(filter);
    showFilterState();
    Q_EMIT filterChanged();
}

void ReviewFilterButton::showFilterState()
{
    const bool on = !m_proxy->reviewFilter().isEmpty();
    setText(on ? tr("Filtered") : tr("Filter"));
    setToolTip(on ? tr("Only runs that match the filter are shown and counted; click to change it")
                  : tr("Show only runs in ranges of their parameters, with some outcomes, tags or words"));
}

void ReviewFilterButton::editFilter()
{
    QStringList names = m_model->rangeNames();
    for (const QString &n : m_resultNames)
        if (!names.contains(n))
            names << n;
    auto *dialog = new ReviewFilterDialog(names, m_model->allTags(), filter(), window());
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] { setFilter(dialog->filter()); });
    dialog->open();
}

void ReviewFilterButton::saveFilter()
{
    QFileDialog *dialog = newFileDialog(window(), tr("Save Filter"), QStringLiteral("saveFilterDialog"),
                                        {tr("Eddy filters (*.eddyfilter.json)"), tr("All files (*)")},
                                        QStringLiteral("filterFolder"));
    dialog->setAcceptMode(QFileDialog::AcceptSave);
    dialog->setDefaultSuffix(QStringLiteral("eddyfilter.json"));
    connect(dialog, &QFileDialog::fileSelected, this, [this](const QString &path) {
        QSaveFile file(path);
        const QByteArray json = filter().toJson();
        if (!file.open(QIODevice::WriteOnly) || file.write(json) != json.size() || !file.commit()) {
            auto *box = new QMessageBox(QMessageBox::Warning, tr("Filter Not Saved"),
                                        tr("Cannot write %1: %2. Choose another folder.")
                                            .arg(path, file.errorString()),
                                        QMessageBox::Ok, window());
            box->setObjectName(QStringLiteral("filterFileError"));
            box->setAttribute(Qt::WA_DeleteOnClose);
            box->open();
        }
    });
    dialog->open();
}

bool ReviewFilterButton::loadFilter(const QString &path, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = tr("Cannot read %1: %2.").arg(path, file.errorString());
        return false;
    }
    QString why;
    const auto f = ReviewFilter::fromJson(file.read(1 << 20), &why);
    if (!f) {
        *error = tr("%1 is not a filter Eddy can open. %2").arg(path, why);
        return false;
    }
    setFilter(*f);
    return true;
}

void ReviewFilterButton::openFilter()
{
    QFileDialog *dialog = newFileDialog(window(), tr("Open Filter"), QStringLiteral("openFilterDialog"),
                                        {tr("Eddy filters (*.eddyfilter.json)"), tr("All files (*)")},
                                        QStringLiteral("filterFolder"));
    dialog->setFileMode(QFileDialog::ExistingFile);
    connect(dialog, &QFileDialog::fileSelected, this, [this](const QString &path) {
        QString error;
        if (loadFilter(path, &error))
            return;
        auto *box = new QMessageBox(QMessageBox::Warning, tr("Filter Not Opened"),
                                    tr("%1 The filter shown is unchanged.").arg(error),
                                    QMessageBox::Ok, window());
        box->setObjectName(QStringLiteral("filterFileError"));
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
    });
    dialog->open();
}

} // namespace Eddy
