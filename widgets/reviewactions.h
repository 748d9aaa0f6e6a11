#pragma once

#include <QObject>

#include <optional>

class QInputDialog;

namespace Eddy {

class EngineBridge;
class MainWindow;

// The window's part in reviewing past sweeps (docs/user-guide.md "Reviewing past sweeps"):
// Edit Note... and Edit Tags... on the selected cases, Pause/Resume Sweep Submission, Mark as
// Baseline in the sweep table and the compare window's Baseline choice; Edit Sweep Note..., Edit
// Sweep Tags... and Pause/Resume Sweep Submission of the sweep shown in the sweep view; the notes
// and tags of the snapshot and of every later edit (here or in another process) into the task
// table and the task detail; a sweep's note, tags, baseline and pause into the sweep view;
// paused sweeps into the task view's menu. Owned by the window; GUI thread.
class ReviewActions final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ReviewActions)

public:
    ReviewActions(MainWindow *window, EngineBridge *bridge);

    // The dialogs (window-modal, open() at once): the same note or tags for every given task's case.
    void editNote(const QList<qint64> &taskIds);
    void editTags(const QList<qint64> &taskIds);
    // The same for a sweep's own note and tags.
    void editSweepNote(qint64 sweepId);
    void editSweepTags(qint64 sweepId);

private:
    QList<qint64> caseIdsOf(const QList<qint64> &taskIds) const;
    // A window-modal input dialog that deletes itself once closed.
    QInputDialog *newInputDialog(const QString &objectName, const QString &title, const QString &label) const;
    void markBaseline(qint64 taskId);
    static QStringList tagsOf(const QString &text);

    MainWindow *m_window;
    EngineBridge *m_bridge;
    std::optional<qint64> m_detailCase; // the case of the task the detail shows
};

} // namespace Eddy
