#include "widgets/plotwindow.h"

#include <QCoreApplication>
#include <QDialog>
#include <QScreen>
#include <QToolButton>
#include <QVBoxLayout>

namespace Eddy {

QToolButton *enlargeButton(QWidget *parent, const QString &objectName)
{
    auto *button = new QToolButton(parent);
    button->setObjectName(objectName);
    button->setText(QCoreApplication::translate("Eddy::PlotWindow", "Enlarge Plot"));
    button->setToolTip(
        QCoreApplication::translate("Eddy::PlotWindow", "Show the plot in a large window of its own"));
    button->setAutoRaise(true);
    return button;
}

QDialog *enlargeIntoWindow(QWidget *view, QWidget *home, const QString &title,
                           const QString &objectName, std::function<void()> putBack)
{
    if (view->parentWidget() != home) {
        view->window()->raise();
        return nullptr;
    }
    auto *dialog = new QDialog(home);
    dialog->setObjectName(objectName);
    dialog->setWindowTitle(title);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    auto *layout = new QVBoxLayout(dialog);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(view);
    // Large, but inside the screen.
    const QRect available = home->screen() ? home->screen()->availableGeometry()
                                           : QRect(0, 0, 1280, 800);
    dialog->resize(QSize(1100, 750).boundedTo(available.size() * 9 / 10));
    QObject::connect(dialog, &QDialog::finished, home, [view, putBack] {
        putBack();
        view->show();
    });
    dialog->show();
    return dialog;
}

} // namespace Eddy
