#include "server/casefolder.h"

#include "server/secrets.h"

#include <cstdio>
#include <fcntl.h>
#include <fstream>
#include <iterator>
#include <sys/stat.h>
#include <unistd.h>

namespace Eddy::Server::CaseFolder {

std::string caseKey(const std::string &taskId)
{
    return Secrets::sha256Hex("eddy case folder\n" + taskId).substr(0, 24);
}

namespace {

bool writeBytes(const std::string &path, const char *data, std::size_t size, std::string &error)
{
    const std::string temp = path + ".tmp";
    const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) {
        error = "cannot write " + temp;
        return false;
    }
    std::size_t done = 0;
    while (done < size) {
        const ssize_t n = ::write(fd, data + done, size - done);
        if (n <= 0) {
            ::close(fd);
            error = "cannot write " + temp + " (disk full?)";
            return false;
        }
        done += std::size_t(n);
    }
    ::fsync(fd);
    ::close(fd);
    if (std::rename(temp.c_str(), path.c_str()) != 0) {
        error = "cannot rename " + temp;
        return false;
    }
    return true;
}

} // namespace

bool writeAtomically(const std::string &path, const std::string &text, std::string &error)
{
    return writeBytes(path, text.data(), text.size(), error);
}

bool writeBlobAtomically(const std::string &path, const std::vector<std::uint8_t> &blob)
{
    std::string error;
    return writeBytes(path, reinterpret_cast<const char *>(blob.data()), blob.size(), error);
}

nlohmann::json readJson(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return nlohmann::json(nlohmann::json::value_t::discarded);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
    if (!j.is_object())
        return nlohmann::json(nlohmann::json::value_t::discarded);
    return j;
}

std::vector<std::uint8_t> readBlob(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return {};
    return std::vector<std::uint8_t>((std::istreambuf_iterator<char>(in)),
                                     std::istreambuf_iterator<char>());
}

std::string lastLine(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return {};
    in.seekg(0, std::ios::end);
    const std::streamoff size = in.tellg();
    const std::streamoff from = size > 4096 ? size - 4096 : 0;
    in.seekg(from);
    std::string tail((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    // Only complete lines count: the solver may be half-way through writing the next one.
    const auto end = tail.rfind('\n');
    if (end == std::string::npos)
        return {};
    const auto begin = tail.rfind('\n', end == 0 ? 0 : end - 1);
    if (end == 0)
        return {};
    return tail.substr(begin == std::string::npos ? 0 : begin + 1,
                       end - (begin == std::string::npos ? 0 : begin + 1));
}

nlohmann::json qualityToJson(const Solver::MeshQuality &q)
{
    return {{"ok", q.ok},
            {"metric", q.metric},
            {"worst_value", q.worstValue},
            {"limit", q.limit},
            {"bad_cells", q.badCells},
            {"location", q.location},
            {"description", q.description}};
}

Solver::MeshQuality qualityFromJson(const nlohmann::json &j)
{
    Solver::MeshQuality q;
    if (!j.is_object())
        return q;
    const auto text = [&](const char *key) {
        const auto it = j.find(key);
        return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
    };
    const auto number = [&](const char *key) {
        const auto it = j.find(key);
        return it != j.end() && it->is_number() ? it->get<double>() : 0.0;
    };
    q.ok = j.value("ok", false);
    q.metric = text("metric");
    q.worstValue = number("worst_value");
    q.limit = number("limit");
    q.badCells = int(number("bad_cells"));
    q.location = text("location");
    q.description = text("description");
    return q;
}

} // namespace Eddy::Server::CaseFolder
