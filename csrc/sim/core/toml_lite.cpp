#include "core/toml_lite.h"

#include <cctype>
#include <cerrno>
#include <cstdlib>

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

class Parser {
public:
    Parser(const std::string& text, TomlDocument& doc) : text_(text), doc_(doc) {}

    bool run(std::string& error) {
        current_ = &doc_.tables[""];
        while (pos_ < text_.size()) {
            ++line_;
            size_t end = text_.find('\n', pos_);
            if (end == std::string::npos) end = text_.size();
            std::string line = text_.substr(pos_, end - pos_);
            pos_ = end + 1;
            if (!line.empty() && line.back() == '\r') line.pop_back();
            if (!parse_line(line)) {
                error = "line " + std::to_string(line_) + ": " + error_;
                return false;
            }
        }
        return true;
    }

private:
    static void skip_space(const std::string& s, size_t& i) {
        while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
    }

    bool rest_is_comment(const std::string& s, size_t i) {
        skip_space(s, i);
        if (i < s.size() && s[i] != '#') return fail("unexpected text after the value: '" + s.substr(i) + "'");
        return true;
    }

    bool fail(const std::string& what) {
        error_ = what;
        return false;
    }

    bool parse_quoted(const std::string& s, size_t& i, std::string& out) {
        ++i;  // opening quote
        out.clear();
        while (i < s.size() && s[i] != '"') {
            if (s[i] == '\\') {
                if (i + 1 >= s.size()) return fail("unfinished escape in a string");
                char c = s[i + 1];
                if (c == '"' || c == '\\') out.push_back(c);
                else if (c == 'n') out.push_back('\n');
                else if (c == 't') out.push_back('\t');
                else return fail(std::string("unsupported escape \\") + c);
                i += 2;
            } else {
                out.push_back(s[i++]);
            }
        }
        if (i >= s.size()) return fail("unterminated string");
        ++i;  // closing quote
        return true;
    }

    bool parse_key_part(const std::string& s, size_t& i, std::string& out) {
        skip_space(s, i);
        if (i < s.size() && s[i] == '"') return parse_quoted(s, i, out);
        size_t start = i;
        while (i < s.size() && (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '_' || s[i] == '-')) ++i;
        if (i == start) return fail("expected a key");
        out = s.substr(start, i - start);
        return true;
    }

    bool parse_header_path(const std::string& s, size_t& i, char close, std::string& path) {
        path.clear();
        for (;;) {
            std::string part;
            if (!parse_key_part(s, i, part)) return false;
            if (!path.empty()) path.push_back('\x1f');
            path += part;
            skip_space(s, i);
            if (i < s.size() && s[i] == '.') {
                ++i;
                continue;
            }
            if (i < s.size() && s[i] == close) return true;
            return fail("malformed table header");
        }
    }

    bool parse_value(const std::string& s, size_t& i, TomlValue& out) {
        skip_space(s, i);
        if (i >= s.size()) return fail("missing value");
        if (s[i] == '"') {
            std::string str;
            if (!parse_quoted(s, i, str)) return false;
            out = str;
            return true;
        }
        size_t start = i;
        while (i < s.size() && s[i] != '#' && s[i] != ' ' && s[i] != '\t') ++i;
        std::string tok = s.substr(start, i - start);
        if (tok == "true" || tok == "false") {
            out = (tok == "true");
            return true;
        }
        std::string digits;
        for (char c : tok) if (c != '_') digits.push_back(c);
        if (digits.empty()) return fail("missing value");
        const bool is_float = digits.find_first_of(".eE") != std::string::npos &&
                              digits.rfind("0x", 0) != 0 && digits.rfind("-0x", 0) != 0;
        errno = 0;
        char* end = nullptr;
        if (is_float) {
            double v = std::strtod(digits.c_str(), &end);
            if (*end != '\0' || errno != 0) return fail("not a number: '" + tok + "'");
            out = v;
        } else {
            long long v = std::strtoll(digits.c_str(), &end, 0);
            if (*end != '\0' || errno != 0) {
                // Values above INT64_MAX (e.g. a 64-bit seed) are kept by their bit pattern.
                errno = 0;
                unsigned long long u = std::strtoull(digits.c_str(), &end, 0);
                if (*end != '\0' || errno != 0 || digits[0] == '-') return fail("not a value: '" + tok + "'");
                v = static_cast<long long>(u);
            }
            out = static_cast<int64_t>(v);
        }
        return true;
    }

    bool parse_line(const std::string& s) {
        size_t i = 0;
        skip_space(s, i);
        if (i >= s.size() || s[i] == '#') return true;
        if (s[i] == '[') {
            const bool array = i + 1 < s.size() && s[i + 1] == '[';
            i += array ? 2 : 1;
            std::string path;
            if (!parse_header_path(s, i, ']', path)) return false;
            ++i;
            if (array) {
                if (i >= s.size() || s[i] != ']') return fail("array table header must end with ]]");
                ++i;
                auto& vec = doc_.arrays[path];
                vec.emplace_back();
                vec.back().line = line_;
                current_ = &vec.back();
            } else {
                if (doc_.tables.count(path)) return fail("table defined twice");
                current_ = &doc_.tables[path];
                current_->line = line_;
            }
            return rest_is_comment(s, i);
        }
        std::string key;
        if (!parse_key_part(s, i, key)) return false;
        skip_space(s, i);
        if (i >= s.size() || s[i] != '=') return fail("expected '=' after key '" + key + "'");
        ++i;
        TomlValue value;
        if (!parse_value(s, i, value)) return false;
        if (current_->values.count(key)) return fail("key '" + key + "' set twice");
        current_->values[key] = value;
        return rest_is_comment(s, i);
    }

    const std::string& text_;
    TomlDocument& doc_;
    TomlTable* current_ = nullptr;
    size_t pos_ = 0;
    int line_ = 0;
    std::string error_;
};

}  // namespace

bool parse_toml(const std::string& text, TomlDocument& out, std::string& error) {
    out = TomlDocument{};
    Parser parser(text, out);
    return parser.run(error);
}

}  // namespace npusim
