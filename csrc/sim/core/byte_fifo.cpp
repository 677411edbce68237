#include "core/byte_fifo.h"

#include <algorithm>
#include <cstring>
#include <thread>

namespace npusim {

ByteFifo::ByteFifo() : tail_(new Chunk), head_(tail_) {}

ByteFifo::~ByteFifo() {
    for (Chunk* c = head_; c != nullptr;) {
        Chunk* next = c->next.load(std::memory_order_relaxed);
        delete c;
        c = next;
    }
    for (Chunk* c = free_.load(std::memory_order_relaxed); c != nullptr;) {
        Chunk* next = c->next.load(std::memory_order_relaxed);
        delete c;
        c = next;
    }
}

void ByteFifo::lock_producers_contended() {
    do {
        while (producer_lock_.load(std::memory_order_relaxed)) std::this_thread::yield();
    } while (producer_lock_.exchange(true, std::memory_order_acquire));
}

ByteFifo::Chunk* ByteFifo::take_chunk() {
    Chunk* top = free_.load(std::memory_order_acquire);
    while (top != nullptr && !free_.compare_exchange_weak(top, top->next.load(std::memory_order_relaxed),
                                                          std::memory_order_acquire, std::memory_order_acquire)) {}
    Chunk* chunk = top != nullptr ? top : new Chunk;  // grows only while the backlog grows
    chunk->next.store(nullptr, std::memory_order_relaxed);
    return chunk;
}

void ByteFifo::give_chunk(Chunk* chunk) {
    Chunk* top = free_.load(std::memory_order_relaxed);
    do {
        chunk->next.store(top, std::memory_order_relaxed);
    } while (!free_.compare_exchange_weak(top, chunk, std::memory_order_release, std::memory_order_relaxed));
}

bool ByteFifo::append_locked(const void* data, size_t len, size_t limit) {
    if (!room_locked(len, limit)) return false;
    copy_in_locked(static_cast<const char*>(data), len);
    written_.store(written_.load(std::memory_order_relaxed) + len, std::memory_order_seq_cst);
    return true;
}

void ByteFifo::copy_in_locked(const char* bytes, size_t len) {
    for (size_t left = len; left > 0;) {
        if (tail_used_ == kChunkBytes) {
            Chunk* next = take_chunk();
            tail_->next.store(next, std::memory_order_release);
            tail_ = next;
            tail_used_ = 0;
        }
        const size_t n = std::min(left, kChunkBytes - tail_used_);
        std::memcpy(tail_->data + tail_used_, bytes, n);
        tail_used_ += n;
        bytes += n;
        left -= n;
    }
}

size_t ByteFifo::read(char* out, size_t size) {
    const uint64_t consumed = consumed_.load(std::memory_order_relaxed);  // only consumers store it
    const size_t n = std::min<size_t>(size, written_.load(std::memory_order_acquire) - consumed);
    for (size_t copied = 0; copied < n;) {
        if (head_pos_ == kChunkBytes) {
            // More bytes are published beyond this chunk, so the producer has linked the next one
            // and moved on: this chunk is free for reuse.
            Chunk* done = head_;
            head_ = done->next.load(std::memory_order_acquire);
            head_pos_ = 0;
            give_chunk(done);
        }
        const size_t m = std::min(n - copied, kChunkBytes - head_pos_);
        copy_in_pieces(out + copied, head_->data + head_pos_, m);
        head_pos_ += m;
        copied += m;
    }
    consumed_.store(consumed + n, std::memory_order_seq_cst);
    return n;
}

void ByteFifo::clear_locked() {
    // Skip every pending byte: the consumer position jumps to the producer's.
    while (head_ != tail_) {
        Chunk* done = head_;
        head_ = done->next.load(std::memory_order_acquire);
        give_chunk(done);
    }
    head_pos_ = tail_used_;
    consumed_.store(written_.load(std::memory_order_relaxed), std::memory_order_seq_cst);
}

}  // namespace npusim
