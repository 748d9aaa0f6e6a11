#include "server/conformancefixtures.h"

#include "server/mcphandler.h"

#include <algorithm>

namespace Eddy::Server::ConformanceFixtures {

using nlohmann::json;

namespace {

json objectSchema(json properties = json::object(), json required = json::array())
{
    json schema = {{"type", "object"}, {"properties", std::move(properties)}};
    if (!required.empty())
        schema["required"] = std::move(required);
    return schema;
}

json tool(const char *name, const char *description, json inputSchema)
{
    return {{"name", name},
            {"description", description},
            {"inputSchema", std::move(inputSchema)},
            {"execution", {{"taskSupport", "forbidden"}}}};
}

// The suite's JSON Schema 2020-12 keyword-preservation fixture (json-schema-2020-12 scenario).
json jsonSchema202012()
{
    return json::parse(R"({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "$defs": {"address": {"$anchor": "addressDef", "type": "object",
                              "properties": {"street": {"type": "string"},
                                             "city": {"type": "string"}}}},
        "properties": {"name": {"type": "string"},
                       "address": {"$ref": "#/$defs/address"},
                       "contactMethod": {"type": "string", "enum": ["phone", "email"]},
                       "phone": {"type": "string"},
                       "email": {"type": "string"}},
        "allOf": [{"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}],
        "if": {"properties": {"contactMethod": {"const": "phone"}}, "required": ["contactMethod"]},
        "then": {"required": ["phone"]},
        "else": {"required": ["email"]},
        "additionalProperties": false
    })");
}

const json &definitions()
{
    static const json all = json::array({
        tool("greet", "Returns 'Hello, {name}!' at once (no task).",
             objectSchema({{"name", {{"type", "string"}}}})),
        tool("test_missing_capability",
             "Needs the client's sampling capability; without it the call is -32021.",
             objectSchema()),
        tool("test_streaming_elicitation",
             "Answers with a complete result; this server never sends a request on a response "
             "stream.",
             objectSchema()),
        tool("test_logging_tool",
             "Answers with a complete result and no notifications/message (no _meta logLevel).",
             objectSchema()),
        tool("json_schema_2020_12_tool", "Echoes its arguments; its inputSchema uses 2020-12.",
             jsonSchema202012()),
        tool("test_custom_header",
             "Echoes 'region', which the client mirrors into the Mcp-Param-Region header.",
             objectSchema({{"region", {{"type", "string"}, {"x-mcp-header", "Region"}}}},
                          json::array({"region"}))),
    });
    return all;
}

const json *definition(const std::string &name)
{
    const json &all = definitions();
    const auto it = std::find_if(all.begin(), all.end(),
                                 [&](const json &t) { return t["name"] == name; });
    return it == all.end() ? nullptr : &*it;
}

json textResult(const std::string &text, bool isError = false)
{
    json result = {{"resultType", "complete"},
                   {"content", json::array({{{"type", "text"}, {"text", text}}})}};
    if (isError)
        result["isError"] = true;
    return result;
}

Outcome headerMismatch(const std::string &message)
{
    Outcome out;
    out.httpStatus = 400;
    out.error = {{"code", -32020}, {"message", "Header mismatch: " + message}};
    return out;
}

// SEP-2243 custom headers: each argument annotated x-mcp-header NAME travels in Mcp-Param-NAME
// too (strings as-is, integers in decimal, booleans as true/false), omitted when absent or null.
bool checkParamHeaders(const json &inputSchema, const json &arguments, const HttpRequest &req,
                       Outcome &failure)
{
    const json properties = inputSchema.value("properties", json::object());
    for (const auto &[param, schema] : properties.items()) {
        if (!schema.is_object() || !schema.contains("x-mcp-header"))
            continue;
        const std::string header = "Mcp-Param-" + schema["x-mcp-header"].get<std::string>();
        const json value = arguments.is_object() ? arguments.value(param, json()) : json();
        const std::string *raw = req.header(header);
        if (value.is_null()) {
            if (raw) {
                failure = headerMismatch(header + " is present but argument '" + param
                                         + "' is not; send the header only with the argument");
                return false;
            }
            continue;
        }
        if (!raw) {
            failure = headerMismatch("the " + header + " header is missing; it must carry the "
                                     "value of argument '" + param + "'");
            return false;
        }
        std::string decoded;
        if (!McpHandler::decodeHeaderValue(*raw, decoded)) {
            failure = headerMismatch("the " + header + " header has a malformed =?base64?...?= "
                                     "value (standard Base64 with padding)");
            return false;
        }
        const std::string expected = value.is_string() ? value.get<std::string>() : value.dump();
        if (decoded != expected) {
            failure = headerMismatch(header + " value '" + decoded + "' does not match argument '"
                                     + param + "'");
            return false;
        }
    }
    return true;
}

} // namespace

json tools()
{
    return definitions();
}

bool isTool(const std::string &name)
{
    return definition(name) != nullptr;
}

Outcome call(const std::string &name, const json &arguments, const json &clientCapabilities,
             const HttpRequest &req)
{
    const json *def = definition(name);
    Outcome out;
    if (!def) {
        out.error = {{"code", -32602}, {"message", "Unknown tool: " + name}};
        return out;
    }
    if (!checkParamHeaders((*def)["inputSchema"], arguments, req, out))
        return out;
    const json args = arguments.is_object() ? arguments : json::object();
    if (name == "greet") {
        const json who = args.value("name", json());
        out.result = who.is_string() ? textResult("Hello, " + who.get<std::string>() + "!")
                                     : textResult("Hello, World!");
    } else if (name == "test_missing_capability") {
        if (!clientCapabilities.is_object() || !clientCapabilities.contains("sampling")) {
            out.httpStatus = 400;
            out.error = {{"code", -32021},
                         {"message", "Missing required client capability: this tool needs "
                                     "sampling; declare it in _meta "
                                     "io.modelcontextprotocol/clientCapabilities"},
                         {"data", {{"requiredCapabilities", {{"sampling", json::object()}}}}}};
            return out;
        }
        out.result = textResult("sampling is declared");
    } else if (name == "test_streaming_elicitation") {
        out.result = textResult("no input needed");
    } else if (name == "test_logging_tool") {
        out.result = textResult("done without logging");
    } else if (name == "json_schema_2020_12_tool") {
        out.result = textResult(args.dump());
    } else if (name == "test_custom_header") {
        out.result = textResult("region " + args.value("region", json("")).dump());
    }
    return out;
}

} // namespace Eddy::Server::ConformanceFixtures
