#pragma once

#include <QDialog>

class QMessageBox;

namespace Eddy {

class SweepEditor;

// The window around the sweep editor. Escape or closing it asks before discarding a filled
// editor (a box named "discardSweep" with "discard" and "keepEditing" buttons); Discard empties
// the editor (SweepEditor::startOver()).
class SweepWindow final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SweepWindow)

public:
    explicit SweepWindow(QWidget *parent = nullptr);
    ~SweepWindow() override;

    void setEditor(SweepEditor *editor) { m_editor = editor; }
    void reject() override;

private:
    SweepEditor *m_editor = nullptr;
    QMessageBox *m_asking = nullptr;
};

} // namespace Eddy
