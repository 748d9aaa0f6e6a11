#pragma once

#include "app/monitor/taskhandle.h"
#include "app/vocab/records.h"

#include <QByteArray>
#include <QList>
#include <QString>

namespace Eddy::Monitor {

class Engine;

// Task references shared with other clients (docs/interop.md): import reads a handles file,
// finds each reference's server by its endpoint id, stores each task once and hands it to the
// hub to follow like any task; export writes the references of stored tasks. Lives on the
// engine's thread; the engine (its hub) owns it.
class HandleExchange final
{
    Q_DISABLE_COPY_MOVE(HandleExchange)

public:
    explicit HandleExchange(Engine &hub);

    // Engine::importHandles(), Engine::exportHandles().
    HandleImportReport importHandles(const QByteArray &fileContent, const QString &sessionName,
                                     const QString &serverUrl);
    HandleExport exportHandles(const Store::TaskQuery &query, const QList<qint64> &taskIds,
                               const QString &sessionName);

private:
    Engine &m_hub;
};

} // namespace Eddy::Monitor
