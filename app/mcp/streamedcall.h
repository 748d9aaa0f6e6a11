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
// - an SSE answer may run for as long as it likes while bytes keep coming: it goes silent when
//   no byte (an event or a keep-alive comment) arrived for idleMs.
// fired(streaming) runs once, on the thread of the timer, when a limit passes.
class StreamWatchdog final
{
public:
    StreamWatchdog(int firstByteMs, int idleMs, std::function<void(bool streaming, int ms)> fired);
    ~StreamWatchdog();

    void headersReceived(bool isSse);
    void activity(); // bytes arrived
    void restart();  // a new request for the same answer (a resumed stream): first byte again

private:
    std::unique_ptr<QTimer> m_timer;
    std::function<void(bool, int)> m_fired;
    int m_firstByteMs = 0;
    int m_idleMs = 0;
    bool m_streaming = false;
};

} // namespace Eddy::Mcp
