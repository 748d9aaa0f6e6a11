#include "app/mcp/client.h"

#include "app/mcp/connection.h"
#include "app/mcp/exchange.h"
#include "app/mcp/headers.h"
#include "app/mcp/legacyinput.h"
#include "app/mcp/streamedcall.h"
#include "app/secret.h"

#include <QDateTime>
#include <QSet>
#include <QTimer>

#include <set>
#include <utility>

Q_LOGGING_CATEGORY(lcMcp, "eddy.mcp")

namespace Eddy::Mcp {

using nlohmann::json;

namespace {

// resultType of a result object: absent means "complete" (pre-2026 servers).
QString resultTypeOf(const json &result)
{
    const auto it = result.find("resultType");
    if (it == result.end())
        return QStringLiteral("complete");
    if (!it->is_string())
        return QStringLiteral("<not a string>");
    return QString::fromStdString(it->get<std::string>());
}

constexpr int kMaxInputRounds = 32;

// The call carries a key the server deduplicates on (eddy-cfd-server's `idempotency_key`, the
// argument Eddy's sweeps fill in), so sending it twice yields one task.
bool hasIdempotencyKey(const json &arguments)
{
    const auto it = arguments.find("idempotency_key");
    return arguments.is_object() && it != arguments.end() && it->is_string()
           && !it->get<std::string>().empty();
}

// A streamed call: timed by a watchdog from the first byte on, not by a total timeout.
void streamable(Connection::Request &request, const CallOptions &options, int configTimeoutMs)
{
    request.onStreamOpened = options.onStreamOpened;
    request.firstByteMs = request.timeoutMs > 0 ? request.timeoutMs : configTimeoutMs;
    request.streamIdleMs = options.streamIdleMs;
    request.timeoutMs = -1; // no total timeout, no slow-transfer floor: the watchdog times it
}

} // namespace

Client::Client(ServerConfig config, Net::HttpClient *http, QObject *parent)
    : QObject(parent)
    , m_config(std::move(config))
    , m_connection(std::make_unique<Connection>(m_config,
                                                http,
                                                this,
                                                Connection::Hooks{&Client::attach,
                                                                  &Client::finishPoll,
                                                                  [this](Era era) {
                                                                      emit eraDetected(era);
                                                                  }}))
    , m_legacy(std::make_unique<LegacyInput>(
          *m_connection, this, LegacyInput::Hooks{&Client::setTaskState, &Client::finishJob}))
{}

// Members go in reverse order: LegacyInput lets its result streams go, then the Connection ends
// every exchange (their callbacks capture this client) and DELETEs the legacy session.
Client::~Client() = default;

void Client::setOAuthSettings(std::shared_ptr<const OAuthSettings> settings)
{
    Connection::setOAuthSettings(std::move(settings));
}

Era Client::era() const
{
    return m_connection->era();
}

void Client::setEra(Era era)
{
    m_connection->setEra(era, false);
}

void Client::clearEraCache()
{
    Connection::clearEraCache();
}

QString Client::protocolVersion() const
{
    return m_connection->protocolVersion();
}

void Client::setQuestionRecord(QuestionRecord record)
{
    m_legacy->setQuestionRecord(std::move(record));
}

qint64 Client::requestsSent() const
{
    return m_connection->requestsSent();
}

QByteArray Client::legacySessionId() const
{
    return m_connection->legacySessionId();
}

void Client::attach(QObject *context, const std::shared_ptr<Exchange> &exchange, qint64 id)
{
    if (auto *job = qobject_cast<Job *>(context)) {
        job->m_abortTarget = exchange;
    } else if (auto *listen = qobject_cast<Listen *>(context)) {
        listen->m_abortTarget = exchange;
        listen->m_requestId = id;
    }
}

void Client::finishPoll(TaskJob *job, TaskState state)
{
    job->m_state = std::move(state);
    job->finish();
}

void Client::setTaskState(TaskJob *job, TaskState state)
{
    job->m_state = std::move(state);
}

void Client::finishJob(Job *job, const Error &error)
{
    job->finish(error);
}

void Client::finishLater(Job *job, const Error &error)
{
    QPointer<Job> guard(job);
    QTimer::singleShot(0, job, [guard, error] {
        if (guard)
            guard->finish(error);
    });
}

DiscoverJob *Client::discover(bool forceRefresh)
{
    auto *job = new DiscoverJob(this);
    QPointer<DiscoverJob> guard(job);
    m_connection->whenReady([this, guard, forceRefresh](const Error &e) {
        if (!guard)
            return;
        if (!e.isOk()) {
            finishLater(guard, e);
            return;
        }
        const std::optional<DiscoverInfo> &discovery = m_connection->discovery();
        const bool fresh = discovery
                           && (m_connection->era() == Era::Legacy
                               || discovery->fetchedAt.addMSecs(discovery->ttlMs)
                                      > QDateTime::currentDateTimeUtc());
        if (discovery && ((fresh && !forceRefresh) || m_connection->era() == Era::Legacy)) {
            guard->m_info = *discovery;
            finishLater(guard);
            return;
        }
        Connection::Request request;
        request.method = QStringLiteral("server/discover");
        m_connection->sendNow(request, [this, guard](Connection::RpcResult r) {
            if (!guard)
                return;
            if (r.error.isOk()) {
                if (!r.result.contains("supportedVersions") || !r.result.contains("capabilities")) {
                    guard->finish(Error::protocol(tr("The server's discover result lacks "
                                                     "supportedVersions or capabilities.")));
                    return;
                }
                guard->m_info = m_connection->adoptDiscoverResult(r.result);
            }
            guard->finish(r.error);
        }, guard.data());
    });
    return job;
}

ToolsJob *Client::listTools()
{
    auto *job = new ToolsJob(this);
    QPointer<ToolsJob> guard(job);
    auto collected = std::make_shared<json>(json::array());
    auto cursors = std::make_shared<std::set<std::string>>(); // every nextCursor seen so far
    auto page = std::make_shared<std::function<void(json)>>();
    *page = [this, guard, collected, cursors, page](json cursor) {
        Connection::Request request;
        request.method = QStringLiteral("tools/list");
        if (!cursor.is_null())
            request.params["cursor"] = cursor;
        m_connection->send(
            request,
            [this, guard, collected, cursors, page](Connection::RpcResult r) {
                if (!guard)
                    return;
                if (!r.error.isOk()) {
                    guard->finish(r.error);
                    *page = nullptr;
                    return;
                }
                const QString rt = resultTypeOf(r.result);
                const auto tools = r.result.find("tools");
                if (rt != QLatin1String("complete") || tools == r.result.end()
                    || !tools->is_array()) {
                    guard->finish(Error::protocol(
                        tr("The server's tools/list result is invalid "
                           "(resultType \"%1\", tools %2).")
                            .arg(rt, tools == r.result.end() ? tr("missing") : tr("not a list"))));
                    *page = nullptr;
                    return;
                }
                for (const json &t : *tools)
                    collected->push_back(t);
                const auto next = r.result.find("nextCursor");
                if (next != r.result.end() && next->is_string() && !next->get<std::string>().empty()
                    && collected->size() < 100000) {
                    if (!cursors->insert(next->get<std::string>()).second
                        || cursors->size() > 1000) {
                        // A cursor seen before (or a thousand pages): the list would never end.
                        guard->finish(Error::protocol(
                            tr("The server's tools/list pages loop: it sent the "
                               "cursor \"%1\" again after %2 pages; ask its "
                               "operator to fix its pagination.")
                                .arg(QString::fromStdString(next->get<std::string>()).left(80))
                                .arg(cursors->size())));
                        *page = nullptr;
                        return;
                    }
                    auto again = *page;
                    again(*next);
                    return;
                }
                addTools(*collected, guard);
                guard->finish();
                *page = nullptr;
            },
            guard.data());
    };
    (*page)(json());
    return job;
}

void Client::addTools(const json &list, ToolsJob *job)
{
    std::vector<Tool> tools;
    QSet<QString> names;
    for (const json &entry : list) {
        Tool tool;
        QString why;
        if (Tool::fromJson(entry, &tool, &why)) {
            if (!names.contains(tool.name)) {
                names.insert(tool.name);
                tools.push_back(std::move(tool));
                continue;
            }
            why = tr("tools/list lists the tool \"%1\" more than once; Eddy keeps the first.").arg(tool.name);
        }
        qCWarning(lcMcp) << "tools/list:" << why;
        job->m_rejected << why;
        emit warning(why);
    }
    m_tools = tools;
    job->m_tools = std::move(tools);
}

const Tool *Client::findTool(const QString &name) const
{
    for (const Tool &tool : m_tools)
        if (tool.name == name)
            return &tool;
    return nullptr;
}

CallJob *Client::callTool(const QString &name, const json &arguments, CallOptions options)
{
    auto *job = new CallJob(this);
    QPointer<CallJob> guard(job);
    auto opts = std::make_shared<CallOptions>(std::move(options));
    m_connection->whenReady([this, guard, name, arguments, opts](const Error &e) {
        if (!guard)
            return;
        if (!e.isOk()) {
            finishLater(guard, e);
            return;
        }
        if (m_connection->era() == Era::Legacy)
            legacyCall(guard, name, arguments, opts);
        else
            runCall(guard, name, arguments, opts, opts->resumeInputResponses,
                    opts->resumeRequestState, false,
                    opts->resumeRequestState.is_null() && opts->resumeInputResponses.is_null() ? 0 : 1);
    });
    return job;
}

void Client::runCall(CallJob *job,
                     QString name,
                     json arguments,
                     std::shared_ptr<CallOptions> opts,
                     json inputResponses,
                     json requestState,
                     bool relisted,
                     int round,
                     bool resent)
{
    QPointer<CallJob> guard(job);
    Connection::Request request;
    request.method = QStringLiteral("tools/call");
    request.mcpName = name.toUtf8();
    request.traceparent = opts->traceparent;
    request.timeoutMs = opts->timeoutMs;
    request.onNotification = opts->onNotification;
    request.params = {{"name", name.toStdString()}, {"arguments", arguments}};
    request.params["_meta"] = {{"progressToken", newProgressToken()}};
    if (opts->onStreamOpened && !mayMakeTask(name))
        streamable(request, *opts, m_config.timeoutMs);
    if (!inputResponses.is_null())
        request.params["inputResponses"] = inputResponses;
    if (!requestState.is_null())
        request.params["requestState"] = requestState; // echoed exactly as received
    if (const Tool *tool = findTool(name)) {
        QString why;
        if (!Headers::paramHeaders(tool->headerParams, arguments, &request.extraHeaders, &why)) {
            finishLater(job, Error::protocol(tr("Cannot call %1: %2").arg(name, why)));
            return;
        }
    }
    m_connection->sendNow(
        request,
        [this, guard, name, arguments, opts, inputResponses, requestState, relisted, round, resent](
            Connection::RpcResult r) {
            if (!guard)
                return;
            if (!r.error.isOk() && r.error.isStreamDropped() && !resent
                && hasIdempotencyKey(arguments)) {
                // Spec: a broken stream means re-issuing the request with a new id. With an
                // idempotency key the server hands back the task the first attempt created (if it
                // did), so one silent re-send cannot start a second simulation.
                qCInfo(lcMcp) << "the event stream of tools/call" << name
                              << "dropped before the answer; sending it again once (idempotent)";
                runCall(guard,
                        name,
                        arguments,
                        opts,
                        inputResponses,
                        requestState,
                        relisted,
                        round,
                        true);
                return;
            }
            if (!r.error.isOk()) {
                if (r.error.kind() == Error::Kind::JsonRpc
                    && r.error.code() == ErrorCode::HeaderMismatch && !relisted) {
                    // The tool's x-mcp-header set may have changed: re-list once and retry.
                    ToolsJob *relist = listTools();
                    connect(
                        relist, &Job::finished, guard.data(), [this, guard, name, arguments, opts] {
                            if (guard)
                                runCall(guard, name, arguments, opts, json(), json(), true, 0);
                        });
                    return;
                }
                guard->finish(r.error);
                return;
            }
            const QString rt = resultTypeOf(r.result);
            if (rt == QLatin1String("complete")) {
                guard->m_kind = CallJob::Kind::Complete;
                guard->m_callResult = std::move(r.result);
                guard->finish();
                return;
            }
            if (rt == QLatin1String("task")) {
                QString why;
                TaskState state = TaskState::parse(
                    r.result, Era::Modern, TaskState::Source::CreateResult, &why);
                if (!state.isValid()) {
                    guard->finish(Error::protocol(
                        tr("The server's task handle for %1 is invalid: %2").arg(name, why)));
                    return;
                }
                qCDebug(lcMcp) << "task created" << redactSecret(state.taskId)
                               << toString(state.status);
                guard->m_kind = CallJob::Kind::Task;
                guard->m_task = state;
                guard->finish();
                return;
            }
            if (rt == QLatin1String("input_required")) {
                const json requests = r.result.value("inputRequests", json());
                const json state = r.result.value("requestState", json());
                if (round >= kMaxInputRounds) {
                    guard->finish(
                        Error::protocol(tr("The server asked for input on %1 more than %2 "
                                           "times in a row; giving up.")
                                            .arg(name)
                                            .arg(kMaxInputRounds)));
                    return;
                }
                if (!requests.is_object() && state.is_null()) {
                    guard->finish(Error::protocol(tr("The server's input_required answer to %1 has "
                                                     "neither inputRequests nor requestState.")
                                                      .arg(name)));
                    return;
                }
                if (opts->onInputRequired)
                    opts->onInputRequired(state, requests.is_object() ? requests : json());
                if (!guard)
                    return;
                if (!requests.is_object() || requests.empty()) {
                    runCall(guard, name, arguments, opts, json(), state, relisted, round + 1);
                    return;
                }
                if (!opts->inputHandler) {
                    guard->finish(Error::protocol(tr("The tool %1 asked for input before starting, "
                                                     "but nothing can answer it here.")
                                                      .arg(name)));
                    return;
                }
                auto answered = std::make_shared<bool>(false);
                opts->inputHandler(
                    requests,
                    [this, guard, name, arguments, opts, state, relisted, round, answered](
                        json responses) {
                        if (!guard || *answered)
                            return;
                        *answered = true;
                        runCall(guard,
                                name,
                                arguments,
                                opts,
                                std::move(responses),
                                state,
                                relisted,
                                round + 1);
                    });
                return;
            }
            guard->finish(Error::protocol(
                tr("The server answered %1 with an unknown resultType \"%2\".").arg(name, rt)));
        },
        guard.data());
}

void Client::legacyCall(CallJob *job, QString name, json arguments, std::shared_ptr<CallOptions> opts)
{
    QPointer<CallJob> guard(job);
    auto proceed = [this, guard, name, arguments, opts] {
        if (!guard)
            return;
        const Tool *tool = findTool(name);
        const bool augment = m_connection->discovery() && m_connection->discovery()->offersTasks()
                             && tool && tool->taskSupport() != QLatin1String("forbidden");
        Connection::Request request;
        request.method = QStringLiteral("tools/call");
        request.traceparent = opts->traceparent;
        request.timeoutMs = opts->timeoutMs;
        request.onNotification = opts->onNotification;
        request.params = {{"name", name.toStdString()}, {"arguments", arguments}};
        request.params["_meta"] = {{"progressToken", newProgressToken()}};
        if (augment)
            request.params["task"] = json::object();
        else if (opts->onStreamOpened)
            streamable(request, *opts, m_config.timeoutMs);
        m_connection->sendNow(request, [guard, name, augment](Connection::RpcResult r) {
            if (!guard)
                return;
            if (!r.error.isOk()) {
                guard->finish(r.error);
                return;
            }
            const auto task = r.result.find("task");
            if (task != r.result.end() && task->is_object()) {
                if (!augment) {
                    guard->finish(Error::protocol(tr("The server made a task for %1 although Eddy "
                                                     "did not ask for one.").arg(name)));
                    return;
                }
                QString why;
                TaskState state = TaskState::parse(r.result, Era::Legacy, TaskState::Source::CreateResult, &why);
                if (!state.isValid()) {
                    guard->finish(Error::protocol(tr("The server's task handle for %1 is invalid: %2")
                                                      .arg(name, why)));
                    return;
                }
                guard->m_kind = CallJob::Kind::Task;
                guard->m_task = state;
                guard->finish();
                return;
            }
            guard->m_kind = CallJob::Kind::Complete;
            guard->m_callResult = std::move(r.result);
            guard->finish();
        }, guard.data());
    };
    if (m_tools.empty()) {
        ToolsJob *list = listTools();
        connect(list, &Job::finished, job, proceed);
    } else {
        proceed();
    }
}

// Cancelling a tools/call in flight that is not a task (a streamed call). Tasks are cancelled
// with tasks/cancel instead (never notifications/cancelled: the Tasks extension forbids it).

void Client::cancelCall(CallJob *job,
                        const QString &reason,
                        std::function<void(const Error &)> done,
                        int notifyTimeoutMs)
{
    const auto report = [done](const Error &e) {
        if (done)
            done(e);
    };
    if (!job || job->isFinished()) {
        report({});
        return;
    }
    const auto exchange = std::dynamic_pointer_cast<Exchange>(job->m_abortTarget.lock());
    // 2026-07-28 (and an exchange not sent yet): closing the response stream is cancellation.
    if (m_connection->era() != Era::Legacy || !exchange || exchange->done
        || exchange->requestId.is_null()) {
        job->abort();
        report({});
        return;
    }
    // 2025-11-25: a disconnect is not cancellation; the server is told which request to stop,
    // then the stream is closed (the server ends it itself once it has stopped the run).
    qCInfo(lcMcp) << "cancelling" << exchange->method << "request" << exchange->requestId.dump().c_str()
                  << "with notifications/cancelled";
    QPointer<CallJob> guard(job);
    auto closed = std::make_shared<bool>(false);
    const auto close = [guard, closed, report](const Error &e) {
        if (std::exchange(*closed, true))
            return;
        if (guard)
            guard->abort();
        report(e);
    };
    Connection::Request note;
    note.method = QStringLiteral("notifications/cancelled");
    note.allowReinit = false;
    note.allowVersionRetry = false;
    m_connection->post(note,
         json{{"jsonrpc", "2.0"},
              {"method", "notifications/cancelled"},
              {"params",
               {{"requestId", exchange->requestId}, {"reason", reason.toStdString()}}}},
         [close](const json &, const Error &e, int, qint64) {
             if (!e.isOk())
                 qCWarning(lcMcp).noquote()
                     << "notifications/cancelled was not taken:" << e.message();
             close(e);
         });
    QTimer::singleShot(notifyTimeoutMs, this, [close] {
        close(Error::timeout(tr("The server did not take notifications/cancelled in time; Eddy "
                                "closed the stream.")));
    });
}

// Streamed calls: a tools/call that cannot become a task may be answered as a long SSE stream
// (timed by a watchdog, not a total timeout), and its stream is resumed when it drops.

bool Client::mayMakeTask(const QString &name) const
{
    if (m_connection->discovery() && !m_connection->discovery()->offersTasks())
        return false;
    const Tool *tool = findTool(name);
    // Unknown tool on a server that may offer tasks: the call is sent as before (task-capable).
    return !tool || tool->taskSupport() != QLatin1String("forbidden");
}

TaskJob *Client::getTask(const std::string &taskId, const QByteArray &traceparent)
{
    auto *job = new TaskJob(this);
    QPointer<TaskJob> guard(job);
    Connection::Request request;
    request.method = QStringLiteral("tasks/get");
    request.mcpName = QByteArray::fromStdString(taskId);
    request.isPoll = true; // params built only if the full path needs them
    request.pollJob = guard;
    request.traceparent = traceparent;
    // The id for the checks below shares the Mcp-Name bytes: no copy of it per poll.
    const QByteArray idBytes = request.mcpName;
    m_connection->send(
        std::move(request),
        [this, guard, taskId = idBytes](Connection::RpcResult r) {
            if (!guard)
                return;
            if (!r.error.isOk()) {
                guard->finish(r.error);
                return;
            }
            const QString rt = resultTypeOf(r.result);
            // "task" is tolerated here: the extension's own examples show it on tasks/get.
            if (rt != QLatin1String("complete") && rt != QLatin1String("task")) {
                guard->finish(Error::protocol(
                    tr("The server answered tasks/get with resultType \"%1\".").arg(rt)));
                return;
            }
            QString why;
            TaskState state = TaskState::parse(
                r.result, m_connection->era(), TaskState::Source::GetResult, &why);
            if (!state.isValid()
                || std::string_view(state.taskId)
                       != std::string_view(taskId.constData(), size_t(taskId.size()))) {
                Error e = Error::protocol(
                    tr("The server's tasks/get answer is invalid: %1")
                        .arg(state.isValid() ? tr("it is about another task") : why));
                e.setAboutAnotherTask(state.isValid());
                guard->finish(e);
                return;
            }
            if (m_connection->era() == Era::Legacy
                && (state.status == TaskStatus::InputRequired
                    || (state.isTerminal() && state.status != TaskStatus::Cancelled))) {
                m_legacy->fetchPayload(guard, std::move(state));
                return;
            }
            guard->m_state = std::move(state);
            guard->finish();
        },
        job);
    return job;
}

AckJob *Client::updateTask(const std::string &taskId,
                           const json &inputResponses,
                           const QByteArray &traceparent)
{
    auto *job = new AckJob(this);
    QPointer<AckJob> guard(job);
    if (!inputResponses.is_object() || inputResponses.empty()) {
        finishLater(job, Error::protocol(tr("tasks/update needs at least one input response.")));
        return job;
    }
    m_connection->whenReady([this, guard, taskId, inputResponses, traceparent](const Error &e) {
        if (!guard)
            return;
        if (!e.isOk()) {
            Error why = e;
            if (m_connection->era() == Era::Legacy && e.kind() == Error::Kind::Protocol) {
                // No session to answer in: the question comes back under a new request id.
                m_legacy->forgetTask(taskId);
                why.setPollFirst(true);
            }
            finishLater(guard, why);
            return;
        }
        if (m_connection->era() == Era::Legacy) {
            m_legacy->respond(guard, taskId, inputResponses);
            return;
        }
        Connection::Request request;
        request.method = QStringLiteral("tasks/update");
        request.mcpName = QByteArray::fromStdString(taskId);
        request.params = {{"taskId", taskId}, {"inputResponses", inputResponses}};
        request.traceparent = traceparent;
        m_connection->sendNow(request, [guard](Connection::RpcResult r) {
            if (!guard)
                return;
            if (r.error.isOk()) {
                const QString rt = resultTypeOf(r.result);
                if (rt == QLatin1String("task"))
                    r.error = Error::protocol(tr("The server answered tasks/update with a task "
                                                 "(CreateTaskResult), which only tools/call may "
                                                 "return; the answer was ignored."));
                else if (rt != QLatin1String("complete"))
                    r.error = Error::protocol(tr("The server answered tasks/update with resultType "
                                                 "\"%1\".").arg(rt));
            }
            guard->finish(r.error);
        }, guard.data());
    });
    return job;
}

void Client::forgetTask(const std::string &taskId)
{
    m_legacy->forgetTask(taskId);
}

AckJob *Client::cancelTask(const std::string &taskId, const QByteArray &traceparent)
{
    auto *job = new AckJob(this);
    QPointer<AckJob> guard(job);
    Connection::Request request;
    request.method = QStringLiteral("tasks/cancel");
    request.mcpName = QByteArray::fromStdString(taskId);
    request.params = {{"taskId", taskId}};
    request.traceparent = traceparent;
    m_connection->send(request, [this, guard](Connection::RpcResult r) {
        if (!guard)
            return;
        if (r.error.isOk()) {
            const QString rt = resultTypeOf(r.result);
            if (rt == QLatin1String("task")) {
                r.error = Error::protocol(tr("The server answered tasks/cancel with a task "
                                             "(CreateTaskResult), which only tools/call may return."));
            } else if (rt != QLatin1String("complete")) {
                r.error = Error::protocol(tr("The server answered tasks/cancel with resultType "
                                             "\"%1\".").arg(rt));
            } else if (m_connection->era() == Era::Legacy || r.result.contains("taskId")) {
                guard->m_state
                    = TaskState::parse(r.result, m_connection->era(), TaskState::Source::GetResult);
            }
        }
        guard->finish(r.error);
    }, job);
    return job;
}

Listen *Client::listen(std::vector<std::string> taskIds)
{
    auto *listen = new Listen(taskIds);
    QPointer<Listen> guard(listen);
    m_connection->whenReady([this, guard, taskIds](const Error &e) {
        if (!guard)
            return;
        if (!e.isOk() || m_connection->era() == Era::Legacy) {
            const Error why = e.isOk() ? Error::protocol(tr("This server speaks 2025-11-25, which "
                                                            "has no subscriptions/listen; poll "
                                                            "instead."))
                                       : e;
            QTimer::singleShot(0, guard.data(), [guard, why] {
                if (guard)
                    guard->finish(why);
            });
            return;
        }
        Connection::Request request;
        request.method = QStringLiteral("subscriptions/listen");
        request.params = {{"notifications", {{"taskIds", taskIds}}}};
        request.timeoutMs = -1;
        request.onNotification = [guard](const json &message) {
            if (guard)
                guard->handleMessage(message);
        };
        m_connection->sendNow(request, [guard](Connection::RpcResult r) {
            if (guard)
                guard->finish(r.error);
        }, guard.data());
    });
    return listen;
}

} // namespace Eddy::Mcp
