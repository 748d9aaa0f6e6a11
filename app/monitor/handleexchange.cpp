#include "app/monitor/handleexchange.h"
#include "app/monitor/engine_p.h"
#include "app/monitor/taskhandle.h"

namespace Eddy::Monitor {

HandleExchange::HandleExchange(Engine &hub)
    : m_hub(hub)
{
}

HandleImportReport HandleExchange::importHandles(const QByteArray &fileContent,
                                                 const QString &sessionName,
                                                 const QString &serverUrl)
{
    using Outcome = HandleImportReport::Line::Outcome;
    HandleImportReport report;
    if (!m_hub.isOpen()) {
        report.fileError = TaskHandle::tr("the task store is not open");
        return report;
    }
    const QList<TaskHandle::FileEntry> entries
        = TaskHandle::parseFile(fileContent, &report.fileError);
    if (!report.fileError.isEmpty())
        return report;

    // Eddy's endpoint id of every known server, plus the one the user offers to add.
    QHash<QString, Store::ServerRecord> byEndpoint;
    for (const Store::ServerRecord &s : m_hub.m_store.servers())
        byEndpoint.insert(TaskHandle::endpointIdForServer(s.url), s);
    const QString offeredEndpoint
        = serverUrl.isEmpty() ? QString() : TaskHandle::endpointIdForServer(serverUrl);
    std::optional<qint64> sessionId;
    const qint64 now = nowMs();
    for (const TaskHandle::FileEntry &e : entries) {
        HandleImportReport::Line line;
        line.line = e.line;
        if (!e.reference) {
            line.message = e.error;
            report.lines << line;
            continue;
        }
        const TaskHandle::Reference &ref = *e.reference;
        auto server = byEndpoint.constFind(ref.endpointId);
        if (server == byEndpoint.constEnd() && !offeredEndpoint.isEmpty()
            && ref.endpointId == offeredEndpoint) {
            const qint64 id = m_hub.addServer(serverUrl);
            if (auto added = id >= 0 ? m_hub.m_store.server(id) : std::nullopt) {
                server = byEndpoint.insert(ref.endpointId, *added);
            } else {
                line.message = TaskHandle::tr("cannot add the server %1: %2")
                                   .arg(serverUrl, m_hub.m_store.lastError());
                report.lines << line;
                continue;
            }
        }
        if (server == byEndpoint.constEnd()) {
            const QString ns = ref.endpointId.section(QLatin1Char(':'), 0, -4);
            if (ns != QLatin1String(TaskHandle::s_namespace))
                line.message = TaskHandle::tr("the endpoint namespace is \"%1\", not Eddy's "
                                              "\"%2\": the requester that wrote it must "
                                              "name its endpoint with "
                                              "createTaskSessionEndpointId(\"%2\", {\"transport\": "
                                              "\"streamable-http\", \"url\": SERVER_URL})")
                                   .arg(ns.left(60), QLatin1String(TaskHandle::s_namespace));
            else if (!serverUrl.isEmpty())
                line.message
                    = TaskHandle::tr(
                          "the endpoint is not %1 (that URL's endpoint id is %2) nor any server "
                          "Eddy knows; "
                          "give the server URL the requester connected to, exactly as it wrote it")
                          .arg(serverUrl, offeredEndpoint);
            else
                line.message = TaskHandle::tr("the endpoint %1 is none of the %n server(s) Eddy "
                                              "knows; add the server the task "
                                              "runs on: eddyctl handles import FILE --server URL "
                                              "(the URL the requester connected to)",
                                              nullptr,
                                              int(byEndpoint.size()))
                                   .arg(ref.endpointId);
            report.lines << line;
            continue;
        }
        const Mcp::Era era = Mcp::eraFromString(server->era);
        if (era != Mcp::Era::Unknown && TaskHandle::generationForEra(era) != ref.generation) {
            line.message
                = TaskHandle::tr("generation %1 does not match the server %2, which speaks %3 "
                                 "(generation %4)")
                      .arg(ref.generation,
                           server->url,
                           QLatin1String(era == Mcp::Era::Legacy ? Mcp::kLegacyVersion
                                                                 : Mcp::kModernVersion),
                           TaskHandle::generationForEra(era));
            report.lines << line;
            continue;
        }
        Store::TaskRecord t;
        t.serverId = server->id;
        t.serverTaskId = ref.taskId;
        t.status = Store::TaskStatus::Working;
        t.statusMessage = TaskHandle::tr("handed over by another client");
        t.nextPollAtMs = now;
        bool existed = false;
        const auto id = m_hub.m_store.importTask(t, &existed);
        if (!id) {
            line.message = m_hub.m_store.lastError();
            report.lines << line;
            continue;
        }
        line.taskId = *id;
        line.outcome = existed ? Outcome::Known : Outcome::Imported;
        report.lines << line;
        if (existed)
            continue; // a second import changes nothing
        if (!sessionName.isEmpty()) {
            if (!sessionId) {
                if (auto s = m_hub.m_store.sessionByName(sessionName))
                    sessionId = s->id;
                else if (auto created = m_hub.m_store.createSession(sessionName))
                    sessionId = *created;
            }
            if (sessionId)
                m_hub.m_store.attachTask(*sessionId, *id);
        }
        qCInfo(lcMonitor,
               "task %lld: imported a handle (%s) of server %lld",
               *id,
               qPrintable(TaskHandle::redacted(ref.taskId)),
               server->id);
        if (auto stored = m_hub.m_store.task(*id)) {
            m_hub.m_feed.queueChange(*stored);
            if (m_hub.m_monitoring)
                m_hub.follow(*stored, now);
        }
    }
    m_hub.armPollTimer();
    m_hub.checkIdle();
    return report;
}

HandleExport HandleExchange::exportHandles(const Store::TaskQuery &query,
                                           const QList<qint64> &taskIds,
                                           const QString &sessionName)
{
    HandleExport out;
    if (!m_hub.isOpen()) {
        out.error = TaskHandle::tr("the task store is not open");
        return out;
    }
    Store::TaskQuery q = query;
    if (!sessionName.isEmpty()) {
        const auto session = m_hub.m_store.sessionByName(sessionName);
        if (!session) {
            out.error = TaskHandle::tr("there is no session \"%1\" (eddyctl sessions lists them)")
                            .arg(sessionName);
            return out;
        }
        q.sessionId = session->id;
    }
    QHash<qint64, std::optional<Store::ServerRecord>> servers;
    const QList<Store::TaskRecord> tasks = m_hub.m_store.tasks(q);
    for (const Store::TaskRecord &t : tasks) {
        if (!taskIds.isEmpty() && !taskIds.contains(t.id))
            continue;
        if (t.serverTaskId.isEmpty()) {
            out.skipped << TaskHandle::tr(
                               "task %1: the server answered at once; there is no task to "
                               "resume")
                               .arg(t.id);
            continue;
        }
        if (t.status == Store::TaskStatus::Lost || t.status == Store::TaskStatus::Expired) {
            out.skipped << TaskHandle::tr("task %1: %2; the server no longer has it")
                               .arg(t.id)
                               .arg(Store::toText(t.status));
            continue;
        }
        if (!servers.contains(t.serverId))
            servers.insert(t.serverId, m_hub.m_store.server(t.serverId));
        const auto &server = servers[t.serverId];
        if (!server) {
            out.skipped << TaskHandle::tr("task %1: its server is no longer configured").arg(t.id);
            continue;
        }
        TaskHandle::Reference ref;
        ref.endpointId = TaskHandle::endpointIdForServer(server->url);
        ref.generation = TaskHandle::generationForEra(Mcp::eraFromString(server->era));
        ref.taskId = t.serverTaskId;
        ref.originalOperation = QStringLiteral("tools/call");
        out.jsonLines += QByteArray::fromStdString(ref.toJson().dump()) + '\n';
        ++out.count;
    }
    return out;
}

} // namespace Eddy::Monitor
