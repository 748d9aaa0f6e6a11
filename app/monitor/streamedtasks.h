#pragma once

#include <QCoreApplication>
#include <QString>

#include <nlohmann/json.hpp>

#include <optional>

namespace Eddy::Monitor {

// Streamed calls (docs/user-guide.md, "Streamed calls"): a tools/call answered as an SSE stream
// by a server or tool without the Tasks extension. Eddy keeps it as a task row of pattern
// "streamed"; these helpers turn the stream's notifications into the status messages the
// progress parser reads, and tell whether the process that held a stream is still alive.
class StreamedCalls final
{
    Q_DECLARE_TR_FUNCTIONS(Eddy::Monitor::StreamedCalls)

public:
    // What one notification says, as a status message. x: the notification's own counter
    // (progress), to place samples of a message without one.
    struct Update
    {
        QString message;
        std::optional<double> x;
        std::optional<double> percent; // progress / total * 100 when the total is known
    };
    // notifications/progress {progress, total?, message?} or notifications/message {level, data}.
    // Empty message: nothing worth storing (an unknown method, a malformed notification).
    static Update fromNotification(const nlohmann::json &notification);

    // The row's message when the stream ended without the result and could not be resumed.
    static QString lostMessage(std::optional<double> percent, const QString &cause = {});
    // The row's message when the call was cancelled from Eddy (its stream closed on request).
    static QString cancelledMessage(std::optional<double> percent);
    // The row's message when its server was removed (in another process) while it streamed.
    static QString serverRemovedMessage(std::optional<double> percent);
    // The row's message when Eddy finds a stream whose process has ended (kill -9, a crash).
    static QString orphanedMessage(std::optional<double> percent);

    // This process, as stored with a streamed row while its stream is open:
    // "host/pid/start", start being the kernel's start time of the process where known.
    static QString ownerId();
    // False when the owner is this host's process that is no longer running (or another
    // process now has its pid). An owner on another host is taken as alive: it cannot be
    // checked from here.
    static bool ownerAlive(const QString &owner);
};

} // namespace Eddy::Monitor
