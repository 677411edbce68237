// Whether anything observes the interposed calls: one process-wide word that
// an interposer loads (relaxed) at its entry. While it is 0 (msPTI loaded,
// nothing enabled) an interposer calls the real function and nothing else: no
// correlation id, no clock read, no callback lookup. Its bits are kept by the
// writers of what they stand for, under those writers' own serialisation:
//  - kKinds: some activity kind produces records (activity::KindSwitches);
//  - kCallbacks: a subscription is active and has some callback enabled
//    (callback::Subscriber).
// A call that starts while the word is 0 stays unobserved even if a kind is
// enabled during it, as a call that started before msptiActivityEnable.
#pragma once

#include <atomic>
#include <cstdint>

namespace mspti::call_gate {

enum Bit : uint32_t {
    kKinds = 1U << 0,
    kCallbacks = 1U << 1,
};

// Constant-initialised: reached without an initialisation guard.
inline std::atomic<uint32_t>& Word() {
    static std::atomic<uint32_t> word{0};
    return word;
}

inline void Set(Bit bit, bool on) {
    if (on) {
        Word().fetch_or(bit, std::memory_order_release);
    } else {
        Word().fetch_and(~static_cast<uint32_t>(bit), std::memory_order_release);
    }
}

// The interposers' entry check.
inline bool Observed() { return Word().load(std::memory_order_relaxed) != 0; }

}  // namespace mspti::call_gate
