// A JSON string literal of any text: the one escaping rule of every JSON file our native parts
// write (libmsprofiler's PROF_* raw data, the trace collector's capture metadata). Header-only, in
// the lowest layer, so that each part includes it without linking anything.
#pragma once

#include <string>
#include <string_view>

namespace npusim::text {

// `text` quoted, with '"' and '\' escaped and control characters as \u00XX; other bytes as they
// are (UTF-8 passes through unchanged).
inline std::string json_string(std::string_view text) {
    static constexpr char kHex[] = "0123456789abcdef";
    std::string out;
    out.reserve(text.size() + 2);
    out.push_back('"');
    for (const char ch : text) {
        const auto c = static_cast<unsigned char>(ch);
        if (c == '"' || c == '\\') {
            out.push_back('\\');
            out.push_back(ch);
        } else if (c < 0x20) {
            out += "\\u00";
            out.push_back(kHex[c >> 4]);
            out.push_back(kHex[c & 0xf]);
        } else {
            out.push_back(ch);
        }
    }
    out.push_back('"');
    return out;
}

// A C string (null: the empty string), as msPTI records give names.
inline std::string json_string(const char* text) { return json_string(std::string_view(text != nullptr ? text : "")); }

}  // namespace npusim::text
