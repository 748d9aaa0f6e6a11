#include "app/net/httpreply.h"

#include "app/net/httpclient.h"

#include <QPointer>

#include <cstring>

namespace Eddy::Net {

HttpReply::HttpReply(HttpClient *client)
    : QObject(nullptr), m_client(client)
{
}

HttpReply::~HttpReply()
{
    // Deleting a running reply aborts it quietly (no signals from a destructor).
    if (m_client && (m_easy || m_laneTicket) && !m_finished)
        m_client->abortReply(this);
}

curl_slist *HttpReply::buildHeaderList(const QList<std::pair<QByteArray, QByteArray>> &headers,
                                       const QByteArray &bearerToken)
{
    static constexpr QByteArrayView kNoExpect = "Expect:"; // "100-continue" costs a round trip
    static constexpr QByteArrayView kContentType = "Content-Type: application/json";
    static constexpr QByteArrayView kBearer = "Authorization: Bearer ";
    // The text is sized first, so it never moves and the nodes can point into it as it is written.
    bool hasContentType = false;
    qsizetype size = kNoExpect.size() + 1;
    for (const auto &[name, value] : headers) {
        if (name.compare("content-type", Qt::CaseInsensitive) == 0)
            hasContentType = true;
        size += name.size() + (value.isEmpty() ? 1 : 2 + value.size()) + 1;
    }
    if (!hasContentType)
        size += kContentType.size() + 1;
    if (!bearerToken.isEmpty())
        size += kBearer.size() + bearerToken.size() + 1;
    m_headerText.resize(size);
    m_headerNodes.resize(size_t(headers.size()) + 3);
    char *out = m_headerText.data();
    size_t count = 0;
    const auto add = [&](std::initializer_list<QByteArrayView> parts) {
        m_headerNodes[count].data = out;
        m_headerNodes[count].next = nullptr;
        if (count > 0)
            m_headerNodes[count - 1].next = &m_headerNodes[count];
        ++count;
        for (const QByteArrayView part : parts) {
            std::memcpy(out, part.data(), size_t(part.size()));
            out += part.size();
        }
        *out++ = '\0';
    };
    add({kNoExpect});
    for (const auto &[name, value] : headers) {
        if (value.isEmpty())
            add({name, ";"}); // libcurl drops "Name:"; "Name;" sends it with an empty value
        else
            add({name, ": ", value});
    }
    if (!hasContentType)
        add({kContentType});
    if (!bearerToken.isEmpty())
        add({kBearer, bearerToken});
    Q_ASSERT(out == m_headerText.data() + size);
    return m_headerNodes.data();
}

QByteArray HttpReply::readAll()
{
    QByteArray out;
    out.swap(m_body);
    return out;
}

namespace {

// A stored header line split at its first colon, both sides trimmed.
std::pair<QByteArrayView, QByteArrayView> splitHeader(QByteArrayView line)
{
    const qsizetype colon = line.indexOf(':');
    return {line.first(colon).trimmed(), line.sliced(colon + 1).trimmed()};
}

} // namespace

QByteArray HttpReply::header(QByteArrayView name) const
{
    return headerView(name).toByteArray();
}

QByteArrayView HttpReply::headerView(QByteArrayView name) const
{
    for (auto it = m_headerLines.crbegin(); it != m_headerLines.crend(); ++it) {
        const auto [key, value]
            = splitHeader(QByteArrayView(m_headerBlock).sliced(it->first, it->second));
        if (key.compare(name, Qt::CaseInsensitive) == 0)
            return value;
    }
    return {};
}

QList<std::pair<QByteArray, QByteArray>> HttpReply::headers() const
{
    QList<std::pair<QByteArray, QByteArray>> out;
    out.reserve(qsizetype(m_headerLines.size()));
    for (const auto &[offset, length] : m_headerLines) {
        const auto [key, value] = splitHeader(QByteArrayView(m_headerBlock).sliced(offset, length));
        out.append({key.toByteArray(), value.toByteArray()});
    }
    return out;
}

bool HttpReply::announce(Notice notice)
{
    ++m_announcing;
    if (m_handler) {
        const std::shared_ptr<Handler> handler = m_handler; // the call may drop the reply's copy
        switch (notice) {
        case Notice::HeadersReceived:
            handler->replyHeadersReceived(this);
            break;
        case Notice::ReadyRead:
            handler->replyReadyRead(this);
            break;
        case Notice::Finished:
            handler->replyFinished(this);
            break;
        }
    } else {
        QPointer<HttpReply> guard(this); // a slot may delete the reply
        switch (notice) {
        case Notice::HeadersReceived:
            emit headersReceived();
            break;
        case Notice::ReadyRead:
            emit readyRead();
            break;
        case Notice::Finished:
            emit finished();
            break;
        }
        if (!guard)
            return false;
    }
    if (--m_announcing == 0 && m_released) {
        delete this;
        return false;
    }
    return true;
}

void HttpReply::release()
{
    m_handler.reset();
    if (m_announcing > 0) {
        m_released = true; // announce() deletes it when the call returns
        return;
    }
    delete this; // a running transfer ends quietly in the destructor
}

void HttpReply::abort()
{
    if (m_finished)
        return;
    if (m_client && (m_easy || m_laneTicket))
        m_client->abortReply(this);
    m_finished = true;
    m_error = Error(Error::Kind::Aborted, CURLE_ABORTED_BY_CALLBACK,
                    QStringLiteral("the request was aborted"));
    announce(Notice::Finished);
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
    QByteArrayView line(data, qsizetype(bytes));
    while (line.endsWith('\n') || line.endsWith('\r'))
        line.chop(1);
    if (line.startsWith("HTTP/")) {
        // A new status line (after 100 Continue or a redirect) starts a fresh header block.
        const qsizetype space = line.indexOf(' ');
        int status = 0;
        for (qsizetype i = space + 1; space > 0 && i < line.size() && line[i] >= '0' && line[i] <= '9'; ++i)
            status = status * 10 + (line[i] - '0');
        self->m_status = status > 999 ? 0 : status;
        self->m_headerBlock.clear();
        self->m_headerLines.clear();
        self->m_headersDone = false;
    } else if (line.isEmpty()) {
        if (self->m_status >= 200)
            self->m_headersDone = true;
    } else {
        if (line.indexOf(':') > 0) {
            if (self->m_headerBlock.isEmpty())
                self->m_headerBlock.reserve(512); // a typical response's headers in one allocation
            self->m_headerLines.emplace_back(self->m_headerBlock.size(), line.size());
            self->m_headerBlock.append(line);
        }
    }
    return bytes;
}

} // namespace Eddy::Net
