#pragma once

#include <QString>
#include <QStringList>

#include <nlohmann/json.hpp>

#include <optional>
#include <vector>

namespace Eddy::Monitor {

// One varied parameter of a sweep: an explicit list, a range with a step (grid mode), or a
// min/max interval (Latin hypercube mode).
struct SweepAxis
{
    enum class Kind { List, Range, Interval };
    QString name;
    Kind kind = Kind::List;
    std::vector<nlohmann::json> values; // List
    double from = 0, to = 0, step = 0;  // Range (inclusive of `to` when it falls on a step)
    double min = 0, max = 0;            // Interval
};

// A parsed sweep spec file (docs/sweeps.md). Value type; any thread.
struct SweepSpec
{
    enum class Mode { Grid, LatinHypercube };
    QString tool;
    nlohmann::json fixed = nlohmann::json::object();
    // Sorted by argument name (the last varies fastest): the cases' order and a seed's Latin
    // hypercube points do not depend on how the file lists them.
    std::vector<SweepAxis> axes;
    QStringList variedOrder;            // the varied names as the file lists them
    Mode mode = Mode::Grid;
    int samples = 0;                    // lhs
    quint64 seed = 1;                   // lhs
    int concurrency = 4;
    QString description;                // free text, stored with the sweep
    nlohmann::ordered_json raw;         // the file as read, in its order; stored with the sweep

    // Parses and checks the file's own shape (not the tool's schema); on failure returns
    // nullopt and sets *error to a sentence naming the offending key.
    static std::optional<SweepSpec> fromJson(const nlohmann::ordered_json &json, QString *error);
    static std::optional<SweepSpec> fromJson(const nlohmann::json &json, QString *error);
    static std::optional<SweepSpec> fromText(const QByteArray &text, QString *error);
};

} // namespace Eddy::Monitor
