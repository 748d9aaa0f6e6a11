#pragma once

#include <QObject>
#include <QStringList>

namespace Eddy {

class MainWindow;

// Eddy's window on the session bus as io.github.eddy.Eddy, object /io/github/eddy/Eddy: the
// standard org.freedesktop.Application interface (ActivateAction "answer" with a question's
// number brings the window to that question, "quit" closes it as File > Quit does) and
// io.github.eddy.Eddy (ShownQuestion: the number of the question in the answer panel, 0 when
// none). Owning the name also tells a running notifier (eddy --notify) that the window is open.
// GUI thread.
class DesktopService final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DesktopService)

public:
    explicit DesktopService(MainWindow *window, QObject *parent = nullptr);
    ~DesktopService() override;

    // Takes the name; false (nothing done) without a session bus or when another window has it.
    bool registerOnBus();
    void unregisterFromBus();

    // Puts the open question numbered `number` (its row in the database, as the notifier names
    // it) in the answer panel and raises the window; false when no such question is open.
    bool showQuestion(qint64 number);
    // The number of the question the answer panel shows, 0 when none.
    qint64 shownQuestion() const;
    void raiseWindow();
    void quit();

    // Whether the desktop has a session bus to talk to: asked first, so that no D-Bus library
    // starts one of its own (dbus-launch) for a window under a bare X server.
    static bool hasSessionBus();
    static QString serviceName();
    static QString objectPath();
    // Asks the window that owns the name to show question `number`; false when none answers.
    static bool forwardQuestion(qint64 number);
    // Starts `eddy --notify` detached (program: this eddy) to follow the questions of `dbPath`
    // while no window is open; false when it could not be started.
    static bool startNotifier(const QString &program, const QString &dbPath, const QStringList &extraArgs);

private:
    MainWindow *m_window;
    bool m_registered = false;
};

} // namespace Eddy
