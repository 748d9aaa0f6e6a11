#include "app/mcp/client.h"
#include "app/mcp/client_p.h"

namespace Eddy::Mcp {

DiscoverJob *Client::discover(bool forceRefresh)
{
    auto *job = new DiscoverJob(this);
    QPointer<DiscoverJob> guard(job);
    whenReady([this, guard, forceRefresh](const Error &e) {
        if (!guard)
            return;
        if (!e.isOk()) {
            finishLater(guard, e);
            return;
        }
        const bool fresh = m_discovery
                           && (m_era == Era::Legacy
                               || m_discovery->fetchedAt.addMSecs(m_discovery->ttlMs)
                                      > QDateTime::currentDateTimeUtc());
        if (m_discovery && ((fresh && !forceRefresh) || m_era == Era::Legacy)) {
            guard->m_info = *m_discovery;
            finishLater(guard);
            return;
        }
        Request request;
        request.method = QStringLiteral("server/discover");
        sendNow(request, [this, guard](RpcResult r) {
            if (!guard)
                return;
            if (r.error.isOk()) {
                if (!r.result.contains("supportedVersions") || !r.result.contains("capabilities")) {
                    guard->finish(Error::protocol(tr("The server's discover result lacks "
                                                     "supportedVersions or capabilities.")));
                    return;
                }
                m_discovery = discoverInfoFromResult(r.result);
                guard->m_info = *m_discovery;
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
        Request request;
        request.method = QStringLiteral("tools/list");
        if (!cursor.is_null())
            request.params["cursor"] = cursor;
        send(request, [this, guard, collected, cursors, page](RpcResult r) {
            if (!guard)
                return;
            if (!r.error.isOk()) {
                guard->finish(r.error);
                *page = nullptr;
                return;
            }
            const QString rt = resultTypeOf(r.result);
            const auto tools = r.result.find("tools");
            if (rt != QLatin1String("complete") || tools == r.result.end() || !tools->is_array()) {
                guard->finish(Error::protocol(tr("The server's tools/list result is invalid "
                                                 "(resultType \"%1\", tools %2).")
                                                  .arg(rt, tools == r.result.end() ? tr("missing")
                                                                                   : tr("not a list"))));
                *page = nullptr;
                return;
            }
            for (const json &t : *tools)
                collected->push_back(t);
            const auto next = r.result.find("nextCursor");
            if (next != r.result.end() && next->is_string() && !next->get<std::string>().empty()
                && collected->size() < 100000) {
                if (!cursors->insert(next->get<std::string>()).second || cursors->size() > 1000) {
                    // A cursor seen before (or a thousand pages): the list would never end.
                    guard->finish(Error::protocol(tr("The server's tools/list pages loop: it sent the "
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
        }, guard.data());
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
    whenReady([this, guard, name, arguments, opts](const Error &e) {
        if (!guard)
            return;
        if (!e.isOk()) {
            finishLater(guard, e);
            return;
        }
        if (m_era == Era::Legacy)
            legacyCall(guard, name, arguments, opts);
        else
            runCall(guard, name, arguments, opts, opts->resumeInputResponses,
                    opts->resumeRequestState, false,
                    opts->resumeRequestState.is_null() && opts->resumeInputResponses.is_null() ? 0 : 1);
    });
    return job;
}

void Client::runCall(CallJob *job, QString name, json arguments, std::shared_ptr<CallOptions> opts,
                     json inputResponses, json requestState, bool relisted, int round, bool resent)
{
    QPointer<CallJob> guard(job);
    Request request;
    request.method = QStringLiteral("tools/call");
    request.mcpName = name.toUtf8();
    request.traceparent = opts->traceparent;
    request.timeoutMs = opts->timeoutMs;
    request.onNotification = opts->onNotification;
    request.params = {{"name", name.toStdString()}, {"arguments", arguments}};
    request.params["_meta"] = {{"progressToken", newProgressToken()}};
    if (opts->onStreamOpened && !mayMakeTask(name))
        streamable(request, *opts);
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
    sendNow(request, [this, guard, name, arguments, opts, inputResponses, requestState, relisted,
                      round, resent](RpcResult r) {
        if (!guard)
            return;
        if (!r.error.isOk() && r.error.isStreamDropped() && !resent && hasIdempotencyKey(arguments)) {
            // Spec: a broken stream means re-issuing the request with a new id. With an
            // idempotency key the server hands back the task the first attempt created (if it
            // did), so one silent re-send cannot start a second simulation.
            qCInfo(lcMcp) << "the event stream of tools/call" << name
                          << "dropped before the answer; sending it again once (idempotent)";
            runCall(guard, name, arguments, opts, inputResponses, requestState, relisted, round, true);
            return;
        }
        if (!r.error.isOk()) {
            if (r.error.kind() == Error::Kind::JsonRpc && r.error.code() == ErrorCode::HeaderMismatch
                && !relisted) {
                // The tool's x-mcp-header set may have changed: re-list once and retry.
                ToolsJob *relist = listTools();
                connect(relist, &Job::finished, guard.data(), [this, guard, name, arguments, opts] {
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
            TaskState state = TaskState::parse(r.result, Era::Modern, TaskState::Source::CreateResult, &why);
            if (!state.isValid()) {
                guard->finish(Error::protocol(tr("The server's task handle for %1 is invalid: %2")
                                                  .arg(name, why)));
                return;
            }
            qCDebug(lcMcp) << "task created" << redactSecret(state.taskId) << toString(state.status);
            guard->m_kind = CallJob::Kind::Task;
            guard->m_task = state;
            guard->finish();
            return;
        }
        if (rt == QLatin1String("input_required")) {
            const json requests = r.result.value("inputRequests", json());
            const json state = r.result.value("requestState", json());
            if (round >= kMaxInputRounds) {
                guard->finish(Error::protocol(tr("The server asked for input on %1 more than %2 "
                                                 "times in a row; giving up.").arg(name).arg(kMaxInputRounds)));
                return;
            }
            if (!requests.is_object() && state.is_null()) {
                guard->finish(Error::protocol(tr("The server's input_required answer to %1 has "
                                                 "neither inputRequests nor requestState.").arg(name)));
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
                                                 "but nothing can answer it here.").arg(name)));
                return;
            }
            auto answered = std::make_shared<bool>(false);
            opts->inputHandler(requests, [this, guard, name, arguments, opts, state, relisted,
                                          round, answered](json responses) {
                if (!guard || *answered)
                    return;
                *answered = true;
                runCall(guard, name, arguments, opts, std::move(responses), state, relisted, round + 1);
            });
            return;
        }
        guard->finish(Error::protocol(tr("The server answered %1 with an unknown resultType \"%2\".")
                                          .arg(name, rt)));
    }, guard.data());
}

void Client::legacyCall(CallJob *job, QString name, json arguments, std::shared_ptr<CallOptions> opts)
{
    QPointer<CallJob> guard(job);
    auto proceed = [this, guard, name, arguments, opts] {
        if (!guard)
            return;
        const Tool *tool = findTool(name);
        const bool augment = m_discovery && m_discovery->offersTasks() && tool
                             && tool->taskSupport() != QLatin1String("forbidden");
        Request request;
        request.method = QStringLiteral("tools/call");
        request.traceparent = opts->traceparent;
        request.timeoutMs = opts->timeoutMs;
        request.onNotification = opts->onNotification;
        request.params = {{"name", name.toStdString()}, {"arguments", arguments}};
        request.params["_meta"] = {{"progressToken", newProgressToken()}};
        if (augment)
            request.params["task"] = json::object();
        else if (opts->onStreamOpened)
            streamable(request, *opts);
        sendNow(request, [guard, name, augment](RpcResult r) {
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

} // namespace Eddy::Mcp
