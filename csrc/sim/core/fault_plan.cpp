#include "core/fault_plan.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <map>
#include <mutex>
#include <thread>
#include <utility>

#include "core/config.h"
#include "core/fakes.h"
#include "core/log.h"

namespace npusim {

namespace {

struct Registry {
    std::mutex mutex;
    std::vector<FaultRule> rules;
    std::string text;
    std::map<std::string, FaultSite*> sites;
    std::atomic<uint64_t> injected{0};
    bool loaded_from_env = false;
    bool counting_requested = false;  // set_call_counting
    bool plan_ever_installed = false;  // counting stays on after a plan is cleared
};

Registry& registry() {
    static Registry* r = new Registry();  // never destroyed: fault sites may fire during exit
    return *r;
}

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
            if (!num.empty() && std::isdigit(static_cast<unsigned char>(num.back())) && parse_int(num, v) && v >= 0) {
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
bool check_fault_point(const std::string& raw, const std::string& function, std::string& error) {
    const std::vector<std::string>& known = fault_point_functions();
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

// Whether a fake is installed (set_fakes_installed; cleared without the lock in a forked child).
std::atomic<bool> g_fakes_installed{false};

// Called with r.mutex held, after any change of the fields it reads.
void publish_state(const Registry& r) {
    uint32_t state = 0;
    if (g_fakes_installed.load(std::memory_order_relaxed)) state |= kFaultFakes;
    if (!r.loaded_from_env) state |= kFaultEnvUnread;
    if (!r.rules.empty()) state |= kFaultPlanInstalled;
    if (r.counting_requested || r.plan_ever_installed) state |= kFaultCounting;
    g_fault_point_state.store(state, std::memory_order_release);
}

void ensure_env_plan_loaded(Registry& r) {
    // Called with r.mutex held.
    if (r.loaded_from_env) return;
    r.loaded_from_env = true;
    const SimConfig& cfg = sim_config();  // a malformed plan is reported by the config itself
    std::string error;
    std::vector<FaultRule> rules;
    if (!cfg.faults.empty() && parse_fault_plan(cfg.faults, rules, error)) {
        r.rules = std::move(rules);
        r.text = cfg.faults;
        r.plan_ever_installed = !r.rules.empty();
    }
    publish_state(r);
}

}  // namespace

bool FaultRule::matches(uint64_t call) const {
    if (every != 0) return call % every == 0;
    return call >= first && call <= last;
}

bool parse_fault_plan(const std::string& text, std::vector<FaultRule>& out, std::string& error) {
    out.clear();
    size_t start = 0;
    while (start <= text.size()) {
        size_t end = text.find(';', start);
        if (end == std::string::npos) end = text.size();
        const std::string piece = trim(text.substr(start, end - start));
        if (!piece.empty()) {
            FaultRule rule;
            if (!parse_rule(piece, rule, error) || !check_fault_point(piece, rule.function, error)) return false;
            out.push_back(rule);
        }
        start = end + 1;
    }
    return true;
}

// Constant-initialised: the first fault point to fire loads NPU_SIM_FAULTS (in its site's
// constructor); until then a plan may exist.
std::atomic<uint32_t> g_fault_point_state{kFaultEnvUnread};

FaultSite::FaultSite(const char* name) : name_(name) {
    Registry& r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    ensure_env_plan_loaded(r);
    r.sites[name] = this;
}

FaultDecision FaultSite::evaluate(uint64_t call) {
    FaultDecision d;
    Registry& r = registry();
    int64_t delay_ns = 0;
    bool stall = false;
    {
        std::lock_guard<std::mutex> lock(r.mutex);
        ensure_env_plan_loaded(r);
        for (const FaultRule& rule : r.rules) {
            if (rule.function != name_ || !rule.matches(call)) continue;
            r.injected.fetch_add(1, std::memory_order_relaxed);
            switch (rule.action) {
                case FaultAction::Error:
                    d.fail = true;
                    d.error = rule.value;
                    break;
                case FaultAction::Delay: delay_ns += rule.value; break;
                case FaultAction::Short: d.short_bytes = static_cast<uint32_t>(rule.value); break;
                case FaultAction::Garble:
                    d.garble = true;
                    d.garble_seed = sim_config().seed ^ (call * 0x9E3779B97F4A7C15ULL);
                    break;
                case FaultAction::Stall: stall = true; break;
            }
        }
    }
    if (delay_ns > 0) std::this_thread::sleep_for(std::chrono::nanoseconds(delay_ns));
    if (stall) {
        log_message(LogLevel::Warn, "fault plan: %s stalls for 10 s", name_);
        std::this_thread::sleep_for(std::chrono::seconds(10));
    }
    return d;
}

bool set_fault_plan(const std::string& text, std::string& error) {
    std::vector<FaultRule> rules;
    if (!parse_fault_plan(text, rules, error)) return false;
    Registry& r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    r.loaded_from_env = true;
    r.rules = std::move(rules);
    r.text = text;
    if (!r.rules.empty()) r.plan_ever_installed = true;
    publish_state(r);
    return true;
}

void set_call_counting(bool on) {
    Registry& r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    ensure_env_plan_loaded(r);
    r.counting_requested = on;
    publish_state(r);
}

bool call_counting() {
    Registry& r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    ensure_env_plan_loaded(r);
    return r.counting_requested || r.plan_ever_installed;
}

void clear_fault_plan() {
    std::string ignored;
    set_fault_plan("", ignored);
}

std::string current_fault_plan() {
    Registry& r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    ensure_env_plan_loaded(r);
    return r.text;
}

uint64_t fault_site_calls(const std::string& function) {
    Registry& r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    auto it = r.sites.find(function);
    return it == r.sites.end() ? 0 : it->second->calls();
}

void reset_fault_counters() {
    Registry& r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    for (auto& [name, site] : r.sites) site->reset_calls();
    r.injected.store(0);
}

void set_fakes_installed(bool on) {
    Registry& r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    g_fakes_installed.store(on, std::memory_order_relaxed);
    publish_state(r);
}

// In a forked child (one thread): the child starts with no fakes; the lock may have been held.
void forget_fakes_in_child() {
    g_fakes_installed.store(false, std::memory_order_relaxed);
    g_fault_point_state.fetch_and(~static_cast<uint32_t>(kFaultFakes), std::memory_order_relaxed);
}

uint64_t faults_injected() { return registry().injected.load(std::memory_order_relaxed); }

void garble_bytes(char* data, size_t len, uint64_t seed) {
    uint64_t x = seed | 1;
    for (size_t i = 0; i < len; ++i) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        data[i] = static_cast<char>(data[i] ^ static_cast<char>(x & 0xFF));
    }
}

}  // namespace npusim
