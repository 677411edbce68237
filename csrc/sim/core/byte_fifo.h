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
#include <cstring>

namespace npusim {

// memcpy in pieces of at most 4 KiB, for the channels' bulk copies: up to that size memcpy runs its
// vector loop; above it, it switches to a string instruction (rep movsb) that costs a counted
// instruction per byte (callgrind, the launch_instructions benchmark) and holds no advantage at the
// sizes the channels move.
// The piece's size is not a constant, so that the compiler calls memcpy rather than expanding a
// fixed-size copy into a string instruction of its own.
inline void copy_in_pieces(char* dst, const char* src, size_t n) {
    constexpr size_t kPiece = 4096;
    while (n > 0) {
        const size_t m = n < kPiece ? n : kPiece;
        std::memcpy(dst, src, m);
        dst += m;
        src += m;
        n -= m;
    }
}

class ByteFifo {
public:
    static constexpr size_t kChunkBytes = 64u << 10;

    ByteFifo();
    ~ByteFifo();
    ByteFifo(const ByteFifo&) = delete;
    ByteFifo& operator=(const ByteFifo&) = delete;

    // Producers. lock_producers() also excludes the consumer-side reset (clear()).
    void lock_producers() {
        // Uncontended in the common case: the exchange alone, the wait out of line.
        if (__builtin_expect(producer_lock_.exchange(true, std::memory_order_acquire), 0)) lock_producers_contended();
    }
    void unlock_producers() { producer_lock_.store(false, std::memory_order_release); }
    // Requires the producer lock. Appends `len` bytes unless more than `limit` bytes would then be
    // pending; returns false (nothing appended) in that case.
    bool append_locked(const void* data, size_t len, size_t limit);
    // Requires the producer lock. The same in two steps, for a producer that writes its bytes in
    // place rather than copying them in: room for `len` (at most kMaxReserve) bytes, nullptr (nothing
    // reserved) when more than `limit` bytes would then be pending; the caller writes them all, then
    // publishes them with commit_locked(len) before it releases the lock.
    static constexpr size_t kMaxReserve = 1024;
    char* reserve_locked(size_t len, size_t limit) {
        if (!room_locked(len, limit)) return nullptr;
        // Bytes that would cross the chunk's end are written aside and copied in by the commit.
        return kChunkBytes - tail_used_ >= len ? tail_->data + tail_used_ : spill_;
    }
    void commit_locked(size_t len) {
        if (kChunkBytes - tail_used_ >= len) {
            tail_used_ += len;
        } else {
            copy_in_locked(spill_, len);
        }
        written_.store(written_.load(std::memory_order_relaxed) + len, std::memory_order_seq_cst);
    }

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
    [[gnu::noinline]] void lock_producers_contended();
    Chunk* take_chunk();
    void give_chunk(Chunk* chunk);
    // Under the producer lock: whether `len` more bytes keep the pending ones within `limit`.
    bool room_locked(size_t len, size_t limit) {
        const uint64_t written = written_.load(std::memory_order_relaxed);  // only producers store it
        // consumed_ only grows, so an old value overstates what is pending: read the consumer's line
        // only when that overstatement would refuse the bytes.
        if (written - consumed_seen_ + len <= limit) return true;
        consumed_seen_ = consumed_.load(std::memory_order_acquire);
        return written - consumed_seen_ + len <= limit;
    }
    // Under the producer lock: copies `len` bytes in at the tail (not yet published).
    void copy_in_locked(const char* bytes, size_t len);

    // Producer side and consumer side each on cache lines of their own: the reader drains while
    // launches append, and shared lines would bounce between the two cores on every append.
    static constexpr size_t kLine = 64;

    // Producer side (under the producer lock).
    alignas(kLine) std::atomic<bool> producer_lock_{false};
    Chunk* tail_;
    size_t tail_used_ = 0;
    uint64_t consumed_seen_ = 0;  // a past value of consumed_: re-read only when the limit seems near
    char spill_[kMaxReserve];     // a reservation across a chunk's end (reserve_locked)
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
