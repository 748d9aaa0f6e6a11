#pragma once

// The mesh question and its answer, as changes to a task's record. ask() puts a task in
// input_required; an answer (tasks/update, and the legacy and job-tool answers) repairs the mesh
// and sends the case back to the queue, or ends the task with a tool error that says why and what
// would let the case pass. Holds no task state and takes no lock: TaskManager calls it under its
// lock on the held record, then queues or renders the task as the verdict says.

#include "server/taskrecord.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

namespace Eddy::Server {

class FoamCases;

class MeshAnswers final
{
public:
    explicit MeshAnswers(const FoamCases &foamCases);

    // Puts r in input_required with question under a fresh mesh_repair_N key.
    static void
    ask(TaskRecord &r, nlohmann::json question, const std::string &message, std::int64_t now);

    enum class Verdict {
        Unchanged, // not waiting for an answer, or no outstanding key answered
        Queue,     // working again with the answer applied: queue it
        Ended,     // finished at the mesh check (a tool error): render it
    };
    // Applies the first answer in inputResponses to an outstanding request of r; unknown or
    // already-answered keys are ignored. inputResponses is client data.
    Verdict apply(TaskRecord &r, const nlohmann::json &inputResponses, std::int64_t now) const;

private:
    // Ends r with a tool error saying why it was not run (failed in the 2025-11-25 era).
    static void endAtMeshCheck(TaskRecord &r, const std::string &why);

    const FoamCases &m_foamCases;
};

} // namespace Eddy::Server
