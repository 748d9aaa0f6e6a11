#include "app/net/httpreply.h"

#include "app/net/httpclient.h"

#include <cstring>

namespace Eddy::Net {

HttpReply::HttpReply(HttpClient *client)
    : QObject(nullptr), m_client(client)
{
}

HttpReply::~HttpReply()
{
    // Deleting a running reply aborts it quietly (no signals from a destructor).
    if (m_client && m_easy && !m_finished)
        m_client->abortReply(this);
    if (m_headerList)
        curl_slist_free_all(m_headerList);
}

QByteArray HttpReply::readAll()
{
    QByteArray out;
    out.swap(m_body);
    return out;
}

QByteArray HttpReply::header(const QByteArray &name) const
{
    for (auto it = m_headers.crbegin(); it != m_headers.crend(); ++it) {
        if (it->first.compare(name, Qt::CaseInsensitive) == 0)
            return it->second;
    }
    return {};
}

void HttpReply::abort()
{
    if (m_finished)
        return;
    if (m_client && m_easy)
        m_client->abortReply(this);
    m_finished = true;
    m_error = Error(Error::Kind::Aborted, CURLE_ABORTED_BY_CALLBACK,
                    QStringLiteral("the request was aborted"));
    emit finished();
}

size_t HttpReply::writeCallback(char *data, size_t size, size_t count, void *userp)
{
    auto *self = static_cast<HttpReply *>(userp);
    const size_t bytes = size * count;
    self->m_received += qint64(bytes);
    if (self->m_maxBytes > 0 && self->m_received > self->m_maxBytes) {
        self->m_tooLarge = true;
        return 0; // libcurl ends the transfer with CURLE_WRITE_ERROR
    }
    self->m_headersDone = true;
    self->m_body.append(data, qsizetype(bytes));
    self->m_pendingReadyRead = true;
    return bytes;
}

size_t HttpReply::headerCallback(char *data, size_t size, size_t count, void *userp)
{
    auto *self = static_cast<HttpReply *>(userp);
    const size_t bytes = size * count;
    QByteArray line(data, qsizetype(bytes));
    while (line.endsWith('\n') || line.endsWith('\r'))
        line.chop(1);
    if (line.startsWith("HTTP/")) {
        // A new status line (after 100 Continue or a redirect) starts a fresh header block.
        const QList<QByteArray> parts = line.split(' ');
        self->m_status = parts.size() > 1 ? parts.at(1).toInt() : 0;
        self->m_headers.clear();
        self->m_headersDone = false;
    } else if (line.isEmpty()) {
        if (self->m_status >= 200)
            self->m_headersDone = true;
    } else {
        const int colon = line.indexOf(':');
        if (colon > 0)
            self->m_headers.append({line.left(colon).trimmed(), line.mid(colon + 1).trimmed()});
    }
    return bytes;
}

} // namespace Eddy::Net
