// Host and device time of the simulated platform.
//
// One time domain serves both: CANN host timestamps are CLOCK_MONOTONIC_RAW ns
// (host-frequency mode off) and the device counter ticks in ns
// (DEV_OSC_FREQUE = 1,000,000 per ms), so a device time is directly comparable
// to a host time. In wall mode the domain is the real monotonic clock and
// synchronisation sleeps until the modelled end; in virtual mode it is a
// counter that only the model advances, so nothing sleeps and a run is
// reproducible.
#pragma once

#include <atomic>
#include <cstdint>

#include "core/config.h"
#include "core/export.h"

namespace npusim {

NPUSIM_API uint64_t monotonic_raw_ns();

class NPUSIM_API Clock {
public:
    // Inline: every report timestamp reads the clock, so the common case is two loads.
    static Clock& instance() {
        Clock* clock = instance_.load(std::memory_order_acquire);
        return clock != nullptr ? *clock : create();
    }

    ClockMode mode() const { return mode_; }
    uint64_t now() const {
        return mode_ == ClockMode::Virtual ? virtual_now_.load(std::memory_order_relaxed) : monotonic_raw_ns();
    }
    // Virtual mode: the calling host thread spends `ns`; returns the new time.
    uint64_t spend(uint64_t ns);
    // Returns when the host time has reached `t` (wall: sleep; virtual: jump). Every such wait is a
    // moment the host waits for the device (a synchronisation): the wait listener, if one is set,
    // hears of it with `t` once the wait is over.
    void wait_until(uint64_t t);
    // One listener (the channel hub when device logs are released at synchronisations); not on any
    // hot path: a wait_until is a synchronisation.
    using WaitListener = void (*)(void* context, uint64_t t);
    void set_wait_listener(WaitListener listener, void* context);

    // The virtual clock starts here, a fixed origin so that runs compare byte for byte.
    static constexpr uint64_t kVirtualOrigin = 1'000'000'000ULL;

    explicit Clock(ClockMode mode) : mode_(mode) {}

private:
    static Clock& create();
    static std::atomic<Clock*> instance_;

    void note_waited(uint64_t t);

    ClockMode mode_;
    std::atomic<uint64_t> virtual_now_{kVirtualOrigin};
    std::atomic<WaitListener> wait_listener_{nullptr};
    std::atomic<void*> wait_context_{nullptr};
};

}  // namespace npusim
