// The byte FIFO behind one device profiling channel: the device model appends
// records on the host threads that submit tasks (producers), the driver's
// reader drains them (one consumer at a time).
//
// Bytes live in fixed-size chunks linked in order. A drained chunk goes to a
// free list and is reused, so once the FIFO has grown to its working size an
// append allocates nothing, takes no lock shared with the reader and makes no
// system call: producers serialise among themselves on a spin lock held for
// one copy, publish what they wrote in `written_`, and the consumer publishes
// what it read in `consumed_`. Memory is bounded by the most bytes ever
// pending (at most the caller's limit plus one chunk), kept for reuse.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace npusim {

class ByteFifo {
public:
    static constexpr size_t kChunkBytes = 64u << 10;

    ByteFifo();
    ~ByteFifo();
    ByteFifo(const ByteFifo&) = delete;
    ByteFifo& operator=(const ByteFifo&) = delete;

    // Producers. lock_producers() also excludes the consumer-side reset (clear()).
    void lock_producers();
    void unlock_producers() { producer_lock_.store(false, std::memory_order_release); }
    // Requires the producer lock. Appends `len` bytes unless more than `limit` bytes would then be
    // pending; returns false (nothing appended) in that case.
    bool append_locked(const void* data, size_t len, size_t limit);

    // The consumer (callers serialise consumers). Copies up to `size` pending bytes into `out`.
    size_t read(char* out, size_t size);

    // Bytes appended and not read yet.
    size_t pending() const {
        const uint64_t consumed = consumed_.load(std::memory_order_seq_cst);
        return static_cast<size_t>(written_.load(std::memory_order_seq_cst) - consumed);
    }

    // Discards every pending byte. Requires the producer lock and excludes consumers (caller).
    void clear_locked();

private:
    struct Chunk {
        std::atomic<Chunk*> next{nullptr};
        char data[kChunkBytes];
    };
    Chunk* take_chunk();
    void give_chunk(Chunk* chunk);

    // Producer side and consumer side each on cache lines of their own: the reader drains while
    // launches append, and shared lines would bounce between the two cores on every append.
    static constexpr size_t kLine = 64;

    // Producer side (under the producer lock).
    alignas(kLine) std::atomic<bool> producer_lock_{false};
    Chunk* tail_;
    size_t tail_used_ = 0;
    uint64_t consumed_seen_ = 0;  // a past value of consumed_: re-read only when the limit seems near
    // Published by producers. seq_cst: a poller's "nothing pending, I wait" and a producer's "a
    // poller waits, I wake it" must not both miss each other (see ChannelHub::push).
    alignas(kLine) std::atomic<uint64_t> written_{0};
    // Consumer side.
    alignas(kLine) Chunk* head_;
    size_t head_pos_ = 0;
    std::atomic<uint64_t> consumed_{0};  // published by the consumer (seq_cst, as written_)
    // Chunks for reuse: pushed by the consumer, popped by producers one at a time (producer lock),
    // so a pop never races another pop (no ABA).
    alignas(kLine) std::atomic<Chunk*> free_{nullptr};
};

}  // namespace npusim
