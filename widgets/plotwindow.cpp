#include "widgets/plotwindow.h"

#include <QDialog>
#include <QScreen>
#include <QVBoxLayout>

namespace Eddy {

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
