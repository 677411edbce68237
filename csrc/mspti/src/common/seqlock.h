// A sequence lock for small values read on hot paths and rewritten rarely
// (clock references): readers never block and never write shared memory.
#pragma once

#include <atomic>
#include <cstdint>
#include <type_traits>

namespace mspti {

template <typename T>
class SeqLock {
    static_assert(std::is_trivially_copyable<T>::value, "SeqLock holds plain values");
    static_assert(sizeof(T) % sizeof(uint64_t) == 0, "SeqLock values are made of 64-bit words");
    static constexpr size_t kWords = sizeof(T) / sizeof(uint64_t);

public:
    T Load() const {
        uint64_t words[kWords];
        for (;;) {
            const uint32_t s0 = seq_.load(std::memory_order_acquire);
            if ((s0 & 1U) == 0) {
                // Acquire loads: a word from a newer write makes the re-read below see that write's
                // sequence change (no fences, so thread sanitizers follow it too).
                for (size_t i = 0; i < kWords; ++i) words[i] = words_[i].load(std::memory_order_acquire);
                if (seq_.load(std::memory_order_relaxed) == s0) break;
            }
        }
        T value;
        __builtin_memcpy(&value, words, sizeof value);
        return value;
    }

    // Writers must be serialised by the caller.
    void Store(const T& value) {
        uint64_t words[kWords];
        __builtin_memcpy(words, &value, sizeof value);
        seq_.fetch_add(1, std::memory_order_relaxed);
        for (size_t i = 0; i < kWords; ++i) words_[i].store(words[i], std::memory_order_release);
        seq_.fetch_add(1, std::memory_order_release);
    }

private:
    std::atomic<uint32_t> seq_{0};
    std::atomic<uint64_t> words_[kWords] = {};
};

}  // namespace mspti
