#pragma once

// OpenFOAM on this machine and the case folders run_openfoam_case works in: where OpenFOAM is
// (WM_PROJECT_DIR, else the share folder of the installed package), the case templates copied
// from its tutorials, foamDictionary reads and writes, time folders (and ones cut off mid-write)
// and the scalars function objects wrote. Blocking file and subprocess work; any thread.

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace Eddy::Server::FoamCase {

struct Installation
{
    std::string projectDir; // WM_PROJECT_DIR: holds etc/controlDict
    std::string tutorials;  // the tutorials' root (incompressible/icoFoam/cavity/cavity, ...)
    std::string error;      // what is missing and what to install, when not usable
    bool ok() const { return error.empty(); }
};

// Looked up once per process: WM_PROJECT_DIR from the environment if set, else the share folder
// next to the foamDictionary found on PATH (Debian: share/openfoam), and the tutorials from
// WM_PROJECT_DIR/tutorials or the openfoam-examples package's doc folder.
const Installation &installation();
// The environment an OpenFOAM child process needs on top of the server's.
std::vector<std::string> environment(const Installation &foam);

struct Template
{
    std::string name;     // "cavity"
    std::string tutorial; // relative to Installation::tutorials
    std::string description;
    std::vector<std::string> meshUtilities; // run in order before checkMesh
    // foamDictionary entries the template sets on top of the tutorial ("file:entry" -> value).
    std::vector<std::pair<std::string, std::string>> adjustments;
};
const std::vector<Template> &templates();
const Template *findTemplate(const std::string &name);
std::string templateNames(); // "cavity, pitzDaily and porousBlockage"

// A "file:entry" key split into its parts; false (and error) when it is malformed or the file
// leaves the case ("..", absolute).
bool splitKey(const std::string &key, std::string &file, std::string &entry, std::string &error);
// A path under root that stays under it after resolving links; false (and error) otherwise.
bool resolveUnder(const std::string &root, const std::string &relative, std::string &resolved,
                  std::string &error);

// foamDictionary FILE -entry ENTRY -value, run in dir.
bool readEntry(const std::string &dir, const std::string &file, const std::string &entry,
               std::string &value, std::string &error);
// foamDictionary FILE -entry ENTRY -set VALUE; the command and its output go to log.
bool setEntry(const std::string &dir, const std::string &file, const std::string &entry,
              const std::string &value, std::string &log, std::string &error);
// A JSON value as the text foamDictionary sets: strings as they are, numbers and booleans
// written out; a bare number keeps the dimensions of the value it replaces ("[0 2 -1 0 0 0 0]").
bool valueText(const nlohmann::json &value, const std::string &current, std::string &text);

// Checks entries ("file:entry" -> value) against a case source folder without changing it: each
// file exists, each entry exists, and foamDictionary accepts each value (tried on a scratch
// copy). False with an error naming the entry.
bool checkEntries(const std::string &sourceDir, const nlohmann::json &entries,
                  std::string &error);

// Copies a case (without processor* folders, logs, earlier results' time folders or symbolic
// links) and unpacks gzipped files; false with error.
bool copyCase(const std::string &from, const std::string &to, std::string &log,
              std::string &error);

// Time folders (name, value) in ascending time, "0" included.
std::vector<std::pair<std::string, double>> timeFolders(const std::string &caseDir);
// A written time is complete when it has uniform/time, every file ends with OpenFOAM's closing
// line, and it has every file the written time before it has; a folder cut off mid-write is not.
bool isCompleteTime(const std::string &caseDir, const std::string &folder);

// The last value of every column each function object wrote under postProcessing/, as
// {"pressureDrop/p": 0.319}, from the newest start-time folder of each.
nlohmann::json functionObjectScalars(const std::string &caseDir);

// The last n lines of a text file.
std::string tail(const std::string &path, int lines);

} // namespace Eddy::Server::FoamCase
