#pragma once

#include <QByteArray>
#include <QList>
#include <QUrl>

#include <utility>

namespace Eddy::Net {

// One POST (or DELETE, or GET): everything HttpClient needs, copied into the transfer when it starts.
struct HttpRequest
{
    // DELETE: ends a 2025-11-25 session; GET: resumes an SSE stream (Last-Event-ID). Neither
    // sends a body.
    enum class Method { Post, Delete, Get };
    QUrl url;
    Method method = Method::Post;
    QList<std::pair<QByteArray, QByteArray>> headers;
    QByteArray body;
    int timeoutMs = 30000;                      // whole exchange; 0 = none (long-lived streams)
    int connectTimeoutMs = 10000;
    // Slow-transfer floor: a transfer that moves fewer than lowSpeedBytesPerSec bytes a second
    // for lowSpeedWindowMs (rounded up to whole seconds) is abandoned as a timeout (transient).
    // 0 = no floor (long-lived streams, where silence is normal).
    int lowSpeedBytesPerSec = 0;
    int lowSpeedWindowMs = 0;
    qint64 maxResponseBytes = 64 * 1024 * 1024; // larger bodies end with Error::Kind::TooLarge
    bool verifyTls = true;                      // off only by an explicit per-server choice
    QByteArray bearerToken;                     // sent as "Authorization: Bearer ..."
    // The request reads and changes nothing (tasks/get), so sending it twice does no harm: it
    // may take HttpClient's poll lane, which hands anything unusual back to libcurl by re-sending.
    bool mayRepeat = false;
};

} // namespace Eddy::Net
