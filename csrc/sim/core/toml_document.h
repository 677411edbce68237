// The simulator's view of a TOML file (its data files and NPU_SIM_CONFIG): every table by its dotted
// path, every array of tables by its path, each with its scalar values. parse_toml reads TOML 1.0
// with toml++ (cmake/third_party.cmake); toml_document.cpp is the one unit that includes it.
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
    // Tables by path ("" is the root table), the parts of a path joined by '\x1f' and unquoted. A
    // table that holds only sub-tables (the "soc" of [soc.X]) is here too, without values.
    std::map<std::string, TomlTable> tables;
    // Arrays of tables by path, in file order.
    std::map<std::string, std::vector<TomlTable>> arrays;

    const TomlTable* table(const std::string& path) const;
    // Direct sub-tables of `prefix` ("soc" -> {"Ascend910B3": ...}).
    std::vector<std::pair<std::string, const TomlTable*>> children(const std::string& prefix) const;
};

// Parses `text`. On failure returns false and sets `error` to "line N: what is wrong". Values other
// than strings, integers, floats and booleans (arrays of values, dates and times) are refused there
// too: no file of the simulator uses them.
NPUSIM_API bool parse_toml(const std::string& text, TomlDocument& out, std::string& error);

}  // namespace npusim
