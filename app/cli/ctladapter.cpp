// eddyctl adapter show URL / adapter set URL FILE: the job adapter stored with a server (or the
// one Eddy proposes from its tools), as JSON in the format of docs/eddyctl.md "Job adapters".
#include "app/cli/ctl.h"
#include "app/cli/ctl_p.h"

namespace Eddy::Cli {

void Ctl::cmdAdapter()
{
    const QString sub = m_args.value(1);
    const bool show = sub == QLatin1String("show") && m_args.size() == 3;
    const bool set = sub == QLatin1String("set") && m_args.size() == 4;
    if (!show && !set)
        return fail(QStringLiteral("usage: eddyctl adapter show URL | eddyctl adapter set URL FILE"),
                    Usage);
    std::optional<Monitor::JobAdapter> toStore;
    if (set) {
        QFile f(m_args[3]);
        if (!f.open(QIODevice::ReadOnly))
            return fail(QStringLiteral("cannot read the adapter file %1: %2")
                            .arg(m_args[3], f.errorString()));
        QString error;
        toStore = Monitor::JobAdapter::fromText(QString::fromUtf8(f.readAll()), &error);
        if (!toStore)
            return fail(QStringLiteral("the adapter in %1 is not valid; nothing was stored. Fix:\n%2")
                            .arg(m_args[3], error),
                        Usage);
    }
    if (!openEngine(false))
        return;
    const auto id = serverFor(m_args[2]);
    if (!id)
        return;
    if (set) {
        if (!m_engine.setJobAdapter(*id, *toStore))
            return fail(QStringLiteral("cannot store the adapter: %1").arg(m_engine.storeError()));
        m_err << QStringLiteral("stored the job adapter of %1: %2 starts jobs, %3 follows them")
                     .arg(m_args[2], toStore->submitTool, toStore->statusTool)
              << Qt::endl;
        return finish(Ok);
    }
    QString error;
    if (const auto stored = m_engine.jobAdapter(*id, &error)) {
        m_out << QString::fromStdString(stored->toJson().dump(2)) << Qt::endl;
        m_err << QStringLiteral("(the adapter stored with %1)").arg(m_args[2]) << Qt::endl;
        return finish(Ok);
    }
    if (!error.isEmpty())
        m_err << QStringLiteral("the stored adapter is not valid (%1); proposing one").arg(error)
              << Qt::endl;
    m_engine.proposeJobAdapter(*id, [this](const Monitor::AdapterProposal &p, const QString &e) {
        if (m_finished)
            return;
        if (!e.isEmpty())
            return fail(e);
        if (!p.adapter)
            return fail(QStringLiteral("no adapter to propose: %1").arg(p.reason));
        m_out << QString::fromStdString(p.adapter->toJson().dump(2)) << Qt::endl;
        m_err << QStringLiteral("(proposed, not stored; confidence %1 %)\n")
                     .arg(qRound(p.confidence * 100));
        for (const QString &why : p.why)
            m_err << "  " << why << "\n";
        m_err << QStringLiteral("Save it to a file, edit it if needed, and store it with: eddyctl "
                                "adapter set %1 FILE")
                     .arg(m_args[2])
              << Qt::endl;
        finish(Ok);
    });
}

} // namespace Eddy::Cli
