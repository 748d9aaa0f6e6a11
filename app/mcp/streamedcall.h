#pragma once

#include <QTimer>

#include <functional>
#include <memory>
#include <string>

namespace Eddy::Mcp {

// A fresh progressToken for one request's _meta: unguessable, so a notification on another
// stream can never be taken for this call's.
std::string newProgressToken();

// The clock of a tools/call that may be answered as a long SSE stream (a call that cannot
// become a task). Such a request runs without a total HTTP timeout; instead:
// - the response headers must arrive within firstByteMs (the server's request timeout);
// - a JSON answer must then complete within the same firstByteMs, counted from the start;
// - until the answer turns out to be an SSE stream (before the headers, and for a JSON body), the
//   server's slow-transfer floor applies as it does to every other request: fewer than
//   floorBytesPerSec bytes a second over a window of floorWindowMs abandons the answer;
// - an SSE answer may run for as long as it likes while bytes keep coming: it goes silent when
//   no byte (an event or a keep-alive comment) arrived for idleMs.
// fired(why, ms, floor) runs once, on the thread of the timer, when a limit passes; floor is the
// watchdog's own, the one a TooSlow did not meet, so the caller words it from this one copy.
class StreamWatchdog final
{
public:
    enum class Limit {
        NoAnswer, // no (complete) answer within firstByteMs
        TooSlow,  // below the slow-transfer floor before the answer became a stream
        Silent,   // a stream that sent nothing for idleMs
    };
    struct Floor
    {
        int bytesPerSec = 0; // 0 = no floor
        int windowMs = 0;
    };
    using Fired = std::function<void(Limit why, int ms, Floor floor)>;

    StreamWatchdog(int firstByteMs, int idleMs, Floor floor, Fired fired);
    ~StreamWatchdog();

    void headersReceived(bool isSse);
    void activity(qint64 bytes); // body bytes arrived
    void restart(); // a new request for the same answer (a resumed stream): first byte again

private:
    void fire(Limit why, int ms);
    void checkFloor();

    std::unique_ptr<QTimer> m_timer;
    std::unique_ptr<QTimer> m_floorTimer;
    Fired m_fired;
    int m_firstByteMs = 0;
    int m_idleMs = 0;
    Floor m_floor;
    qint64 m_windowBytes = 0;
    bool m_streaming = false;
};

} // namespace Eddy::Mcp
