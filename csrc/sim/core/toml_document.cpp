#include "core/toml_document.h"

#ifdef NPU_SIM_NO_TOMLPP
#error "toml++ was not found when the build was configured: see its warning (cmake/third_party.cmake)"
#endif
#include <toml++/toml.hpp>

namespace npusim {

std::optional<std::string> TomlTable::get_string(const std::string& key) const {
    auto it = values.find(key);
    if (it == values.end() || !std::holds_alternative<std::string>(it->second)) return std::nullopt;
    return std::get<std::string>(it->second);
}

std::optional<int64_t> TomlTable::get_int(const std::string& key) const {
    auto it = values.find(key);
    if (it == values.end() || !std::holds_alternative<int64_t>(it->second)) return std::nullopt;
    return std::get<int64_t>(it->second);
}

std::optional<double> TomlTable::get_number(const std::string& key) const {
    auto it = values.find(key);
    if (it == values.end()) return std::nullopt;
    if (std::holds_alternative<double>(it->second)) return std::get<double>(it->second);
    if (std::holds_alternative<int64_t>(it->second)) return static_cast<double>(std::get<int64_t>(it->second));
    return std::nullopt;
}

std::optional<bool> TomlTable::get_bool(const std::string& key) const {
    auto it = values.find(key);
    if (it == values.end() || !std::holds_alternative<bool>(it->second)) return std::nullopt;
    return std::get<bool>(it->second);
}

const TomlTable* TomlDocument::table(const std::string& path) const {
    auto it = tables.find(path);
    return it == tables.end() ? nullptr : &it->second;
}

std::vector<std::pair<std::string, const TomlTable*>> TomlDocument::children(const std::string& prefix) const {
    std::vector<std::pair<std::string, const TomlTable*>> out;
    const std::string head = prefix + "\x1f";
    for (const auto& [path, table] : tables) {
        if (path.compare(0, head.size(), head) == 0 && path.find('\x1f', head.size()) == std::string::npos) {
            out.emplace_back(path.substr(head.size()), &table);
        }
    }
    return out;
}

namespace {

constexpr char kPathSeparator = '\x1f';

std::string join(const std::string& path, const std::string& key) {
    return path.empty() ? key : path + kPathSeparator + key;
}

std::string at_line(const toml::source_region& where, const std::string& what) {
    return "line " + std::to_string(where.begin.line) + ": " + what;
}

bool fill(const toml::table& in, const std::string& path, TomlTable& table, TomlDocument& doc, std::string& error);

// One value of `table`: a scalar is kept, a sub-table and an array of tables are walked.
bool take(const std::string& key, const toml::node& node, const std::string& path, TomlTable& table, TomlDocument& doc,
          std::string& error) {
    if (const auto* s = node.as_string()) table.values[key] = s->get();
    else if (const auto* i = node.as_integer()) table.values[key] = i->get();
    else if (const auto* f = node.as_floating_point()) table.values[key] = f->get();
    else if (const auto* b = node.as_boolean()) table.values[key] = b->get();
    else if (const auto* sub = node.as_table()) {
        const std::string sub_path = join(path, key);
        TomlTable& out = doc.tables[sub_path];
        out.line = static_cast<int>(sub->source().begin.line);
        return fill(*sub, sub_path, out, doc, error);
    } else if (const auto* array = node.as_array();
               array != nullptr && array->is_array_of_tables() && !array->empty()) {
        const std::string sub_path = join(path, key);
        auto& tables = doc.arrays[sub_path];
        for (const toml::node& element : *array) {
            tables.emplace_back();
            tables.back().line = static_cast<int>(element.source().begin.line);
            if (!fill(*element.as_table(), sub_path, tables.back(), doc, error)) return false;
        }
    } else {
        error = at_line(node.source(), "key '" + key +
                                           "': give a string, a number or a boolean (arrays of values, dates and "
                                           "times are read nowhere in the simulator)");
        return false;
    }
    return true;
}

bool fill(const toml::table& in, const std::string& path, TomlTable& table, TomlDocument& doc, std::string& error) {
    for (const auto& [key, node] : in) {
        if (!take(std::string(key.str()), node, path, table, doc, error)) return false;
    }
    return true;
}

}  // namespace

bool parse_toml(const std::string& text, TomlDocument& out, std::string& error) {
    out = TomlDocument{};
    toml::table root;
    try {
        root = toml::parse(text);
    } catch (const toml::parse_error& e) {
        error = at_line(e.source(), std::string(e.description()));
        return false;
    }
    TomlTable& top = out.tables[""];
    top.line = 1;
    return fill(root, "", top, out, error);
}

}  // namespace npusim
