#pragma once

#include <QCoreApplication>
#include <QString>

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
    // The user guide in a window of Eddy's own (objectName "userGuideDialog", its browser
    // "userGuideText"): docs/user-guide.md and its pictures are built into Eddy, so the guide
    // needs no desktop launcher, installed file or source tree. Deletes itself on close.
    static QDialog *openGuide(QWidget *parent);
    // The built-in guide's resource path.
    static QString guideResource();
};

} // namespace Eddy
