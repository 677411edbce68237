// The profiler callbacks registered through MsprofRegisterProfileCallback, one
// slot per ProfileCallbackType.
//
// Reporting threads read a slot with one acquire load and call what they find,
// so the report path takes no lock. A callback that is unregistered while a
// report is in flight may still receive that one report, as in CANN.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>

#include "seam/profapi.h"

namespace npusim::profapi {

class CallbackTable {
public:
    static bool valid_type(int32_t type) { return type >= 0 && type < PROFILE_CALLBACK_TYPE_COUNT; }

    void set(int32_t type, void* callback) {
        slots_[static_cast<size_t>(type)].store(callback, std::memory_order_release);
    }
    void* raw(int32_t type) const { return slots_[static_cast<size_t>(type)].load(std::memory_order_acquire); }

    // The callback of `type` as its C signature (nullptr when none).
    template <typename Fn>
    Fn get(int32_t type) const {
        return reinterpret_cast<Fn>(raw(type));
    }

private:
    std::array<std::atomic<void*>, PROFILE_CALLBACK_TYPE_COUNT> slots_{};
};

// The process's table. All-null is its initial state and static storage is
// zero-initialised before any code runs; CallbackTable has no dynamic
// initialiser, so the table is usable at any time, even during exit.
extern CallbackTable g_callback_table;

// Inline so that a report reaches its callback without an extra call.
inline CallbackTable& callbacks() { return g_callback_table; }

}  // namespace npusim::profapi
