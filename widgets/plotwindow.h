#pragma once

#include <QString>

#include <functional>

class QDialog;
class QWidget;

namespace Eddy {

// Enlarge Plot: a chart taken out of its narrow dock into a large window of its own (bounded by
// the screen). `view` moves into the window and `putBack` returns it to `home` when the window
// closes; while it is out, asking again raises that window (nullptr is returned then).
QDialog *enlargeIntoWindow(QWidget *view, QWidget *home, const QString &title,
                           const QString &objectName, std::function<void()> putBack);

} // namespace Eddy
