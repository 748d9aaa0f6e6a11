#pragma once

#include <QString>

#include <functional>

class QDialog;
class QToolButton;
class QWidget;

namespace Eddy {

// Enlarge Plot: a chart taken out of its narrow dock into a large window of its own (bounded by
// the screen). `view` moves into the window and `putBack` returns it to `home` when the window
// closes; while it is out, asking again raises that window (nullptr is returned then).
// The "Enlarge Plot" button beside a plot's tools (objectName for tests and the layout checks).
QToolButton *enlargeButton(QWidget *parent, const QString &objectName);

QDialog *enlargeIntoWindow(QWidget *view, QWidget *home, const QString &title,
                           const QString &objectName, std::function<void()> putBack);

} // namespace Eddy
