// A small JSON reader (objects, arrays, strings with escapes, numbers, literals), enough
// for rank-table files. Numbers keep their source text.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace npusim::hcomm {

struct JsonValue {
    enum class Kind { Null, Bool, Number, String, Array, Object } kind = Kind::Null;
    bool boolean = false;
    std::string text;  // string contents, or a number's source text
    std::vector<JsonValue> items;
    std::map<std::string, JsonValue> members;

    const JsonValue* get(const std::string& key) const;
    // A string or number as an unsigned integer; false otherwise.
    bool as_uint(unsigned long long& out) const;
};

// Parses a whole document; false with `error` (and its byte offset) when malformed.
bool parse_json(const std::string& text, JsonValue& out, std::string& error);

}  // namespace npusim::hcomm
