// Cancel of a streamed call (a tools/call answered as an SSE stream, pattern "streamed"): the
// call has no handle the server could cancel by, so Eddy ends the request itself, as the MCP
// era of the server defines it (Client::cancelCall): 2026-07-28 closes the stream, which is
// cancellation; 2025-11-25 sends notifications/cancelled with the call's request id first. The
// row ends "cancelled" when the call ends (Engine::streamFinished), whatever ended the stream.
#include "app/mcp/client.h"
#include "app/monitor/engine.h"
#include "app/monitor/engine_p.h"
#include "app/monitor/log.h"
#include "app/monitor/streamedtasks.h"

namespace Eddy::Monitor {

void Engine::cancelStreamed(const Store::TaskRecord &t)
{
    const qint64 id = t.id;
    qint64 caseId = 0;
    for (auto it = m_streamed.cbegin(); it != m_streamed.cend(); ++it) {
        if (it->task.id == id) {
            caseId = it.key();
            break;
        }
    }
    const auto it = m_streamed.find(caseId);
    ServerLink *l = link(t.serverId);
    if (it == m_streamed.end() || !it->job || !l) {
        // Only the process holding the stream can end it (another Eddy window, eddyctl call).
        const QString msg = QStringLiteral("Task %1 is a streamed call whose stream this Eddy does "
                                           "not hold; cancel it in the Eddy or eddyctl that "
                                           "started it (its row says so once that one ends).")
                                .arg(id);
        emit operationFailed(msg);
        emit cancelSent(id, false, msg);
        return;
    }
    if (it->cancelling)
        return;
    it->cancelling = true;
    it->task.cancelRequested = true;
    m_store.setCancelRequested(id);
    queueChange(it->task);
    qCInfo(lcMonitor, "task %lld: cancelling its streamed call", id);
    ++m_answersInFlight; // the engine is not idle until the call has ended
    // The client it was sent through: a retired one when the server's URL changed since.
    auto *client = qobject_cast<Mcp::Client *>(it->job->parent());
    (client ? client : l->client)
        ->cancelCall(it->job,
                     QStringLiteral("Cancelled by the user in Eddy"),
                     [this, id](const Mcp::Error &e) {
                         --m_answersInFlight;
                         if (!e.isOk())
                             qCWarning(lcMonitor, "task %lld: %s", id, qPrintable(e.message()));
                         emit cancelSent(id, true, {});
                         checkIdle();
                     });
}

} // namespace Eddy::Monitor
