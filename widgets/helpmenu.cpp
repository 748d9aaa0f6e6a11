#include "widgets/helpmenu.h"

#include <QAction>
#include <QDesktopServices>
#include <QDialog>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QKeySequence>
#include <QMenu>
#include <QRegularExpression>
#include <QSet>
#include <QTableWidget>
#include <QTextBrowser>
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

QString HelpMenu::guideResource()
{
    return QStringLiteral(":/eddy/docs/user-guide.md");
}

QDialog *HelpMenu::openGuide(QWidget *parent)
{
    if (auto *open = parent->findChild<QDialog *>(QStringLiteral("userGuideDialog"))) {
        open->raise();
        open->activateWindow();
        return open;
    }
    auto *dialog = new QDialog(parent);
    dialog->setObjectName(QStringLiteral("userGuideDialog"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("Eddy User Guide"));
    auto *layout = new QVBoxLayout(dialog);
    auto *browser = new QTextBrowser(dialog);
    browser->setObjectName(QStringLiteral("userGuideText"));
    // Anchors within the guide scroll; web links open in the browser; the other documents it
    // names are not built in, so those links stay where they are.
    browser->setOpenLinks(false);
    QObject::connect(browser, &QTextBrowser::anchorClicked, browser, [browser](const QUrl &url) {
        if (url.scheme() == QLatin1String("http") || url.scheme() == QLatin1String("https")
            || url.scheme() == QLatin1String("mailto"))
            QDesktopServices::openUrl(url);
        else if (url.hasFragment())
            browser->scrollToAnchor(url.fragment());
    });
    // Relative to the guide, its pictures (screenshots/...) resolve inside the resource too.
    browser->setSource(QUrl(QStringLiteral("qrc") + guideResource()), QTextDocument::MarkdownResource);
    layout->addWidget(browser);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
    QObject::connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    layout->addWidget(buttons);
    dialog->resize(960, 720);
    dialog->show(); // not modal: the guide stays open beside the window it explains
    return dialog;
}

} // namespace Eddy
