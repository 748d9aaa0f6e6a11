// Differential fuzzing of the server's tasks/get scanner (Server::PollScanner), for any bytes:
//  - against the recursive scanner it replaced (tests/server/pollscannerreference.h): the same
//    verdict, and for a plain body the same fields as the very same bytes of the body;
//  - against nlohmann: whatever the scanner calls plain, nlohmann parses to an object with the
//    same jsonrpc, id, method, params.taskId, _meta protocol version and flags.
// The scanner reads 16 bytes at a time and relies on the body's last '}' to stop its loops:
// libFuzzer hands over a heap buffer of exactly the input's size, so ASan reports any read
// past the body.
#include "server/pollscanner.h"
#include "tests/fuzz/fuzzcheck.h"
#include "tests/server/pollscannerreference.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

using Eddy::Server::PollScanner;
using nlohmann::json;

namespace {

bool sameView(std::string_view a, std::string_view b)
{
    return a.data() == b.data() && a.size() == b.size();
}

// The string member `key` of o as the scanner reports it: empty when absent.
bool sameString(const json &o, const char *key, std::string_view seen)
{
    const auto it = o.find(key);
    if (it == o.end())
        return seen.empty();
    return it->is_string() && it->get_ref<const std::string &>() == seen;
}

bool isObjectMember(const json &o, const char *key)
{
    const auto it = o.find(key);
    return it != o.end() && it->is_object();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const std::string_view body(reinterpret_cast<const char *>(data), size);
    PollScanner::Fields f, r;
    const bool plain = PollScanner::scan(body, f);
    FUZZ_CHECK(plain == Eddy::Test::PollScannerReference::scan(body, r));
    if (!plain)
        return 0;
    FUZZ_CHECK(sameView(f.jsonrpc, r.jsonrpc) && sameView(f.id, r.id)
               && sameView(f.method, r.method) && sameView(f.taskId, r.taskId)
               && sameView(f.protocolVersion, r.protocolVersion));
    FUZZ_CHECK(f.hasParams == r.hasParams && f.hasMeta == r.hasMeta
               && f.hasCapabilities == r.hasCapabilities && f.declaresTasks == r.declaresTasks);

    const json j = json::parse(body, nullptr, false);
    FUZZ_CHECK(!j.is_discarded() && j.is_object());
    FUZZ_CHECK(sameString(j, "jsonrpc", f.jsonrpc) && sameString(j, "method", f.method));
    if (const auto id = j.find("id"); id != j.end())
        FUZZ_CHECK((id->is_string() || id->is_number_integer()) && id->dump() == f.id);
    else
        FUZZ_CHECK(f.id.empty());
    FUZZ_CHECK(isObjectMember(j, "params") == f.hasParams);
    if (!f.hasParams)
        return 0;
    const json &params = j["params"];
    FUZZ_CHECK(sameString(params, "taskId", f.taskId));
    FUZZ_CHECK(isObjectMember(params, "_meta") == f.hasMeta);
    if (!f.hasMeta)
        return 0;
    const json &meta = params["_meta"];
    FUZZ_CHECK(sameString(meta, "io.modelcontextprotocol/protocolVersion", f.protocolVersion));
    FUZZ_CHECK(isObjectMember(meta, "io.modelcontextprotocol/clientCapabilities")
               == f.hasCapabilities);
    bool declares = false;
    if (f.hasCapabilities) {
        const json &caps = meta["io.modelcontextprotocol/clientCapabilities"];
        declares = isObjectMember(caps, "extensions")
                   && isObjectMember(caps["extensions"], "io.modelcontextprotocol/tasks");
    }
    FUZZ_CHECK(declares == f.declaresTasks);
    return 0;
}
