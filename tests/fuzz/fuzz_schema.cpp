// requestedSchema / inputSchema -> form fields: any JSON must give a field tree whose shape matches
// its kind, and validation must accept what the form itself offers (enum options, no value for an
// optional field) and refuse a missing required value.
#include "models/schemafield.h"
#include "tests/fuzz/fuzzcheck.h"

#include <cstddef>
#include <cstdint>

using Eddy::SchemaField;
using nlohmann::json;

namespace {

void check(const SchemaField &f, int depth)
{
    FUZZ_CHECK(depth < 10000);
    FUZZ_CHECK(!f.title.isEmpty() || f.name.empty());
    FUZZ_CHECK(!SchemaField::kindName(f.kind).isEmpty());
    if (f.kind == SchemaField::Kind::Enum)
        FUZZ_CHECK(!f.options.empty());
    if (f.kind == SchemaField::Kind::Object)
        FUZZ_CHECK(!f.children.empty());
    else
        FUZZ_CHECK(f.children.empty());
    if (f.kind == SchemaField::Kind::Array)
        FUZZ_CHECK(f.itemKind != SchemaField::Kind::Json && f.itemKind != SchemaField::Kind::Object
                   && f.itemKind != SchemaField::Kind::Array);
    if (f.minLength)
        FUZZ_CHECK(*f.minLength >= 0);
    if (f.maxLength)
        FUZZ_CHECK(*f.maxLength >= 0);

    // No value: fine when optional, one clear message when required.
    const QStringList none = f.validate(json());
    FUZZ_CHECK(f.required ? none.size() == 1 && !none.front().isEmpty() : none.isEmpty());
    // Every offered option is accepted.
    if (f.kind == SchemaField::Kind::Enum) {
        for (const auto &o : f.options) {
            FUZZ_CHECK(!f.optionTitle(o.value).isNull());
            if (!o.value.is_null())
                FUZZ_CHECK(f.validate(o.value).isEmpty());
        }
    }
    // Whatever the default and a few wrong types give, every message says something.
    for (const json &v : {f.defaultValue, json("x"), json(1.5), json(-3), json(true),
                          json::array({1, "a"}), json::object({{"k", 1}})}) {
        for (const QString &m : f.validate(v))
            FUZZ_CHECK(!m.isEmpty());
    }
    if (f.kind == SchemaField::Kind::Object) {
        const json props = f.schema.value("properties", json::object());
        for (const SchemaField &c : f.children) {
            FUZZ_CHECK(props.contains(c.name));
            check(c, depth + 1);
        }
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const json doc = json::parse(data, data + size, nullptr, /*allow_exceptions=*/false);
    if (doc.is_discarded())
        return 0;
    // An elicitation's params carry the schema under requestedSchema; a tool's under inputSchema.
    json schema = doc;
    if (doc.is_object()) {
        if (auto it = doc.find("requestedSchema"); it != doc.end())
            schema = *it;
        else if (auto it2 = doc.find("inputSchema"); it2 != doc.end())
            schema = *it2;
    }
    const SchemaField root = SchemaField::fromSchema(schema);
    FUZZ_CHECK(root.name.empty());
    check(root, 0);
    return 0;
}
