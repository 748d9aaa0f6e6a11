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
}

curl_slist *HttpReply::buildHeaderList(const QList<std::pair<QByteArray, QByteArray>> &headers,
                                       const QByteArray &bearerToken)
{
    // Offsets first: the text may move while it grows; the nodes are linked at the end.
    std::vector<qsizetype> starts;
    starts.reserve(size_t(headers.size()) + 3);
    m_headerText.clear();
    const auto add = [&](std::initializer_list<QByteArrayView> parts) {
        starts.push_back(m_headerText.size());
        for (const QByteArrayView part : parts)
            m_headerText.append(part);
        m_headerText.append('\0');
    };
    // No "Expect: 100-continue": it costs a round trip on every larger POST.
    add({"Expect:"});
    bool hasContentType = false;
    for (const auto &[name, value] : headers) {
        if (name.compare("content-type", Qt::CaseInsensitive) == 0)
            hasContentType = true;
        add({name, ": ", value});
    }
    if (!hasContentType)
        add({"Content-Type: application/json"});
    if (!bearerToken.isEmpty())
        add({"Authorization: Bearer ", bearerToken});
    m_headerNodes.resize(starts.size());
    char *text = m_headerText.data();
    for (size_t i = 0; i < starts.size(); ++i) {
        m_headerNodes[i].data = text + starts[i];
        m_headerNodes[i].next = i + 1 < starts.size() ? &m_headerNodes[i + 1] : nullptr;
    }
    return m_headerNodes.data();
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
    // Views until a header is kept: a response's handful of lines cost two copies each.
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
        self->m_headers.clear();
        self->m_headersDone = false;
    } else if (line.isEmpty()) {
        if (self->m_status >= 200)
            self->m_headersDone = true;
    } else {
        const qsizetype colon = line.indexOf(':');
        if (colon > 0)
            self->m_headers.append({line.first(colon).trimmed().toByteArray(),
                                    line.sliced(colon + 1).trimmed().toByteArray()});
    }
    return bytes;
}

} // namespace Eddy::Net
