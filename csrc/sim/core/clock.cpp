#include "core/clock.h"

#include <time.h>

#include <chrono>
#include <thread>

namespace npusim {

uint64_t monotonic_raw_ns() {
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
    return static_cast<uint64_t>(ts.tv_sec) * 1'000'000'000ULL + static_cast<uint64_t>(ts.tv_nsec);
}

std::atomic<Clock*> Clock::instance_{nullptr};

Clock& Clock::create() {
    static Clock* clock = new Clock(sim_config().clock);  // outlives every static destructor
    instance_.store(clock, std::memory_order_release);
    return *clock;
}

uint64_t Clock::spend(uint64_t ns) {
    if (mode_ == ClockMode::Virtual) return virtual_now_.fetch_add(ns, std::memory_order_relaxed) + ns;
    return monotonic_raw_ns();
}

void Clock::wait_until(uint64_t t) {
    if (mode_ == ClockMode::Virtual) {
        uint64_t cur = virtual_now_.load(std::memory_order_relaxed);
        while (cur < t && !virtual_now_.compare_exchange_weak(cur, t, std::memory_order_relaxed)) {}
        note_waited(t);
        return;
    }
    for (;;) {
        const uint64_t now = monotonic_raw_ns();
        if (now >= t) break;
        const uint64_t left = t - now;
        // Sleep most of the way, then spin the last stretch for accuracy.
        if (left > 200'000) std::this_thread::sleep_for(std::chrono::nanoseconds(left - 100'000));
        else std::this_thread::yield();
    }
    note_waited(t);
}

void Clock::set_wait_listener(WaitListener listener, void* context) {
    wait_context_.store(context, std::memory_order_relaxed);
    wait_listener_.store(listener, std::memory_order_release);
}

void Clock::note_waited(uint64_t t) {
    if (WaitListener listener = wait_listener_.load(std::memory_order_acquire)) {
        listener(wait_context_.load(std::memory_order_relaxed), t);
    }
}

}  // namespace npusim
