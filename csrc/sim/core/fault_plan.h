// Fault plans: make any exported simulator function fail, fail on its Nth call,
// delay, stall, or return short / garbled data, and count its calls.
//
// The grammar and its parser: core/fault_rule.h.
//
// Cost and counting. A fault point whose process has no plan and has not asked for call counts
// costs one relaxed load of a global state word and a branch: it neither counts nor registers its
// site. Counting is on once a plan is installed (NPU_SIM_FAULTS at start-up, or set_fault_plan
// with a non-empty plan; it stays on after the plan is cleared) or when a program asks for it with
// set_call_counting(true). Call counts, and so a rule's Nth call, cover the calls made while
// counting is on: from process start with NPU_SIM_FAULTS, from set_fault_plan or
// set_call_counting otherwise.
//
// Fakes (core/fakes.h) ride on the same word: while one is installed (kFaultFakes) every fault
// point takes the slow path, where the fake is applied before the plan.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "core/export.h"
#include "core/fault_rule.h"

namespace npusim {

// Fails (error says why) on a rule that breaks the grammar (core/fault_rule.h) or names a function
// without a fault point.
NPUSIM_API bool parse_fault_plan(const std::string& text, std::vector<FaultRule>& out, std::string& error);

// What a fault point tells its function to do on this call.
struct FaultDecision {
    bool fail = false;
    int64_t error = 0;
    uint32_t short_bytes = UINT32_MAX;  // cap on returned bytes
    bool garble = false;
    uint64_t garble_seed = 0;
};

// Process-wide state of the fault points, one word so that an idle fault point reads it once.
// Zero: no plan, no counting, NPU_SIM_FAULTS read. Changed only under the plan registry's lock.
enum FaultPointState : uint32_t {
    kFaultEnvUnread = 1u,  // NPU_SIM_FAULTS not read yet: the first fault point takes the slow path
    kFaultPlanInstalled = 2u,
    kFaultCounting = 4u,
    kFaultFakes = 8u,  // a fake is installed (core/fakes.h): fault points consult it
};
extern NPUSIM_API std::atomic<uint32_t> g_fault_point_state;

inline bool fault_points_idle() { return g_fault_point_state.load(std::memory_order_relaxed) == 0; }

// One per exported function; registered on its first call made while fault points are not idle.
class NPUSIM_API FaultSite {
public:
    explicit FaultSite(const char* name);
    const char* name() const { return name_; }
    uint64_t calls() const { return calls_.load(std::memory_order_relaxed); }

    // Counts the call (when counting is on), applies an installed fake (core/fakes.h), then the
    // plan. Delays and stalls happen inside. `args` are the call's arguments as words (decoded
    // functions only; see NPUSIM_FAULT_RETURN_ARGS), null otherwise.
    FaultDecision hit(const uint64_t* args = nullptr, size_t argc = 0) {
        // The site's constructor has read NPU_SIM_FAULTS, and an installed plan turns counting on.
        const uint32_t state = g_fault_point_state.load(std::memory_order_acquire);
        uint64_t n = 0;
        if ((state & kFaultCounting) != 0) n = calls_.fetch_add(1, std::memory_order_relaxed) + 1;
        if ((state & kFaultFakes) != 0) {
            FaultDecision faked;
            if (apply_fake(args, argc, faked)) return faked;
        }
        if ((state & kFaultCounting) == 0 || (state & kFaultPlanInstalled) == 0) return {};
        return evaluate(n);
    }

    void reset_calls() { calls_.store(0, std::memory_order_relaxed); }

private:
    FaultDecision evaluate(uint64_t call);
    bool apply_fake(const uint64_t* args, size_t argc, FaultDecision& out);
    const char* name_;
    std::atomic<uint64_t> calls_{0};
};

// Process-wide plan control (used by the bindings and at start-up from NPU_SIM_FAULTS).
NPUSIM_API bool set_fault_plan(const std::string& text, std::string& error);
NPUSIM_API void clear_fault_plan();
NPUSIM_API std::string current_fault_plan();
NPUSIM_API uint64_t fault_site_calls(const std::string& function);  // 0 if never called while counting
// Asks for call counts without a plan (on) or withdraws the request (off; counting stays on while a
// plan is, or has been, installed). Counts already taken are kept.
NPUSIM_API void set_call_counting(bool on);
NPUSIM_API bool call_counting();
NPUSIM_API void reset_fault_counters();
NPUSIM_API uint64_t faults_injected();  // how many calls a rule acted on
NPUSIM_API void garble_bytes(char* data, size_t len, uint64_t seed);
// Sets or clears kFaultFakes (core/fakes.cpp, under the plan registry's lock).
NPUSIM_API void set_fakes_installed(bool on);
void forget_fakes_in_child();

// An argument of a decoded function as one word: integers and enums widened (signed ones sign-
// extended), pointers as their address. The fake's table (sim_runtime/data/fakes.toml) gives its type.
template <typename T>
inline uint64_t fake_word(T value) {
    if constexpr (std::is_pointer_v<T>) {
        return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(value));
    } else if constexpr (std::is_enum_v<T>) {
        return static_cast<uint64_t>(static_cast<int64_t>(static_cast<std::underlying_type_t<T>>(value)));
    } else if constexpr (std::is_same_v<T, bool>) {
        return value ? 1u : 0u;
    } else {
        static_assert(std::is_integral_v<T>, "a decoded argument is an integer, an enum or a pointer");
        if constexpr (std::is_signed_v<T>) {
            return static_cast<uint64_t>(static_cast<int64_t>(value));
        } else {
            return static_cast<uint64_t>(value);
        }
    }
}

}  // namespace npusim

// Declares the fault site of the enclosing exported function and evaluates it. While fault points
// are idle this is one relaxed load: the site is neither constructed nor counted.
#define NPUSIM_FAULT(function_name)                                                             \
    (::npusim::fault_points_idle() ? ::npusim::FaultDecision{} : []() -> ::npusim::FaultSite& { \
        static ::npusim::FaultSite site_(function_name);                                        \
        return site_;                                                                           \
    }()                                                                                         \
                                                                             .hit())

// Whether a call fails and with which code: small enough to come back in registers.
namespace npusim {
struct FaultError {
    bool fail;
    int64_t error;
};
}  // namespace npusim

// Returns the planned error code from the enclosing function when the plan says this call fails.
// The evaluation is out of line and returns in registers, so that while fault points are idle the
// enclosing function needs no stack frame for it (it runs on every report of a traced launch).
#define NPUSIM_FAULT_RETURN(function_name, return_type)                                                         \
    do {                                                                                                        \
        if (!::npusim::fault_points_idle()) {                                                                   \
            const ::npusim::FaultError npusim_fault_ = []() __attribute__((noinline)) -> ::npusim::FaultError { \
                const ::npusim::FaultDecision decision = NPUSIM_FAULT(function_name);                           \
                return {decision.fail, decision.error};                                                         \
            }();                                                                                                \
            if (npusim_fault_.fail) return static_cast<return_type>(npusim_fault_.error);                       \
        }                                                                                                       \
    } while (0)

// The fault point of a decoded function (its arguments reach a fake as words, see fake_word):
// the same fast path as NPUSIM_FAULT_RETURN, one relaxed load and a branch while fault points are
// idle; the arguments go by value, in registers, to the out-of-line slow path.
#define NPUSIM_FAULT_RETURN_ARGS(function_name, return_type, ...)                                              \
    do {                                                                                                       \
        if (!::npusim::fault_points_idle()) {                                                                  \
            const ::npusim::FaultError npusim_fault_ = [](auto... npusim_args_)                                \
                                                           __attribute__((noinline)) -> ::npusim::FaultError { \
                static ::npusim::FaultSite site_(function_name);                                               \
                const uint64_t words_[] = {::npusim::fake_word(npusim_args_)...};                              \
                const ::npusim::FaultDecision decision = site_.hit(words_, sizeof...(npusim_args_));           \
                return {decision.fail, decision.error};                                                        \
            }(__VA_ARGS__);                                                                                    \
            if (npusim_fault_.fail) return static_cast<return_type>(npusim_fault_.error);                      \
        }                                                                                                      \
    } while (0)

// The same for a function that returns no code (void, or a pointer): the decision, with the
// arguments passed to a fake; `.fail` tells the function to return its failure value.
#define NPUSIM_FAULT_ARGS(function_name, ...)                                                                        \
    (::npusim::fault_points_idle() ? ::npusim::FaultDecision{}                                                       \
                                   : [](auto... npusim_args_) __attribute__((noinline)) -> ::npusim::FaultDecision { \
        static ::npusim::FaultSite site_(function_name);                                                             \
        const uint64_t words_[] = {::npusim::fake_word(npusim_args_)...};                                            \
        return site_.hit(words_, sizeof...(npusim_args_));                                                           \
    }(__VA_ARGS__))
