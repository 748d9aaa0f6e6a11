#pragma once

#include <QString>

#include <atomic>
#include <functional>
#include <mutex>
#include <thread>

struct sqlite3;

namespace Eddy::Store {

// SQLite's quick_check over a whole database file: run inline on a connection (Database::open
// after an unclean shutdown), or on a second, read-only connection in a low-priority thread of its
// own after a clean one. The owner (a Database) lives on one thread; onDamaged is called from the
// check's thread.
class IntegrityCheck final
{
    Q_DISABLE_COPY_MOVE(IntegrityCheck)

public:
    enum class State { Idle, Running, Passed, Damaged, Stopped };

    IntegrityCheck() = default;
    ~IntegrityCheck() { stop(); }

    // Runs PRAGMA quick_check on db: empty when the file is sound, else the message for the user
    // (what is wrong, that Eddy has not changed the file, and what to do).
    static QString run(sqlite3 *db, const QString &path);
    // The message for a damaged file at path; detail is what SQLite found.
    static QString damagedMessage(const QString &path, const QString &detail);

    // Starts the check in the background (a no-op while one runs). onDamaged gets the message
    // when the file is damaged or cannot be read.
    void start(const QString &path, std::function<void(const QString &)> onDamaged);
    // Interrupts a running check and waits for its thread; the state becomes Stopped.
    void stop();
    State state() const { return m_state.load(); }

private:
    void work(const QString &path, const std::function<void(const QString &)> &onDamaged);

    std::thread m_thread;
    std::mutex m_mutex; // guards m_db between the check's thread and stop()
    sqlite3 *m_db = nullptr;
    std::atomic<bool> m_stopping = false;
    std::atomic<State> m_state = State::Idle;
};

} // namespace Eddy::Store
