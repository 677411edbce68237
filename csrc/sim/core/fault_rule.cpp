#include "core/fault_rule.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <utility>

namespace npusim {

namespace {

std::string trim(const std::string& s) {
    size_t b = 0, e = s.size();
    while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
    while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
    return s.substr(b, e - b);
}

bool parse_int(const std::string& s, int64_t& out) {
    if (s.empty()) return false;
    char* end = nullptr;
    errno = 0;
    long long v = std::strtoll(s.c_str(), &end, 0);
    if (*end != '\0' || errno != 0) return false;
    out = v;
    return true;
}

bool parse_count(const std::string& s, uint64_t& out) {
    int64_t v = 0;
    if (!parse_int(s, v) || v < 1) return false;
    out = static_cast<uint64_t>(v);
    return true;
}

bool parse_duration(const std::string& s, int64_t& ns) {
    static const std::pair<const char*, int64_t> kUnits[] = {
        {"ns", 1}, {"us", 1000}, {"ms", 1000000}, {"s", 1000000000}};
    for (const auto& [unit, scale] : kUnits) {
        const size_t n = std::char_traits<char>::length(unit);
        if (s.size() > n && s.compare(s.size() - n, n, unit) == 0) {
            int64_t v = 0;
            std::string num = s.substr(0, s.size() - n);
            // A delay past 64-bit nanoseconds (some 292 years) is refused, not wrapped.
            if (!num.empty() && std::isdigit(static_cast<unsigned char>(num.back())) && parse_int(num, v) && v >= 0 &&
                v <= INT64_MAX / scale) {
                ns = v * scale;
                return true;
            }
        }
    }
    return false;
}

bool parse_rule(const std::string& raw, FaultRule& rule, std::string& error) {
    const std::string form =
        "expected FUNCTION:ACTION[@WHEN] with ACTION error=INT|delay=DURATION|short=INT|garble|stall "
        "and WHEN N|N+|N-M|every=K";
    const size_t colon = raw.find(':');
    if (colon == std::string::npos) return error = "fault rule '" + raw + "': " + form, false;
    rule.function = trim(raw.substr(0, colon));
    if (rule.function.empty() ||
        !(std::isalpha(static_cast<unsigned char>(rule.function[0])) || rule.function[0] == '_'))
        return error = "fault rule '" + raw + "': function must be a C identifier; " + form, false;
    for (char c : rule.function) {
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_'))
            return error = "fault rule '" + raw + "': function must be a C identifier; " + form, false;
    }
    std::string rest = raw.substr(colon + 1);
    std::string when;
    const size_t at = rest.find('@');
    if (at != std::string::npos) {
        when = trim(rest.substr(at + 1));
        rest = rest.substr(0, at);
    }
    const std::string action = trim(rest);
    const size_t eq = action.find('=');
    const std::string verb = trim(action.substr(0, eq));
    const std::string arg = eq == std::string::npos ? "" : trim(action.substr(eq + 1));
    bool ok = false;
    if (verb == "error") {
        rule.action = FaultAction::Error;
        ok = parse_int(arg, rule.value);
    } else if (verb == "delay") {
        rule.action = FaultAction::Delay;
        ok = parse_duration(arg, rule.value);
    } else if (verb == "short") {
        rule.action = FaultAction::Short;
        ok = parse_int(arg, rule.value) && rule.value >= 0;
    } else if (verb == "garble" || verb == "stall") {
        rule.action = verb == "garble" ? FaultAction::Garble : FaultAction::Stall;
        ok = eq == std::string::npos;
    }
    if (!ok) return error = "fault rule '" + raw + "': bad action '" + action + "'; " + form, false;
    if (!when.empty()) {
        bool when_ok = false;
        if (when.rfind("every=", 0) == 0) {
            when_ok = parse_count(when.substr(6), rule.every);
        } else if (when.back() == '+') {
            when_ok = parse_count(when.substr(0, when.size() - 1), rule.first);
        } else if (when.find('-') != std::string::npos) {
            const size_t dash = when.find('-');
            when_ok = parse_count(when.substr(0, dash), rule.first) && parse_count(when.substr(dash + 1), rule.last) &&
                      rule.first <= rule.last;
        } else {
            when_ok = parse_count(when, rule.first);
            rule.last = rule.first;
        }
        if (!when_ok) return error = "fault rule '" + raw + "': bad call selector '" + when + "'; " + form, false;
    }
    return true;
}

size_t edit_distance(const std::string& a, const std::string& b) {
    std::vector<size_t> row(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (size_t i = 1; i <= a.size(); ++i) {
        size_t diagonal = row[0];
        row[0] = i;
        for (size_t j = 1; j <= b.size(); ++j) {
            const size_t above = row[j];
            const bool same = std::tolower(static_cast<unsigned char>(a[i - 1])) ==
                              std::tolower(static_cast<unsigned char>(b[j - 1]));
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (same ? 0 : 1)});
            diagonal = above;
        }
    }
    return row[b.size()];
}

// A rule on a function without a fault point would never act: refused, with the closest names
// (at most five, within an edit distance of a third of the name's length, at least 2).
bool check_fault_point(const std::string& raw, const std::string& function, const std::vector<std::string>& known,
                       std::string& error) {
    if (std::find(known.begin(), known.end(), function) != known.end()) return true;
    const size_t limit = std::max<size_t>(2, function.size() / 3);
    std::vector<std::pair<size_t, const std::string*>> close;
    for (const std::string& name : known) {
        const size_t distance = edit_distance(function, name);
        if (distance <= limit) close.emplace_back(distance, &name);
    }
    std::sort(close.begin(), close.end(), [](const auto& x, const auto& y) {
        return x.first != y.first ? x.first < y.first : *x.second < *y.second;
    });
    error = "fault rule '" + raw + "': '" + function + "' is not a simulator function with a fault point";
    for (size_t i = 0; i < close.size() && i < 5; ++i) error += (i == 0 ? "; did you mean " : ", ") + *close[i].second;
    if (!close.empty()) error += "?";
    return false;
}

}  // namespace

bool FaultRule::matches(uint64_t call) const {
    if (every != 0) return call % every == 0;
    return call >= first && call <= last;
}

bool parse_fault_rules(const std::string& text, const std::vector<std::string>& known, std::vector<FaultRule>& out,
                       std::string& error) {
    out.clear();
    size_t start = 0;
    while (start <= text.size()) {
        size_t end = text.find(';', start);
        if (end == std::string::npos) end = text.size();
        const std::string piece = trim(text.substr(start, end - start));
        if (!piece.empty()) {
            FaultRule rule;
            if (!parse_rule(piece, rule, error) || !check_fault_point(piece, rule.function, known, error)) return false;
            out.push_back(rule);
        }
        start = end + 1;
    }
    return true;
}

}  // namespace npusim
