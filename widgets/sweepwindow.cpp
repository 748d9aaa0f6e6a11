#include "widgets/sweepwindow.h"

#include "widgets/sweepeditor.h"

#include <QMessageBox>
#include <QPushButton>

namespace Eddy {

SweepWindow::SweepWindow(QWidget *parent)
    : QDialog(parent)
{}

SweepWindow::~SweepWindow() = default;

void SweepWindow::reject()
{
    if (!m_editor || !m_editor->isFilled()) {
        QDialog::reject();
        return;
    }
    if (m_asking) {
        m_asking->raise();
        return;
    }
    m_asking = new QMessageBox(QMessageBox::Question,
                               tr("Discard This Sweep?"),
                               tr("The sweep editor has arguments and varied parameters that were "
                                  "not submitted. Discard them?"),
                               QMessageBox::NoButton,
                               this);
    m_asking->setObjectName(QStringLiteral("discardSweep"));
    m_asking->setAttribute(Qt::WA_DeleteOnClose);
    QPushButton *discard = m_asking->addButton(tr("Discard"), QMessageBox::DestructiveRole);
    discard->setObjectName(QStringLiteral("discard"));
    QPushButton *keep = m_asking->addButton(tr("Keep Editing"), QMessageBox::RejectRole);
    keep->setObjectName(QStringLiteral("keepEditing"));
    m_asking->setDefaultButton(keep);
    m_asking->setEscapeButton(keep);
    connect(m_asking, &QMessageBox::buttonClicked, this, [this, discard](QAbstractButton *button) {
        m_asking = nullptr;
        if (button != discard)
            return;
        if (m_editor) // discarded: the next New Sweep starts from the tool's defaults
            m_editor->startOver();
        QDialog::reject();
    });
    m_asking->open();
}

} // namespace Eddy
