// A tiny lock for per-thread state.
//
// The hot path (writing a record into the calling thread's buffer) takes the
// lock of its own thread's buffer; only a flush running on another thread ever
// contends for it, and then only for the few instructions it takes to hand the
// buffer over. Uncontended, acquiring it is one atomic exchange.
#pragma once

#include <atomic>
#include <thread>

namespace mspti {

class SpinLock {
public:
    void lock() {
        while (flag_.exchange(true, std::memory_order_acquire)) {
            while (flag_.load(std::memory_order_relaxed)) std::this_thread::yield();
        }
    }
    bool try_lock() { return !flag_.exchange(true, std::memory_order_acquire); }
    void unlock() { flag_.store(false, std::memory_order_release); }

private:
    std::atomic<bool> flag_{false};
};

}  // namespace mspti
