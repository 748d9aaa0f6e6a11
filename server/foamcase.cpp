#include "server/foamcase.h"

#include "server/foamprocess.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace Eddy::Server::FoamCase {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr auto kUtilityTimeout = std::chrono::seconds(60);

bool isFile(const fs::path &p)
{
    std::error_code ec;
    return fs::is_regular_file(p, ec);
}

Installation locate()
{
    Installation foam;
    const std::string dictionary = FoamProcess::which("foamDictionary");
    if (const char *env = std::getenv("WM_PROJECT_DIR"); env && *env) {
        foam.projectDir = env;
        if (!isFile(fs::path(env) / "etc" / "controlDict")) {
            foam.error = "WM_PROJECT_DIR is '" + foam.projectDir
                         + "' but it has no etc/controlDict; point it at OpenFOAM's project "
                           "folder or unset it";
            return foam;
        }
    } else if (!dictionary.empty()) {
        std::error_code ec;
        const fs::path prefix = fs::canonical(dictionary, ec).parent_path().parent_path();
        for (const fs::path &candidate : {prefix / "share" / "openfoam", prefix})
            if (foam.projectDir.empty() && isFile(candidate / "etc" / "controlDict"))
                foam.projectDir = candidate.string();
        if (foam.projectDir.empty()) {
            foam.error = "foamDictionary is at " + dictionary + " but no OpenFOAM project "
                         "folder (with etc/controlDict) was found beside it; set "
                         "WM_PROJECT_DIR to it";
            return foam;
        }
    }
    if (dictionary.empty()) {
        foam.error = "OpenFOAM is not installed on the server (no foamDictionary on PATH); "
                     "install it (Debian: apt-get install openfoam openfoam-examples) and "
                     "restart eddy-cfd-server";
        return foam;
    }
    std::error_code ec;
    const fs::path prefix = fs::canonical(dictionary, ec).parent_path().parent_path();
    for (const fs::path &candidate :
         {fs::path(foam.projectDir) / "tutorials",
          prefix / "share" / "doc" / "openfoam-examples" / "examples"}) {
        if (foam.tutorials.empty() && fs::is_directory(candidate / "incompressible", ec))
            foam.tutorials = candidate.string();
    }
    return foam;
}

// A scratch folder removed when it goes out of scope.
struct Scratch
{
    fs::path path;
    Scratch()
    {
        std::string pattern = (fs::temp_directory_path() / "eddy-foam-XXXXXX").string();
        if (::mkdtemp(pattern.data()))
            path = pattern;
    }
    ~Scratch()
    {
        std::error_code ec;
        if (!path.empty())
            fs::remove_all(path, ec);
    }
};

bool foamDictionary(const std::string &dir, const std::vector<std::string> &args,
                    std::string &output, std::string &error)
{
    const Installation &foam = installation();
    if (!foam.ok()) {
        error = foam.error;
        return false;
    }
    std::vector<std::string> argv{"foamDictionary"};
    argv.insert(argv.end(), args.begin(), args.end());
    int code = 0;
    if (!FoamProcess::run(argv, dir, environment(foam), kUtilityTimeout, output, code, error))
        return false;
    if (code != 0) {
        // "--> FOAM FATAL IO ERROR: \nCannot find entry nux\n": the line after the banner.
        std::istringstream lines(output);
        std::string line, reason;
        bool next = false;
        while (std::getline(lines, line)) {
            if (next && !line.empty() && line.find_first_not_of(' ') != std::string::npos) {
                reason = line;
                break;
            }
            next = next || line.find("FOAM FATAL") != std::string::npos;
        }
        error = reason.empty() ? "foamDictionary failed" : reason;
        return false;
    }
    return true;
}

std::string trimmed(std::string s)
{
    while (!s.empty() && (s.back() == '\n' || s.back() == ' ' || s.back() == '\r'))
        s.pop_back();
    const auto first = s.find_first_not_of(" \n");
    return first == std::string::npos ? std::string() : s.substr(first);
}

// The last (at most) n bytes of a file; empty when it cannot be read.
std::string lastBytes(const fs::path &file, std::streamoff n)
{
    std::ifstream in(file, std::ios::binary);
    if (!in)
        return {};
    in.seekg(0, std::ios::end);
    const std::streamoff size = in.tellg();
    const std::streamoff take = std::min<std::streamoff>(size, n);
    in.seekg(size - take);
    std::string text(std::size_t(take), '\0');
    in.read(text.data(), take);
    return text;
}

bool endsWithFooter(const fs::path &file)
{
    const std::string t = trimmed(lastBytes(file, 200));
    return t.size() > 4 && t.compare(t.size() - 2, 2, "//") == 0
           && t.rfind("// *") != std::string::npos;
}

std::vector<std::string> splitTabs(const std::string &line)
{
    std::vector<std::string> out;
    std::string cell;
    std::istringstream in(line);
    while (std::getline(in, cell, '\t')) {
        cell = trimmed(cell);
        if (!cell.empty())
            out.push_back(cell);
    }
    return out;
}

} // namespace

const Installation &installation()
{
    static const Installation foam = locate();
    return foam;
}

std::vector<std::string> environment(const Installation &foam)
{
    // Open MPI refuses root without both (containers and CI run as root).
    return {"WM_PROJECT_DIR=" + foam.projectDir, "OMPI_ALLOW_RUN_AS_ROOT=1",
            "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1", "OMPI_MCA_rmaps_base_oversubscribe=1"};
}

const std::vector<Template> &templates()
{
    static const std::vector<Template> list = {
        {"cavity", "incompressible/icoFoam/cavity/cavity",
         "icoFoam lid-driven cavity, 20x20 cells, transient, Re 10 (nu 0.01)",
         {"blockMesh"}, {}},
        {"pitzDaily", "incompressible/simpleFoam/pitzDaily",
         "simpleFoam backward-facing step, 12,225 cells, steady k-epsilon",
         {"blockMesh"}, {}},
        {"porousBlockage", "incompressible/pisoFoam/laminar/porousBlockage",
         "pisoFoam channel with a porous blockage, transient; function object pressureDrop "
         "writes the inlet-outlet pressure difference",
         {"blockMesh", "topoSet"},
         {{"system/controlDict:functions",
           "{ pressureDrop { type fieldValueDelta; libs (\"libfieldFunctionObjects.so\"); "
           "operation subtract; writeControl timeStep; writeInterval 1; "
           "region1 { type surfaceFieldValue; regionType patch; name inlet; "
           "operation areaAverage; fields (p); writeFields false; } "
           "region2 { type surfaceFieldValue; regionType patch; name outlet; "
           "operation areaAverage; fields (p); writeFields false; } } }"}}},
    };
    return list;
}

const Template *findTemplate(const std::string &name)
{
    for (const Template &t : templates())
        if (t.name == name)
            return &t;
    return nullptr;
}

std::string templateNames()
{
    std::string out;
    const auto &list = templates();
    for (std::size_t i = 0; i < list.size(); ++i)
        out += (i == 0 ? "" : i + 1 == list.size() ? " and " : ", ") + list[i].name;
    return out;
}

bool splitKey(const std::string &key, std::string &file, std::string &entry, std::string &error)
{
    const auto colon = key.find(':');
    if (colon == std::string::npos || colon == 0 || colon + 1 >= key.size()) {
        error = "expected \"FILE:ENTRY\" such as \"constant/transportProperties:nu\" or "
                "\"system/controlDict:endTime\"";
        return false;
    }
    file = key.substr(0, colon);
    entry = key.substr(colon + 1);
    const fs::path p(file);
    for (const fs::path &part : p) {
        if (part == "..") {
            error = "the file '" + file + "' leaves the case folder ('..')";
            return false;
        }
    }
    if (p.is_absolute()) {
        error = "the file '" + file + "' must be relative to the case folder";
        return false;
    }
    if (entry.find_first_of(" \t\n;{}") != std::string::npos) {
        error = "the entry '" + entry + "' is not an entry path (use / between levels, e.g. "
                "PISO/nCorrectors)";
        return false;
    }
    return true;
}

bool resolveUnder(const std::string &root, const std::string &relative, std::string &resolved,
                  std::string &error)
{
    std::error_code ec;
    const fs::path base = fs::canonical(root, ec);
    if (ec) {
        error = "the cases folder '" + root + "' is not readable";
        return false;
    }
    if (fs::path(relative).is_absolute()) {
        error = "give the case folder relative to the server's cases folder, not as an "
                "absolute path";
        return false;
    }
    const fs::path full = fs::weakly_canonical(base / relative, ec);
    const auto [rootEnd, _] = std::mismatch(base.begin(), base.end(), full.begin(), full.end());
    if (ec || rootEnd != base.end()) {
        error = "the path '" + relative + "' leaves the server's cases folder";
        return false;
    }
    resolved = full.string();
    return true;
}

bool readEntry(const std::string &dir, const std::string &file, const std::string &entry,
               std::string &value, std::string &error)
{
    std::string output;
    if (!foamDictionary(dir, {file, "-entry", entry, "-value"}, output, error))
        return false;
    value = trimmed(output);
    return true;
}

bool setEntry(const std::string &dir, const std::string &file, const std::string &entry,
              const std::string &value, std::string &log, std::string &error)
{
    std::string output;
    log += "foamDictionary " + file + " -entry " + entry + " -set '" + value + "'\n";
    const bool ok = foamDictionary(dir, {file, "-entry", entry, "-set", value}, output, error);
    if (!ok)
        log += "  refused: " + error + "\n";
    return ok;
}

bool valueText(const json &value, const std::string &current, std::string &text)
{
    if (value.is_string()) {
        text = value.get<std::string>();
        return !text.empty();
    }
    if (value.is_boolean()) {
        text = value.get<bool>() ? "true" : "false";
        return true;
    }
    if (!value.is_number())
        return false;
    text = value.dump();
    if (!current.empty() && current.front() == '[') {
        const auto close = current.find(']');
        if (close != std::string::npos)
            text = current.substr(0, close + 1) + " " + text;
    }
    return true;
}

bool checkEntries(const std::string &sourceDir, const json &entries, std::string &error)
{
    if (entries.empty())
        return true;
    Scratch scratch;
    if (scratch.path.empty()) {
        error = "the server could not create a scratch folder to check the entries";
        return false;
    }
    for (const auto &[key, value] : entries.items()) {
        std::string file, entry;
        if (!splitKey(key, file, entry, error)) {
            error = "'" + key + "': " + error;
            return false;
        }
        // The file's whole folder goes to the scratch copy: its #include's stay resolvable.
        const fs::path source = fs::path(sourceDir) / file;
        const fs::path copy = scratch.path / file;
        std::error_code ec;
        fs::create_directories(copy.parent_path(), ec);
        for (const fs::directory_entry &e : fs::directory_iterator(source.parent_path(), ec))
            if (e.is_regular_file() && !e.is_symlink()) // as the copy: links are not followed
                fs::copy_file(e.path(), copy.parent_path() / e.path().filename(),
                              fs::copy_options::overwrite_existing, ec);
        if (!isFile(copy) && isFile(copy.string() + ".gz")) {
            std::string out;
            int code = 0;
            if (!FoamProcess::run({"gzip", "-df", copy.string() + ".gz"}, scratch.path, {},
                                  kUtilityTimeout, out, code, error))
                return false;
        }
        if (!isFile(copy)) {
            error = "'" + key + "': the case has no file " + file;
            return false;
        }
        std::string current, text, log;
        if (!readEntry(scratch.path, file, entry, current, error)) {
            error = "'" + key + "': " + file + " has no entry " + entry + " (" + error + ")";
            return false;
        }
        if (!valueText(value, current, text)) {
            error = "'" + key + "': give the value as a string or a number (got "
                    + value.dump() + ")";
            return false;
        }
        if (!setEntry(scratch.path, file, entry, text, log, error)) {
            error = "'" + key + "': foamDictionary refuses the value '" + text + "' (" + error
                    + ")";
            return false;
        }
    }
    return true;
}

bool copyCase(const std::string &from, const std::string &to, std::string &log,
              std::string &error)
{
    std::error_code ec;
    fs::create_directories(to, ec);
    const auto times = timeFolders(from);
    for (const fs::directory_entry &e : fs::directory_iterator(from, ec)) {
        const std::string name = e.path().filename().string();
        // Earlier results stay behind: only the start time is copied.
        const bool laterTime = std::any_of(times.begin() + (times.empty() ? 0 : 1), times.end(),
                                           [&](const auto &t) { return t.first == name; });
        if (laterTime || name.rfind("processor", 0) == 0 || name.rfind("log.", 0) == 0
            || name == "postProcessing")
            continue;
        // A link may lead out of the cases folder, which is never read outside: not followed.
        if (e.is_symlink()) {
            log += "skipped the symbolic link " + name + "\n";
            continue;
        }
        fs::copy(e.path(), fs::path(to) / name,
                 fs::copy_options::recursive | fs::copy_options::overwrite_existing
                     | fs::copy_options::skip_symlinks,
                 ec);
        if (ec) {
            error = "cannot copy " + name + ": " + ec.message();
            return false;
        }
        log += "copied " + name + "\n";
    }
    if (ec) {
        error = "cannot read the case folder: " + ec.message();
        return false;
    }
    for (const fs::directory_entry &e : fs::recursive_directory_iterator(to, ec)) {
        if (!e.is_regular_file() || e.path().extension() != ".gz")
            continue;
        std::string out;
        int code = 0;
        if (!FoamProcess::run({"gzip", "-df", e.path().string()}, to, {}, kUtilityTimeout, out,
                              code, error)
            || code != 0) {
            error = "cannot unpack " + e.path().filename().string() + ": "
                    + (error.empty() ? out : error);
            return false;
        }
        log += "unpacked " + e.path().filename().string() + "\n";
    }
    return true;
}

std::vector<std::pair<std::string, double>> timeFolders(const std::string &caseDir)
{
    std::vector<std::pair<std::string, double>> out;
    std::error_code ec;
    for (const fs::directory_entry &e : fs::directory_iterator(caseDir, ec)) {
        if (!e.is_directory())
            continue;
        const std::string name = e.path().filename().string();
        char *end = nullptr;
        const double t = std::strtod(name.c_str(), &end);
        if (!name.empty() && end == name.c_str() + name.size())
            out.emplace_back(name, t);
    }
    std::sort(out.begin(), out.end(),
              [](const auto &a, const auto &b) { return a.second < b.second; });
    return out;
}

bool isCompleteTime(const std::string &caseDir, const std::string &folder)
{
    const fs::path dir = fs::path(caseDir) / folder;
    if (!isFile(dir / "uniform" / "time") || !endsWithFooter(dir / "uniform" / "time"))
        return false;
    std::vector<std::string> files;
    std::error_code ec;
    for (const fs::directory_entry &e : fs::directory_iterator(dir, ec)) {
        if (!e.is_regular_file())
            continue;
        if (e.path().extension() != ".gz" && !endsWithFooter(e.path()))
            return false;
        files.push_back(e.path().filename().string());
    }
    // The written time before it (not the start folder) names the fields every write has.
    const auto times = timeFolders(caseDir);
    const auto self = std::find_if(times.begin(), times.end(),
                                   [&](const auto &t) { return t.first == folder; });
    if (self != times.end() && self - times.begin() >= 2) {
        const fs::path previous = fs::path(caseDir) / std::prev(self)->first;
        for (const fs::directory_entry &e : fs::directory_iterator(previous, ec))
            if (e.is_regular_file()
                && std::find(files.begin(), files.end(), e.path().filename().string()) == files.end())
                return false;
    }
    return !files.empty();
}

json functionObjectScalars(const std::string &caseDir)
{
    json out = json::object();
    const fs::path post = fs::path(caseDir) / "postProcessing";
    std::error_code ec;
    for (const fs::directory_entry &fo : fs::directory_iterator(post, ec)) {
        if (!fo.is_directory())
            continue;
        const auto starts = timeFolders(fo.path().string());
        if (starts.empty())
            continue;
        std::vector<fs::path> dats;
        for (const fs::directory_entry &f : fs::directory_iterator(fo.path() / starts.back().first, ec))
            if (f.is_regular_file() && f.path().extension() == ".dat")
                dats.push_back(f.path());
        for (const fs::path &dat : dats) {
            std::ifstream in(dat);
            std::string line, header, last;
            while (std::getline(in, line)) {
                if (line.rfind('#', 0) == 0)
                    header = line.substr(1);
                else if (line.find_first_not_of(" \t\r") != std::string::npos)
                    last = line;
            }
            const std::vector<std::string> names = splitTabs(header);
            const std::vector<std::string> values = splitTabs(last);
            const std::string prefix = fo.path().filename().string() + "/"
                                       + (dats.size() > 1 ? dat.stem().string() + "/" : "");
            for (std::size_t i = 1; i < names.size() && i < values.size(); ++i) {
                char *end = nullptr;
                const double v = std::strtod(values[i].c_str(), &end);
                if (end != values[i].c_str() && *end == '\0')
                    out[prefix + names[i]] = v;
            }
        }
    }
    return out;
}

std::string tail(const std::string &path, int lines)
{
    std::string text = lastBytes(path, 16384);
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r'))
        text.pop_back();
    std::size_t at = text.size();
    for (int n = 0; n < lines && at != std::string::npos && at > 0; ++n)
        at = text.rfind('\n', at - 1);
    return at == std::string::npos ? text : text.substr(at + 1);
}

} // namespace Eddy::Server::FoamCase
