#include "app/mcp/client.h"
#include "app/mcp/client_p.h"

namespace Eddy::Mcp {

json Client::makeMeta(const QByteArray &traceparent) const
{
    json meta = json::object();
    if (m_era != Era::Legacy) {
        meta["io.modelcontextprotocol/protocolVersion"] = kModernVersion;
        meta["io.modelcontextprotocol/clientInfo"] = {{"name", "eddy"}, {"version", EDDY_VERSION}};
        meta["io.modelcontextprotocol/clientCapabilities"] = {
            {"elicitation", {{"form", json::object()}, {"url", json::object()}}},
            {"extensions", {{kTasksExtension, json::object()}}}};
    }
    if (!traceparent.isEmpty())
        meta["traceparent"] = traceparent.toStdString();
    return meta;
}

QList<std::pair<QByteArray, QByteArray>> Client::makeHeaders(const Request &request) const
{
    using Header = std::pair<QByteArray, QByteArray>;
    // Literals: no allocation per request for the names and constant values.
    static const Header accept(QByteArrayLiteral("Accept"),
                               QByteArrayLiteral("application/json, text/event-stream"));
    static const Header contentType(QByteArrayLiteral("Content-Type"),
                                    QByteArrayLiteral("application/json"));
    QList<Header> headers;
    if (m_era == Era::Legacy) {
        headers = {accept, contentType};
        if (request.method != QLatin1String("initialize"))
            headers.append(Header(QByteArrayLiteral("MCP-Protocol-Version"),
                                  protocolVersion().toLatin1()));
        if (!m_sessionId.isEmpty())
            headers.append(Header(QByteArrayLiteral("Mcp-Session-Id"), m_sessionId));
        return headers;
    }
    if (m_modernHeaders.isEmpty())
        m_modernHeaders = {accept, contentType,
                           Header(QByteArrayLiteral("MCP-Protocol-Version"),
                                  QByteArray(kModernVersion))};
    headers.reserve(m_modernHeaders.size() + 2 + request.extraHeaders.size());
    headers += m_modernHeaders;
    const bool isGet = request.method == QLatin1String("tasks/get");
    headers.append(Header(QByteArrayLiteral("Mcp-Method"),
                          isGet ? QByteArrayLiteral("tasks/get") : request.method.toUtf8()));
    if (!request.mcpName.isNull())
        headers.append(Header(QByteArrayLiteral("Mcp-Name"), Headers::encodeUtf8(request.mcpName)));
    headers += request.extraHeaders;
    return headers;
}

std::shared_ptr<Client::Exchange> Client::post(
    const Request &request, const json &message,
    ExchangeDone done)
{
    return post(request,
                QByteArray::fromStdString(message.dump(-1, ' ', false, json::error_handler_t::replace)),
                message.contains("id") ? message["id"] : json(), std::move(done));
}

std::shared_ptr<Client::Exchange> Client::post(const Request &request, QByteArray body,
                                               const json &requestId, ExchangeDone done)
{
    Net::HttpRequest http;
    http.url = m_config.url;
    http.headers = makeHeaders(request);
    http.body = std::move(body);
    http.timeoutMs = request.timeoutMs < 0 ? 0
                     : request.timeoutMs > 0 ? request.timeoutMs
                                             : m_config.timeoutMs;
    // A listen stream may be silent for as long as it likes; a streamed call's watchdog applies
    // the floor itself until its answer turns out to be a stream.
    if (request.timeoutMs >= 0) {
        http.lowSpeedBytesPerSec = m_config.lowSpeedBytesPerSec;
        http.lowSpeedWindowMs = m_config.lowSpeedWindowMs;
    }
    http.verifyTls = m_config.verifyTls;
    http.maxResponseBytes = m_config.maxResponseBytes;
    // A poll reads and changes nothing: it may take the HTTP client's poll lane.
    http.mayRepeat = request.method == QLatin1String("tasks/get");
    signRequest(http);

    auto exchange = std::make_shared<Exchange>();
    exchange->client = this;
    exchange->method = request.method;
    exchange->isInitialize = request.method == QLatin1String("initialize");
    exchange->requestId = requestId;
    exchange->onDone = std::move(done);
    exchange->reply = m_http->post(http);
    if (request.onStreamOpened) {
        exchange->resumable = m_era == Era::Legacy; // GET + Last-Event-ID is 2025-11-25 wire
        exchange->onStreamOpened = request.onStreamOpened;
        std::weak_ptr<Exchange> weak = exchange;
        exchange->watchdog = std::make_unique<StreamWatchdog>(
            request.firstByteMs > 0 ? request.firstByteMs : m_config.timeoutMs, request.streamIdleMs,
            StreamWatchdog::Floor{m_config.lowSpeedBytesPerSec, m_config.lowSpeedWindowMs},
            [weak](StreamWatchdog::Limit why, int ms, StreamWatchdog::Floor floor) {
                if (auto e = weak.lock())
                    e->wentSilent(why, ms, floor);
            });
    }
    if (m_exchanges.size() >= m_exchangeSweepAt) {
        std::erase_if(m_exchanges, [](const std::weak_ptr<Exchange> &w) { return w.expired(); });
        m_exchangeSweepAt = std::max<size_t>(64, 2 * m_exchanges.size());
    }
    m_exchanges.push_back(exchange);
    // The reply keeps the exchange alive even if the caller drops its pointer.
    exchange->reply->setHandler(exchange);
    return exchange;
}

void Client::finishLater(Job *job, const Error &error)
{
    QPointer<Job> guard(job);
    QTimer::singleShot(0, job, [guard, error] {
        if (guard)
            guard->finish(error);
    });
}

void Client::send(Request request, RpcDone done, QObject *context)
{
    QPointer<QObject> guard(context);
    if (m_era == Era::Modern || (m_era == Era::Legacy && m_legacyReady)) { // whenReady's fast path
        sendNow(std::move(request), std::move(done), guard);
        return;
    }
    whenReady([this, request = std::move(request), done = std::move(done), guard](const Error &e) mutable {
        if (!guard)
            return;
        if (!e.isOk()) {
            done({json(), e});
            return;
        }
        sendNow(std::move(request), std::move(done), guard);
    });
}

std::shared_ptr<Client::Exchange> Client::sendNow(Request request, RpcDone done,
                                                  QPointer<QObject> context)
{
    const qint64 id = m_nextId++;
    if (request.isPoll && m_era == Era::Modern) {
        // The steady-state poll: body written directly, answer read without a JSON tree.
        const QByteArray taskId = request.mcpName; // shared, not copied
        QPointer<TaskJob> job = request.pollJob;
        QByteArray body = modernGetBody(
            id, std::string_view(taskId.constData(), size_t(taskId.size())), request.traceparent);
        auto exchange = sendNow(std::move(request), std::move(done), context, id, std::move(body));
        if (!exchange->done) {
            exchange->isPoll = true;
            exchange->pollJob = std::move(job);
            exchange->expectedTaskId = taskId;
            exchange->requestNumber = id;
        }
        return exchange;
    }
    if (request.isPoll && !request.params.contains("taskId"))
        request.params = {{"taskId", request.mcpName.toStdString()}};
    json params = request.params.is_object() ? request.params : json::object();
    json meta = makeMeta(request.traceparent);
    if (const auto existing = params.find("_meta"); existing != params.end() && existing->is_object())
        for (auto it = existing->begin(); it != existing->end(); ++it)
            meta[it.key()] = it.value();
    if (!meta.empty())
        params["_meta"] = std::move(meta);
    const json message = {{"jsonrpc", "2.0"}, {"id", id}, {"method", request.method.toStdString()},
                          {"params", std::move(params)}};
    if (auto *listen = qobject_cast<Listen *>(context.data()))
        listen->m_requestId = id;
    return sendNow(std::move(request), std::move(done), context, id,
                   QByteArray::fromStdString(message.dump(-1, ' ', false, json::error_handler_t::replace)));
}

QByteArray Client::modernGetBody(qint64 id, std::string_view taskId, const QByteArray &traceparent)
{
    if (m_modernMeta.isEmpty()) {
        const std::string meta = makeMeta({}).dump(); // {...}: keep the members only
        m_modernMeta = QByteArray::fromStdString(meta.substr(1, meta.size() - 2));
    }
    // Task ids and traceparents are nearly always plain ASCII; anything else goes through the
    // JSON writer so the body stays valid whatever the server chose as an id.
    const auto quoted = [](QByteArray &out, std::string_view text) {
        const bool plain = std::all_of(text.begin(), text.end(), [](char c) {
            return c >= 0x20 && c < 0x7f && c != '"' && c != '\\';
        });
        if (plain) {
            out += '"';
            out.append(text.data(), qsizetype(text.size()));
            out += '"';
        } else {
            out += QByteArray::fromStdString(
                json(std::string(text)).dump(-1, ' ', false, json::error_handler_t::replace));
        }
    };
    QByteArray body;
    body.reserve(160 + m_modernMeta.size() + qsizetype(taskId.size()) + traceparent.size());
    body += "{\"jsonrpc\":\"2.0\",\"id\":";
    char digits[24]; // written in place: QByteArray::number would allocate per poll
    body.append(digits, std::to_chars(digits, digits + sizeof digits, id).ptr - digits);
    body += ",\"method\":\"tasks/get\",\"params\":{\"taskId\":";
    quoted(body, taskId);
    body += ",\"_meta\":{";
    body += m_modernMeta;
    if (!traceparent.isEmpty()) {
        body += ",\"traceparent\":";
        quoted(body, std::string_view(traceparent.constData(), size_t(traceparent.size())));
    }
    body += "}}}";
    return body;
}

std::shared_ptr<Client::Exchange> Client::sendNow(Request request, RpcDone done,
                                                  QPointer<QObject> context, qint64 id,
                                                  QByteArray body)
{
    // The session this request carries: its 404 ends that session, never a newer one.
    const QByteArray sentSession = m_era == Era::Legacy ? m_sessionId : QByteArray();
    const QByteArray sentNonce = dpopNonceNow(); // post() signs with it
    auto exchange = post(request, std::move(body), json(id), nullptr);
    if (request.onNotification || request.onServerRequest) {
        auto onNotification = request.onNotification;
        auto onServerRequest = request.onServerRequest;
        exchange->onMessage = [onNotification, onServerRequest](const json &msg) {
            if (msg.contains("id")) {
                if (onServerRequest)
                    onServerRequest(msg);
            } else if (onNotification) {
                onNotification(msg);
            }
        };
    }
    if (auto *job = qobject_cast<Job *>(context.data()))
        job->m_abortTarget = exchange;
    else if (auto *listen = qobject_cast<Listen *>(context.data()))
        listen->m_abortTarget = exchange;
    // Set last, so the request moves into it instead of being copied.
    exchange->onDone = [this,
                        request = std::move(request),
                        done = std::move(done),
                        context,
                        id,
                        sentSession,
                        sentNonce](json &response,
                                     const Error &error,
                                     int status,
                                     qint64 retryAfterMs) mutable {
        if (!context)
            return;
        // A DPoP nonce challenge (RFC 9449 §9) is no sign-in and does not use up the request's
        // one: OAuth adopts a nonce this request did not carry, and ends with a message when it
        // did.
        const bool dpopNonce = status == 401 && m_lastChallenge.contains("use_dpop_nonce");
        if (mayAuthorize(status) && (!request.authorized || dpopNonce)) {
            // A sign-in answers the challenge, then the request goes once more with the new
            // token (OAuth bounds the sign-ins; a second refusal is the caller's error).
            request.authorized = request.authorized || !dpopNonce;
            authorizeThen(status, sentNonce, [this, request = std::move(request), done = std::move(done),
                                   context](const Error &e) mutable {
                if (!context)
                    return;
                if (!e.isOk()) {
                    Error failed = e;
                    failed.setMethod(request.method);
                    done({nlohmann::json(), failed});
                    return;
                }
                send(std::move(request), std::move(done), context);
            });
            return;
        }
        const bool legacySessionGone = m_era == Era::Legacy && !sentSession.isEmpty()
                                       && status == 404 && request.allowReinit;
        if (legacySessionGone) {
            // 2025-11-25: a 404 on a request carrying a session id means the session is gone.
            // After a server restart every request in flight gets one: only the first ends the
            // session; the others must neither fail nor clear the session initialized since
            // (a request sent without one is answered -32602, which reads as "task gone").
            if (m_sessionId == sentSession) {
                qCInfo(lcMcp) << "legacy session expired; initializing again";
                m_legacyReady = false;
                m_sessionId.clear();
            }
            request.allowReinit = false;
            send(std::move(request), std::move(done), context);
            return;
        }
        if (!error.isOk()) {
            Error e = error;
            e.setMethod(request.method);
            if (retryAfterMs >= 0)
                e.setRetryAfterMs(retryAfterMs);
            done({json(), e});
            return;
        }
        if (response.is_null()) { // 202 Accepted
            done({json(), {}});
            return;
        }
        const auto version = response.find("jsonrpc");
        if (version == response.end() || *version != "2.0") {
            done({json(), Error::protocol(tr("The server's answer to %1 is not JSON-RPC 2.0.")
                                              .arg(request.method))});
            return;
        }
        const auto rid = response.find("id");
        if (response.contains("error")) {
            if (rid != response.end() && !rid->is_null() && *rid != json(id)) {
                done({json(), Error::protocol(tr("The server answered %1 with an error for another "
                                                 "request id.").arg(request.method))});
                return;
            }
            if (status >= 400 && NotMcp::looksLikeIt(status, true)
                && (rid == response.end() || rid->is_null())) {
                // An HTTP "not found" (or 405, 501, ...) whose JSON-RPC error answers no request:
                // an MCP server's reply for a path that is not its endpoint. Its URL is wrong,
                // whatever era the origin's other servers speak.
                done({json(), NotMcp::error(Error::http(status, NotMcp::message(m_config.url.toString(), status,
                                                                                request.method)))});
                return;
            }
            Error rpc = Error::fromJsonRpcObject(response["error"], request.method, status);
            rpc.setRetryAfterMs(retryAfterMs);
            if (rpc.code() == ErrorCode::UnsupportedProtocolVersion && m_era == Era::Modern
                && request.allowVersionRetry) {
                const json supported = rpc.data().is_object()
                                           ? rpc.data().value("supported", json::array())
                                           : json::array();
                if (listsVersion(supported, kModernVersion)) {
                    // It lists the version we sent: ask once more, with a new id.
                    request.allowVersionRetry = false;
                    send(std::move(request), std::move(done), context);
                    return;
                }
                if (listsVersion(supported, kLegacyVersion)) {
                    setEraInternal(Era::Legacy, true);
                    request.allowVersionRetry = false;
                    send(std::move(request), std::move(done), context);
                    return;
                }
            }
            done({json(), rpc});
            return;
        }
        if (rid == response.end() || *rid != json(id)) {
            done({json(), Error::protocol(tr("The server's answer to %1 has a missing or wrong "
                                             "request id; it cannot be trusted.").arg(request.method))});
            return;
        }
        const auto result = response.find("result");
        if (result == response.end() || !result->is_object()) {
            done({json(), Error::protocol(tr("The server's result for %1 is not a JSON object.")
                                              .arg(request.method))});
            return;
        }
        done({std::move(*result), {}}); // not copied: a status call's result can be large
    };
    return exchange;
}

} // namespace Eddy::Mcp
