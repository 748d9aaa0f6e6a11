#include "models/enginebridge.h"

#include "app/monitor/inputinbox.h"
#include "app/monitor/review.h"
#include "app/monitor/sweepexport.h"
#include "app/monitor/taskhandle.h"
#include "app/vocab/outcome.h"
#include "models/sweepreportreader.h"

#include <QMetaObject>
#include <QPointer>

#include <nlohmann/json.hpp>

namespace Eddy {

EngineBridge::EngineBridge(Monitor::Engine *engine, QObject *parent)
    : QObject(parent)
    , m_engine(engine)
{
    qRegisterMetaType<Snapshot>();
    qRegisterMetaType<TaskDetail>();
    qRegisterMetaType<SweepResults>();
    qRegisterMetaType<SweepReportInput>();
    qRegisterMetaType<Monitor::ChangeSet>();
    qRegisterMetaType<Store::TaskRecord>();
    qRegisterMetaType<Store::InputRequestRecord>();
    qRegisterMetaType<Store::ServerRecord>();
    qRegisterMetaType<Store::SessionRecord>();
    qRegisterMetaType<Store::TaskQuery>();
    qRegisterMetaType<std::optional<qint64>>();
    qRegisterMetaType<QList<qint64>>();
    qRegisterMetaType<CaseQuestion>();
    qRegisterMetaType<QList<CaseQuestion>>();
    qRegisterMetaType<CaseDelivery>();
    qRegisterMetaType<SharedWork>();
    qRegisterMetaType<JobAdapterView>();
    qRegisterMetaType<Monitor::Engine::ServerState>();
    qRegisterMetaType<Monitor::HandleImportReport>();
    qRegisterMetaType<Monitor::HandleExport>();
    if (!engine)
        return;
    // Another process's work: gathered into one value on the engine's thread, queued to the GUI.
    m_engineLinks << connect(engine,
                             &Monitor::Engine::sharedWork,
                             engine,
                             [this](const QList<Store::SweepRecord> &sweeps,
                                    const QList<Store::CaseRecord> &calls,
                                    const QList<Store::SessionRecord> &sessions,
                                    bool reload) {
                                 if (!sessions.isEmpty())
                                     Q_EMIT sessionsChanged(sessions);
                                 Q_EMIT sharedWork({sweeps, calls, sessions, reload});
                             });
    // Servers another process added, edited or removed: listed again; a removed one's rows read
    // again (lost, or gone); an added one asked who it is, as one added here is.
    m_engineLinks << connect(
        engine,
        &Monitor::Engine::serversChanged,
        engine,
        [this, engine](const QList<qint64> &added, const QList<qint64> &removed) {
            for (qint64 id : added)
                engine->refreshServer(id);
            Q_EMIT serversReady(engine->catalogue().servers(true));
            for (qint64 id : removed)
                Q_EMIT serverRemoved(id);
        });
    // Pre-task signals: the question is completed with its case on the engine's thread (the
    // store lives there), then queued to this object's thread like every answer.
    m_engineLinks << connect(engine,
                             &Monitor::Engine::caseInputRequested,
                             engine,
                             [this, engine](const Monitor::Engine::CaseQuestion &q) {
                                 CaseQuestion out{q, {}};
                                 if (auto c = engine->catalogue().caseRecord(q.caseId))
                                     out.caseRecord = *c;
                                 Q_EMIT caseQuestionAsked(out);
                             });
    connect(engine, &Monitor::Engine::caseInputAnswered, this, &EngineBridge::caseInputAnswered);
    const auto withCase = [engine](CaseDelivery d) {
        if (auto c = engine->catalogue().caseRecord(d.caseId))
            d.caseRecord = *c;
        return d;
    };
    m_engineLinks << connect(
        engine,
        &Monitor::Engine::caseRetrying,
        engine,
        [this,
         withCase](qint64 caseId, int attempt, int limit, qint64 delayMs, const QString &message) {
            Q_EMIT caseDelivery(withCase({{}, caseId, attempt, limit, delayMs, false, message}));
        });
    m_engineLinks << connect(
        engine,
        &Monitor::Engine::caseDeferred,
        engine,
        [this, withCase](qint64 caseId, const QString &message) {
            Q_EMIT caseDelivery(withCase({{}, caseId, 0, 0, 0, true, message}));
        });
    connect(engine, &Monitor::Engine::caseSubmitted, this, &EngineBridge::caseSubmitted);
    connect(engine, &Monitor::Engine::caseRejected, this, &EngineBridge::caseRejected);
    connect(engine, &Monitor::Engine::changesReady, this, &EngineBridge::changesReady);
    connect(engine, &Monitor::Engine::inputAnswered, this, &EngineBridge::inputAnswered);
    connect(engine,
            &Monitor::Engine::serverStateChanged,
            this,
            [this](qint64 id, Monitor::Engine::ServerState state, const QString &message,
                   bool notMcp) {
                Q_EMIT serverStateChanged(id, ServerListModel::State(int(state)), message, notMcp);
            });
    connect(engine, &Monitor::Engine::toolsChanged, this, &EngineBridge::toolsChanged);
    connect(engine, &Monitor::Engine::sweepSubmitted, this, &EngineBridge::sweepSubmitted);
    connect(engine, &Monitor::Engine::callJournalled, this, &EngineBridge::callJournalled);
    connect(engine, &Monitor::Engine::submissionRejected, this, &EngineBridge::submissionRejected);
    connect(engine, &Monitor::Engine::operationFailed, this, &EngineBridge::operationFailed);
    connect(engine, &Monitor::Engine::ttlWarning, this, &EngineBridge::ttlWarning);
    connect(engine->review(), &Monitor::Review::caseReviewChanged, this, &EngineBridge::caseReviewChanged);
    connect(engine->review(), &Monitor::Review::sweepReviewChanged, this, &EngineBridge::sweepReviewChanged);
}

EngineBridge::~EngineBridge()
{
    for (const auto &link : std::as_const(m_engineLinks))
        disconnect(link);
}

QStringList EngineBridge::variedNames(const QString &specJson)
{
    return Monitor::SweepExport::variedNames(specJson); // one order for the table and the export
}

// Each read runs as a lambda in the engine's thread (the store has one connection, owned there)
// and emits this object's signal from that thread: Qt queues it to the GUI thread.
void EngineBridge::requestSnapshot(std::optional<qint64> sessionId)
{
    if (!m_engine)
        return;
    Monitor::Engine *engine = m_engine;
    QMetaObject::invokeMethod(engine, [this, engine, sessionId] {
        const Monitor::Catalogue &catalogue = engine->catalogue();
        Snapshot s;
        s.sessionId = sessionId;
        if (!engine->isOpen()) {
            Q_EMIT snapshotReady(s);
            return;
        }
        s.readOnly = engine->isReadOnly();
        s.servers = catalogue.servers(true); // removed ones still name their kept tasks
        s.sessions = catalogue.sessions();
        Store::TaskQuery q;
        q.sessionId = sessionId;
        s.tasks = catalogue.tasks(q);
        QSet<qint64> sweepIds;
        for (auto &t : s.tasks) {
            t.converged = Monitor::convergedOf(t.result); // the table's outcome needs it
            t.result.clear(); // fetched on demand: a snapshot of 100,000 tasks must stay small
            if (t.sweepId)
                sweepIds.insert(*t.sweepId);
        }
        for (const auto &sw : catalogue.sweeps()) {
            if (!sweepIds.contains(sw.id) && !(sessionId && sw.sessionId == sessionId))
                continue;
            s.sweeps << sw;
            for (const auto &c : catalogue.cases(sw.id))
                s.caseIndex.insert(c.id, c.index);
        }
        s.pendingInputs = catalogue.pendingInputRequests();
        s.answeredInputs = catalogue.answeredInputRequests();
        s.annotatedCases = engine->review()->annotatedCases();
        Q_EMIT snapshotReady(s);
    });
}

void EngineBridge::requestServers()
{
    if (!m_engine)
        return;
    Monitor::Engine *engine = m_engine;
    QMetaObject::invokeMethod(engine, [this, engine] {
        Q_EMIT serversReady(engine->catalogue().servers(true));
    });
}

void EngineBridge::requestTaskDetail(qint64 taskId)
{
    if (!m_engine)
        return;
    Monitor::Engine *engine = m_engine;
    QMetaObject::invokeMethod(engine, [this, engine, taskId] {
        const Monitor::Catalogue &catalogue = engine->catalogue();
        auto t = catalogue.task(taskId);
        if (!t)
            return;
        TaskDetail d;
        d.task = *t;
        d.events = catalogue.taskEvents(taskId);
        d.samples = catalogue.progressSamples(taskId);
        d.inputs = catalogue.inputRequests(taskId);
        if (t->caseId) {
            d.caseRecord = catalogue.caseRecord(*t->caseId);
            if (d.caseRecord)
                d.parentTaskId = catalogue.parentTaskId(*d.caseRecord);
            d.childTaskIds = catalogue.childTaskIds(*t->caseId);
        }
        Q_EMIT taskDetailReady(d);
    });
}

void EngineBridge::requestSamples(const QList<qint64> &taskIds)
{
    if (!m_engine)
        return;
    Monitor::Engine *engine = m_engine;
    QMetaObject::invokeMethod(engine, [this, engine, taskIds] {
        QList<Store::ProgressSample> all;
        for (qint64 id : taskIds)
            all << engine->catalogue().progressSamples(id);
        Q_EMIT samplesReady(taskIds, all);
    });
}

void EngineBridge::requestLatestResiduals(const QList<qint64> &taskIds)
{
    if (!m_engine)
        return;
    Monitor::Engine *engine = m_engine;
    // In slices, each its own turn of the engine's loop: a search over 100,000 rows asks for
    // all of them, and polls must not wait behind that many lookups.
    constexpr qsizetype slice = 500;
    for (qsizetype from = 0; from < taskIds.size(); from += slice) {
        const QList<qint64> ids = taskIds.mid(from, slice);
        QMetaObject::invokeMethod(engine, [this, engine, ids] {
            QList<Store::ProgressSample> found;
            for (qint64 id : ids) {
                if (auto s = engine->catalogue().latestSample(id, QStringLiteral("residual")))
                    found << *s;
            }
            Q_EMIT latestResidualsReady(ids, found);
        });
    }
}

void EngineBridge::requestSweep(qint64 sweepId)
{
    if (!m_engine)
        return;
    Monitor::Engine *engine = m_engine;
    QMetaObject::invokeMethod(engine, [this, engine, sweepId] {
        auto sw = engine->catalogue().sweep(sweepId);
        if (!sw)
            return;
        QHash<qint64, int> index;
        for (const auto &c : engine->catalogue().cases(sweepId))
            index.insert(c.id, c.index);
        Q_EMIT sweepReady(*sw, index);
    });
}

void EngineBridge::requestSweepResults(qint64 sweepId)
{
    if (!m_engine)
        return;
    Monitor::Engine *engine = m_engine;
    QMetaObject::invokeMethod(engine, [this, engine, sweepId] {
        const Monitor::Catalogue &catalogue = engine->catalogue();
        auto sw = catalogue.sweep(sweepId);
        if (!sw)
            return;
        SweepResults r;
        r.sweep = *sw;
        r.cases = catalogue.cases(sweepId);
        for (const auto &c : std::as_const(r.cases))
            r.caseIndex.insert(c.id, c.index);
        Store::TaskQuery q;
        q.sweepId = sweepId;
        r.tasks = catalogue.tasks(q);
        for (const auto &t : r.tasks) {
            const QString answers = Monitor::InputInbox::answerSummary(catalogue.inputRequests(t.id));
            if (!answers.isEmpty())
                r.answers.insert(t.id, answers);
        }
        Q_EMIT sweepResultsReady(r);
    });
}

void EngineBridge::requestSweepReport(qint64 sweepId)
{
    if (!m_engine)
        return;
    Monitor::Engine *engine = m_engine;
    QMetaObject::invokeMethod(engine, [this, engine, sweepId] {
        const auto input = SweepReportReader::read(*engine, sweepId);
        Q_EMIT sweepReportReady(sweepId, input.has_value(), input.value_or(SweepReportInput{}));
    });
}

void EngineBridge::requestSearch(const Store::TaskQuery &query)
{
    if (!m_engine)
        return;
    Monitor::Engine *engine = m_engine;
    QMetaObject::invokeMethod(engine, [this, engine, query] {
        QList<Store::TaskRecord> tasks = engine->catalogue().tasks(query);
        for (auto &t : tasks)
            t.result.clear();
        Q_EMIT searchReady(tasks);
    });
}

void EngineBridge::addServer(const QString &url, const QString &name, const QString &token)
{
    if (!m_engine)
        return;
    Monitor::Engine *engine = m_engine;
    QMetaObject::invokeMethod(engine, [this, engine, url, name, token] {
        const qint64 id = engine->addServer(url, name, token);
        if (id > 0)
            engine->refreshServer(id);
        Q_EMIT serversReady(engine->catalogue().servers(true));
    });
}

void EngineBridge::updateServer(const Store::ServerRecord &server)
{
    if (!m_engine)
        return;
    Monitor::Engine *engine = m_engine;
    QMetaObject::invokeMethod(engine, [this, engine, server] {
        Store::ServerRecord s = server;
        if (s.token.isNull()) {
            // The GUI does not keep tokens: a null token means "unchanged".
            if (auto old = engine->catalogue().server(s.id))
                s.token = old->token;
        }
        if (engine->updateServer(s))
            engine->refreshServer(s.id);
        Q_EMIT serversReady(engine->catalogue().servers(true));
    });
}

void EngineBridge::removeServer(qint64 serverId, ServerTasks tasks)
{
    if (!m_engine)
        return;
    using Removal = Store::ServerRemoval;
    const Removal mode = tasks == ServerTasks::KeepAsHistory ? Removal::KeepTasks
                         : tasks == ServerTasks::Delete      ? Removal::DeleteTasks
                                                             : Removal::RefuseIfUsed;
    Monitor::Engine *engine = m_engine;
    QMetaObject::invokeMethod(engine, [this, engine, serverId, mode] {
        const bool removed = engine->removeServer(serverId, mode);
        Q_EMIT serversReady(engine->catalogue().servers(true));
        if (removed)
            Q_EMIT serverRemoved(serverId);
    });
}

void EngineBridge::requestServerUse(qint64 serverId)
{
    if (!m_engine)
        return;
    Monitor::Engine *engine = m_engine;
    QMetaObject::invokeMethod(engine, [this, engine, serverId] {
        const auto use = engine->catalogue().serverUse(serverId);
        Q_EMIT serverUseReady(serverId, use ? use->tasks : -1, use ? use->live : 0);
    });
}

void EngineBridge::refreshServer(qint64 serverId)
{
    if (m_engine)
        QMetaObject::invokeMethod(m_engine, [e = m_engine.data(), serverId] { e->refreshServer(serverId); });
}

void EngineBridge::submitSweep(qint64 serverId, const QByteArray &specJson, std::optional<qint64> sessionId)
{
    if (m_engine)
        QMetaObject::invokeMethod(m_engine, [e = m_engine.data(), serverId, specJson, sessionId] {
            e->submitSweep(serverId, specJson, sessionId);
        });
}

void EngineBridge::callOnce(qint64 serverId, const QString &tool, const QByteArray &argumentsJson,
                            std::optional<qint64> sessionId, std::optional<qint64> parentCaseId)
{
    if (m_engine)
        QMetaObject::invokeMethod(m_engine, [e = m_engine.data(), serverId, tool, argumentsJson, sessionId, parentCaseId] {
            e->callOnce(serverId, tool, argumentsJson, sessionId, parentCaseId);
        });
}

void EngineBridge::cancelTasks(const QList<qint64> &taskIds)
{
    if (m_engine)
        QMetaObject::invokeMethod(m_engine, [e = m_engine.data(), taskIds] { e->cancelTasks(taskIds); });
}

void EngineBridge::answerInput(qint64 taskId, const QString &key, const QByteArray &elicitResultJson,
                               const QString &answeredBy)
{
    if (m_engine)
        QMetaObject::invokeMethod(m_engine, [e = m_engine.data(), taskId, key, elicitResultJson, answeredBy] {
            e->answerInput(taskId, key, elicitResultJson, answeredBy);
        });
}

void EngineBridge::answerCaseInput(qint64 caseId,
                                   const QString &key,
                                   const QByteArray &elicitResultJson)
{
    if (m_engine)
        QMetaObject::invokeMethod(m_engine, [e = m_engine.data(), caseId, key, elicitResultJson] {
            e->answerCaseInput(caseId, key, elicitResultJson);
        });
}

void EngineBridge::requestCaseQuestions()
{
    if (!m_engine)
        return;
    Monitor::Engine *engine = m_engine;
    QMetaObject::invokeMethod(engine, [this, engine] {
        QList<CaseQuestion> out;
        for (const auto &q : engine->pendingCaseQuestions()) {
            CaseQuestion c{q, {}};
            if (auto r = engine->catalogue().caseRecord(q.caseId))
                c.caseRecord = *r;
            out << c;
        }
        Q_EMIT caseQuestionsReady(out);
    });
}

void EngineBridge::createSession(const QString &name)
{
    if (!m_engine)
        return;
    Monitor::Engine *engine = m_engine;
    QMetaObject::invokeMethod(engine, [this, engine, name] {
        const qint64 id = engine->createSession(name);
        if (id > 0)
            Q_EMIT sessionCreated(id, name);
        Q_EMIT sessionsChanged(engine->catalogue().sessions());
    });
}

void EngineBridge::renameSession(qint64 sessionId, const QString &name)
{
    if (!m_engine)
        return;
    Monitor::Engine *engine = m_engine;
    QMetaObject::invokeMethod(engine, [this, engine, sessionId, name] {
        engine->renameSession(sessionId, name);
        Q_EMIT sessionsChanged(engine->catalogue().sessions());
    });
}

void EngineBridge::attachTasks(qint64 sessionId, const QList<qint64> &taskIds)
{
    if (!m_engine)
        return;
    Monitor::Engine *engine = m_engine;
    QMetaObject::invokeMethod(engine, [this, engine, sessionId, taskIds] {
        int n = 0;
        for (qint64 id : taskIds)
            n += engine->attachTask(sessionId, id) ? 1 : 0;
        Q_EMIT tasksAttached(sessionId, n);
        Q_EMIT sessionsChanged(engine->catalogue().sessions());
    });
}

void EngineBridge::checkSharedChanges()
{
    if (m_engine)
        QMetaObject::invokeMethod(m_engine, [e = m_engine.data()] { e->checkSharedChanges(); });
}

void EngineBridge::adoptSharedWork(qint64 sessionId, const QList<qint64> &sweepIds,
                                   const QList<qint64> &caseIds)
{
    if (m_engine)
        QMetaObject::invokeMethod(m_engine, [e = m_engine.data(), sessionId, sweepIds, caseIds] {
            e->adoptSharedWork(sessionId, sweepIds, caseIds);
        });
}

void EngineBridge::importHandles(const QByteArray &content, const QString &sessionName,
                                 const QString &serverUrl)
{
    if (!m_engine)
        return;
    Monitor::Engine *engine = m_engine;
    QMetaObject::invokeMethod(engine, [this, engine, content, sessionName, serverUrl] {
        const Monitor::HandleImportReport report
            = engine->importHandles(content, sessionName, serverUrl);
        Q_EMIT handlesImported(report);
        Q_EMIT sessionsChanged(engine->catalogue().sessions());
    });
}

void EngineBridge::exportHandles(const QList<qint64> &taskIds)
{
    if (!m_engine)
        return;
    Monitor::Engine *engine = m_engine;
    QMetaObject::invokeMethod(engine, [this, engine, taskIds] {
        Q_EMIT handlesExported(engine->exportHandles({}, taskIds));
    });
}

QStringList EngineBridge::unknownHandleEndpoints(const QByteArray &content,
                                                 const QStringList &serverUrls)
{
    QSet<QString> known;
    for (const QString &url : serverUrls)
        known.insert(Monitor::TaskHandle::endpointIdForServer(url));
    QString fileError;
    QStringList unknown;
    for (const auto &e : Monitor::TaskHandle::parseFile(content, &fileError)) {
        if (e.reference && !known.contains(e.reference->endpointId)
            && !unknown.contains(e.reference->endpointId))
            unknown << e.reference->endpointId;
    }
    return unknown;
}

// EngineBridge's review writes (Monitor::Review): queued to the engine's thread; what they
// stored comes back by Review's signals, connected in the constructor.

namespace {

// Runs `write` with the engine's Review on its thread; a refusal comes back as reviewFailed().
template<typename Write>
void onReview(EngineBridge *bridge, Monitor::Engine *engine, Write write)
{
    if (!engine)
        return;
    QMetaObject::invokeMethod(engine, [bridge, engine, write] {
        Monitor::Review &review = *engine->review();
        if (!write(review))
            Q_EMIT bridge->reviewFailed(review.lastError());
    });
}

} // namespace

void EngineBridge::setCaseNote(const QList<qint64> &caseIds, const QString &note)
{
    onReview(this, m_engine, [caseIds, note](Monitor::Review &review) {
        return std::all_of(caseIds.cbegin(), caseIds.cend(),
                           [&](qint64 id) { return review.setCaseNote(id, note); });
    });
}

void EngineBridge::setCaseTags(const QList<qint64> &caseIds, const QStringList &tags)
{
    onReview(this, m_engine, [caseIds, tags](Monitor::Review &review) {
        return std::all_of(caseIds.cbegin(), caseIds.cend(),
                           [&](qint64 id) { return review.setCaseTags(id, tags); });
    });
}

void EngineBridge::setSweepNote(qint64 sweepId, const QString &note)
{
    onReview(this, m_engine, [sweepId, note](Monitor::Review &review) { return review.setSweepNote(sweepId, note); });
}

void EngineBridge::setSweepTags(qint64 sweepId, const QStringList &tags)
{
    onReview(this, m_engine, [sweepId, tags](Monitor::Review &review) { return review.setSweepTags(sweepId, tags); });
}

void EngineBridge::setBaseline(qint64 sweepId, std::optional<qint64> caseId)
{
    onReview(this, m_engine, [sweepId, caseId](Monitor::Review &review) {
        return review.setBaseline(sweepId, caseId);
    });
}

void EngineBridge::setSweepPaused(qint64 sweepId, bool paused)
{
    onReview(this, m_engine, [sweepId, paused](Monitor::Review &review) {
        return review.setPaused(sweepId, paused);
    });
}

// EngineBridge: job adapters. Each request runs on the engine's thread (the store and the
// server links live there) and answers with a queued signal, like the bridge's other reads.

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
    adapterView(serverId, false);
}

void EngineBridge::checkJobAdapter(qint64 serverId)
{
    adapterView(serverId, true);
}

void EngineBridge::adapterView(qint64 serverId, bool unasked)
{
    if (!m_engine)
        return;
    Monitor::Engine *engine = m_engine;
    QPointer<EngineBridge> self(this);
    QMetaObject::invokeMethod(engine, [self, engine, serverId, unasked] {
        bool found = false;
        JobAdapterView view = storedView(*engine, serverId, &found);
        // Asked for: the stored adapter, else Eddy's proposal. Unasked: a proposal only for a
        // server without Tasks and without an adapter (even an invalid one: the engineer chose to
        // have one), so it is not asked about again.
        if (!found || view.stored || (unasked && (view.offersTasks || !view.storedError.isEmpty()))) {
            if (self && !unasked)
                Q_EMIT self->jobAdapterReady(view);
            return;
        }
        engine->proposeJobAdapter(serverId, [self, engine, serverId, view, unasked](const Monitor::AdapterProposal &p,
                                                                                    const QString &error) mutable {
            if (unasked && (!error.isEmpty() || !p.adapter))
                return; // nothing job-shaped, or the tools cannot be read now
            if (!error.isEmpty())
                view.error = error;
            else
                view.proposal = p;
            if (const auto server = engine->catalogue().server(serverId))
                view.server = *server; // with the tools just listed
            if (!self)
                return;
            if (unasked)
                Q_EMIT self->jobAdapterSuggested(view);
            else
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

} // namespace Eddy
