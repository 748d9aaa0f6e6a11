#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

namespace Eddy::Mcp {

// One JSON value kept as the exact text it arrived as, for members that are large and rarely
// read (a task's elicitation forms): ~1 KB of text instead of a ~4 KB tree per tracked task.
// Immutable and implicitly shared, so copies are cheap; the tree is built only when asked for.
// Any thread: the text never changes and tree() builds its cache once under std::call_once.
class RawJson final
{
public:
    RawJson() = default;
    RawJson(std::nullptr_t) {}
    // Keeps value.dump(). Assignment from a tree and reading as a tree are implicit, so code
    // written for a json member compiles unchanged; constructing is not, so that a mixed
    // `cond ? json : RawJson` resolves to json.
    explicit RawJson(const nlohmann::json &value);
    RawJson &operator=(const nlohmann::json &value) { return *this = RawJson(value); }
    RawJson &operator=(std::nullptr_t) { return *this = RawJson(); }
    operator const nlohmann::json &() const { return tree(); }
    // `text` must be one complete JSON value (the SAX reader has just validated it); its bytes
    // are kept unchanged. "null" (or nothing) is the null value.
    static RawJson fromText(std::string_view text);

    bool is_null() const { return !m_data; }
    bool is_object() const { return m_data && m_data->text.front() == '{'; }
    // The bytes as received; empty for null.
    std::string_view text() const
    {
        return m_data ? std::string_view(m_data->text) : std::string_view();
    }
    // A fresh tree on every call: for one-off readers that should not make this value grow.
    nlohmann::json parsed() const;
    // The tree, built on first use and kept for as long as any copy lives (dialogs, tests).
    const nlohmann::json &tree() const;

    // Read access shaped like nlohmann::json's, all through tree().
    std::size_t size() const { return tree().size(); }
    bool empty() const { return tree().empty(); }
    bool contains(const std::string &key) const { return tree().contains(key); }
    const nlohmann::json &operator[](const std::string &key) const { return tree()[key]; }
    const nlohmann::json &operator[](const char *key) const { return tree()[key]; }
    nlohmann::json::const_iterator begin() const { return tree().begin(); }
    nlohmann::json::const_iterator end() const { return tree().end(); }
    std::string dump() const { return tree().dump(); }

    // Equal as JSON values. Identical text (the usual case: the same form polled again)
    // compares without parsing.
    friend bool operator==(const RawJson &a, const RawJson &b);
    friend bool operator==(const RawJson &a, const nlohmann::json &b) { return a.parsed() == b; }

private:
    struct Data
    {
        explicit Data(std::string t)
            : text(std::move(t))
        {}
        std::string text;
        mutable std::once_flag parsedOnce;
        mutable nlohmann::json tree;
    };
    std::shared_ptr<const Data> m_data;
};

} // namespace Eddy::Mcp
