#pragma once

#include <QString>
#include <QStringView>

#include <optional>

namespace Eddy {

// How the server runs a call that Eddy follows. Code branches on this enum; the words exist only
// where the database, eddyctl's JSON and the logs need them (patternName / patternFromName).
enum class Pattern {
    Task,     // MCP Tasks: polled by its task id
    Streamed, // a tools/call answered as an SSE stream: live only while the process that holds
              // the stream runs
    Job,      // classic job-id tools, followed through the server's job adapter (the id is the
              // job id)
};

// "task", "streamed", "job" (shared strings: no allocation per call).
const QString &patternName(Pattern pattern);
// The pattern a word names, or nullopt for any other word.
std::optional<Pattern> patternFromName(QStringView name);

} // namespace Eddy
