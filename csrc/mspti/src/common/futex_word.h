// A 32-bit word that threads can sleep on until it changes (Linux futex).
//
// Used where a condition variable could deadlock: a waker never waits for the waiters (a glibc
// condition variable's broadcast can wait for a waiter to leave an older group, and a waiter
// interrupted by a signal handler that waits on the same variable again never leaves it), and a
// wait can be interrupted and repeated by a signal handler on the same thread without harm.
#pragma once

#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>

namespace mspti {

class FutexWord {
public:
    uint32_t Load() const { return word_.load(std::memory_order_acquire); }

    // Changes the word and wakes every thread sleeping on it.
    void BumpAndWakeAll() {
        word_.fetch_add(1, std::memory_order_acq_rel);
        syscall(SYS_futex, reinterpret_cast<uint32_t*>(&word_), FUTEX_WAKE_PRIVATE, INT32_MAX, nullptr, nullptr, 0);
    }

    // Sleeps while the word still equals `seen`, at most `timeout_ns` (0: no limit). Returns early on
    // a change, a signal, or spuriously: callers re-check their condition.
    void Wait(uint32_t seen, uint64_t timeout_ns = 0) const {
        struct timespec limit{};
        limit.tv_sec = static_cast<time_t>(timeout_ns / 1000000000u);
        limit.tv_nsec = static_cast<long>(timeout_ns % 1000000000u);
        syscall(SYS_futex, reinterpret_cast<const uint32_t*>(&word_), FUTEX_WAIT_PRIVATE, seen,
                timeout_ns != 0 ? &limit : nullptr, nullptr, 0);
    }

    // fork(), in the child: nobody sleeps on it.
    void Reset() { word_.store(0, std::memory_order_relaxed); }

private:
    static_assert(sizeof(std::atomic<uint32_t>) == sizeof(uint32_t), "a futex is a plain 32-bit word");
    std::atomic<uint32_t> word_{0};
};

}  // namespace mspti
