// EngineBridge: job adapters. Each request runs on the engine's thread (the store and the
// server links live there) and answers with a queued signal, like the bridge's other reads.
#include "models/enginebridge.h"

#include <QPointer>

#include <nlohmann/json.hpp>

namespace Eddy {

using nlohmann::json;

namespace {

// The view of what is stored; *found: the server exists.
EngineBridge::JobAdapterView storedView(Monitor::Engine &engine, qint64 serverId, bool *found)
{
    EngineBridge::JobAdapterView view;
    *found = false;
    const auto server = engine.catalogue().server(serverId);
    if (!server) {
        view.error = EngineBridge::tr("There is no server %1 any more.").arg(serverId);
        return view;
    }
    *found = true;
    view.server = *server;
    const json discovery = json::parse(server->discovery.toStdString(), nullptr, false);
    view.offersTasks = discovery.is_object() && discovery.value("offersTasks", false);
    view.stored = engine.jobAdapter(serverId, &view.storedError);
    return view;
}

} // namespace

void EngineBridge::requestJobAdapter(qint64 serverId)
{
    if (!m_engine)
        return;
    Monitor::Engine *engine = m_engine;
    QPointer<EngineBridge> self(this);
    QMetaObject::invokeMethod(engine, [self, engine, serverId] {
        bool found = false;
        JobAdapterView view = storedView(*engine, serverId, &found);
        if (!found || view.stored) {
            if (self)
                Q_EMIT self->jobAdapterReady(view);
            return;
        }
        engine->proposeJobAdapter(serverId,
                                  [self, engine, serverId, view](const Monitor::AdapterProposal &p,
                                                                 const QString &error) mutable {
                                      if (!error.isEmpty())
                                          view.error = error;
                                      else
                                          view.proposal = p;
                                      if (const auto server = engine->catalogue().server(serverId))
                                          view.server = *server; // with the tools just listed
                                      if (self)
                                          Q_EMIT self->jobAdapterReady(view);
                                  });
    });
}

void EngineBridge::setJobAdapter(qint64 serverId, const Monitor::JobAdapter &adapter)
{
    if (!m_engine)
        return;
    Monitor::Engine *engine = m_engine;
    QPointer<EngineBridge> self(this);
    QMetaObject::invokeMethod(engine, [self, engine, serverId, adapter] {
        const bool ok = engine->setJobAdapter(serverId, adapter);
        const QString message = ok ? QString() : engine->storeError();
        if (self)
            Q_EMIT self->jobAdapterStored(serverId, ok, message);
    });
}

void EngineBridge::checkJobAdapter(qint64 serverId)
{
    if (!m_engine)
        return;
    Monitor::Engine *engine = m_engine;
    QPointer<EngineBridge> self(this);
    QMetaObject::invokeMethod(engine, [self, engine, serverId] {
        bool found = false;
        JobAdapterView view = storedView(*engine, serverId, &found);
        // A server with Tasks needs no adapter; one with an adapter (even an invalid one: the
        // engineer chose to have one) is not asked about again.
        if (!found || view.offersTasks || view.stored || !view.storedError.isEmpty())
            return;
        engine->proposeJobAdapter(
            serverId,
            [self, engine, serverId, view](const Monitor::AdapterProposal &p,
                                           const QString &error) mutable {
                if (!error.isEmpty() || !p.adapter)
                    return; // nothing job-shaped, or the tools cannot be read now
                view.proposal = p;
                if (const auto server = engine->catalogue().server(serverId))
                    view.server = *server;
                if (self)
                    Q_EMIT self->jobAdapterSuggested(view);
            });
    });
}

} // namespace Eddy
