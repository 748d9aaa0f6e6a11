#include "widgets/helpmenu.h"

#include <QAction>
#include <QDesktopServices>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileInfo>
#include <QHeaderView>
#include <QKeySequence>
#include <QMenu>
#include <QMessageBox>
#include <QRegularExpression>
#include <QSet>
#include <QTableWidget>
#include <QUrl>
#include <QVBoxLayout>

#include <algorithm>

namespace Eddy {

namespace {

QString plainText(const QAction *a)
{
    QString t = a->text();
    t.remove(QRegularExpression(QStringLiteral("&(?!&)")));
    if (t.endsWith(QLatin1String("...")))
        t.chop(3);
    return t;
}

} // namespace

void HelpMenu::populate(QMenu *menu, QWidget *window)
{
    QAction *guide = menu->addAction(tr("User Guide"), window, [window] { openGuide(window); });
    guide->setObjectName(QStringLiteral("userGuide"));
    guide->setShortcut(QKeySequence::HelpContents);
    QAction *keys
        = menu->addAction(tr("Keyboard Shortcuts"), window, [window] { showShortcuts(window); });
    keys->setObjectName(QStringLiteral("keyboardShortcuts"));
}

QDialog *HelpMenu::showShortcuts(QWidget *window)
{
    struct Row
    {
        QString action;
        QString keys;
    };
    QList<Row> rows;
    QSet<QString> seen;
    for (const QAction *a : window->findChildren<QAction *>()) {
        const QList<QKeySequence> shortcuts = a->shortcuts();
        if (shortcuts.isEmpty() || plainText(a).isEmpty())
            continue;
        QStringList keys;
        for (const QKeySequence &k : shortcuts)
            keys << k.toString(QKeySequence::NativeText);
        const Row r{plainText(a), keys.join(QLatin1String(", "))};
        if (seen.contains(r.action + r.keys))
            continue;
        seen.insert(r.action + r.keys);
        rows << r;
    }
    std::sort(rows.begin(), rows.end(), [](const Row &a, const Row &b) {
        return a.action.localeAwareCompare(b.action) < 0;
    });

    auto *dialog = new QDialog(window);
    dialog->setObjectName(QStringLiteral("shortcutsDialog"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("Keyboard Shortcuts"));
    auto *layout = new QVBoxLayout(dialog);
    auto *table = new QTableWidget(int(rows.size()), 2, dialog);
    table->setObjectName(QStringLiteral("shortcutTable"));
    table->setHorizontalHeaderLabels({tr("Action"), tr("Shortcut")});
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->verticalHeader()->hide();
    table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    table->horizontalHeader()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    for (int i = 0; i < rows.size(); ++i) {
        table->setItem(i, 0, new QTableWidgetItem(rows[i].action));
        table->setItem(i, 1, new QTableWidgetItem(rows[i].keys));
    }
    layout->addWidget(table);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
    QObject::connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    layout->addWidget(buttons);
    dialog->resize(480, 420);
    dialog->open();
    return dialog;
}

QStringList HelpMenu::guideCandidates()
{
    const QString app = QCoreApplication::applicationDirPath();
    QStringList out{QDir(app).filePath(QStringLiteral("../share/doc/eddy/user-guide.html")),
                    QDir(app).filePath(QStringLiteral("../share/doc/eddy/user-guide.md"))};
#ifdef EDDY_SOURCE_DOCS_DIR
    out << QDir(QStringLiteral(EDDY_SOURCE_DOCS_DIR)).filePath(QStringLiteral("user-guide.md"));
#endif
    for (QString &p : out)
        p = QDir::cleanPath(p);
    return out;
}

void HelpMenu::openGuide(QWidget *parent)
{
    const QStringList candidates = guideCandidates();
    for (const QString &path : candidates) {
        if (QFileInfo::exists(path) && QDesktopServices::openUrl(QUrl::fromLocalFile(path)))
            return;
    }
    QMessageBox::information(parent,
                             tr("User Guide"),
                             tr("Eddy could not find or open its user guide. It looked in:\n%1\n\n"
                                "The guide is docs/user-guide.md in Eddy's source code.")
                                 .arg(candidates.join(QLatin1Char('\n'))));
}

} // namespace Eddy
