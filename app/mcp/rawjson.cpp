#include "app/mcp/rawjson.h"

namespace Eddy::Mcp {

using nlohmann::json;

RawJson::RawJson(const json &value)
{
    if (!value.is_null())
        m_data = std::make_shared<const Data>(value.dump());
}

RawJson RawJson::fromText(std::string_view text)
{
    const auto first = text.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos)
        return {};
    text = text.substr(first, text.find_last_not_of(" \t\r\n") - first + 1);
    RawJson raw;
    if (text != "null")
        raw.m_data = std::make_shared<const Data>(std::string(text));
    return raw;
}

json RawJson::parsed() const
{
    if (!m_data)
        return nullptr;
    // Text comes from dump() or from a validated parse; a discarded value would mean a caller
    // broke fromText's contract, and reads as null rather than throwing.
    json tree = json::parse(m_data->text, nullptr, false);
    return tree.is_discarded() ? json() : tree;
}

const json &RawJson::tree() const
{
    static const json s_null;
    if (!m_data)
        return s_null;
    std::call_once(m_data->parsedOnce, [this] { m_data->tree = parsed(); });
    return m_data->tree;
}

bool operator==(const RawJson &a, const RawJson &b)
{
    if (a.m_data == b.m_data)
        return true;
    if (!a.m_data || !b.m_data)
        return false;
    return a.m_data->text == b.m_data->text || a.parsed() == b.parsed();
}

} // namespace Eddy::Mcp
