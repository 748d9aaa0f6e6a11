#include "app/mcp/client.h"
#include "app/mcp/client_p.h"

// Cancelling a tools/call in flight that is not a task (a streamed call). Tasks are cancelled
// with tasks/cancel instead (never notifications/cancelled: the Tasks extension forbids it).

namespace Eddy::Mcp {

void Client::cancelCall(CallJob *job, const QString &reason,
                        std::function<void(const Error &)> done, int notifyTimeoutMs)
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
    if (m_era != Era::Legacy || !exchange || exchange->done || exchange->requestId.is_null()) {
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
    Request note;
    note.method = QStringLiteral("notifications/cancelled");
    note.allowReinit = false;
    note.allowVersionRetry = false;
    post(note,
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

} // namespace Eddy::Mcp
