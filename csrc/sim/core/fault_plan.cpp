#include "core/fault_plan.h"

#include <chrono>
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

bool parse_fault_plan(const std::string& text, std::vector<FaultRule>& out, std::string& error) {
    return parse_fault_rules(text, fault_point_functions(), out, error);
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
                case FaultAction::Short:
                    // A cap of 2^32 bytes or more caps no read (their sizes are 32-bit): no cap, not the
                    // count's low 32 bits.
                    d.short_bytes =
                        rule.value >= static_cast<int64_t>(UINT32_MAX) ? UINT32_MAX : static_cast<uint32_t>(rule.value);
                    break;
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
