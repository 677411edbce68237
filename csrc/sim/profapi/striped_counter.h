// An exact event counter that many threads can bump without sharing a cache line.
//
// Reports arrive from every host thread at millions per second; a single atomic
// would bounce one cache line between all of them. Each thread adds to one of
// kStripes padded cells instead, and a reader sums the cells.
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>

namespace npusim::profapi {

class StripedCounter {
public:
    static constexpr size_t kStripes = 32;

    void add() { cells_[this_thread_stripe()].value.fetch_add(1, std::memory_order_relaxed); }

    uint64_t total() const {
        uint64_t sum = 0;
        for (const Cell& c : cells_) sum += c.value.load(std::memory_order_relaxed);
        return sum;
    }

    void reset() {
        for (Cell& c : cells_) c.value.store(0, std::memory_order_relaxed);
    }

private:
    struct alignas(64) Cell {
        std::atomic<uint64_t> value{0};
    };

    // Threads run on distinct stacks megabytes apart, so the 1 MiB block of a
    // local variable's address tells threads apart with no thread_local (whose
    // first use in a dlopen'ed library allocates) and no system call. Two
    // threads landing on one stripe only share a cache line; counts stay exact.
    static size_t this_thread_stripe() {
        const char probe = 0;
        const uint64_t block = reinterpret_cast<uintptr_t>(&probe) >> 20;
        return static_cast<size_t>((block * 0x9E3779B97F4A7C15ULL) >> 59);  // top 5 bits: 0..31
    }

    std::array<Cell, kStripes> cells_{};
};

static_assert(StripedCounter::kStripes == 32, "the stripe index takes the top 5 bits of the hash");

}  // namespace npusim::profapi
