#pragma once

#include <QCoreApplication>
#include <QString>
#include <QStringList>

class QDialog;
class QMenu;
class QWidget;

namespace Eddy {

// The Help menu's User Guide and Keyboard Shortcuts entries. The shortcut list is read from the
// window's actual QActions each time it opens, so it cannot go stale.
class HelpMenu final
{
    Q_DECLARE_TR_FUNCTIONS(Eddy::HelpMenu)

public:
    // Adds "User Guide" (F1) and "Keyboard Shortcuts" to `menu`; `window` owns the actions listed.
    static void populate(QMenu *menu, QWidget *window);
    // The dialog listing every shortcut of `window`'s actions (objectName "shortcutsDialog", its
    // table "shortcutTable": action, shortcut). Deletes itself on close.
    static QDialog *showShortcuts(QWidget *window);
    // Where the user guide is: the installed HTML or Markdown, else the source tree's docs/.
    static QStringList guideCandidates();
    // Opens the first existing guide; tells the user where it looked when there is none.
    static void openGuide(QWidget *parent);
};

} // namespace Eddy
