// A parser for the TOML subset the simulator's data and config files use:
// [table.name] / [table."quoted name"] headers, [[array]] tables, key = value with
// strings, integers, floats and booleans, and # comments. Nothing else.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "core/export.h"

namespace npusim {

using TomlValue = std::variant<std::string, int64_t, double, bool>;

struct NPUSIM_API TomlTable {
    std::map<std::string, TomlValue> values;
    int line = 0;  // where the table header stands, for messages

    bool has(const std::string& key) const { return values.count(key) != 0; }
    std::optional<std::string> get_string(const std::string& key) const;
    std::optional<int64_t> get_int(const std::string& key) const;
    std::optional<double> get_number(const std::string& key) const;  // int or float
    std::optional<bool> get_bool(const std::string& key) const;
};

struct NPUSIM_API TomlDocument {
    // Tables by dotted path of their header ("" is the root table). Parts are unquoted.
    std::map<std::string, TomlTable> tables;
    // Arrays of tables by name, in file order.
    std::map<std::string, std::vector<TomlTable>> arrays;

    const TomlTable* table(const std::string& path) const;
    // Direct sub-tables of `prefix` ("soc" -> {"Ascend910B3": ...}).
    std::vector<std::pair<std::string, const TomlTable*>> children(const std::string& prefix) const;
};

// Parses `text`. On failure returns false and sets `error` to "line N: what is wrong".
NPUSIM_API bool parse_toml(const std::string& text, TomlDocument& out, std::string& error);

}  // namespace npusim
