// A map from a task key to a FIFO of values, for the matchers of device data.
//
// The matchers see one key per device task and keep it only until the task's
// device half arrives, so a node-based map of deques would allocate and free
// (map node, deque map, deque block) for every kernel. Here the keys live in an
// open-addressing table (linear probing, backward-shift deletion) and the
// values in one pool of nodes linked per key, recycled through a free list:
// once warmed up, nothing is allocated. Not thread-safe (used under the
// device-data mutex). Node indices stay valid until their node is removed;
// references from At() stay valid until the next PushBack or Emplace.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <type_traits>
#include <vector>

#include "common/piecewise_copy.h"

namespace mspti::seam {

template <typename T>
class TaskQueues {
public:
    static constexpr uint32_t kNil = UINT32_MAX;
    static constexpr size_t kNoSlot = SIZE_MAX;

    // The first node of `key`'s queue, kNil when the key has no queue.
    uint32_t Front(uint64_t key) const {
        const size_t i = Find(key);
        return i == kNoSlot ? kNil : slots_[i].head;
    }
    uint32_t Next(uint32_t node) const { return nodes_[node].next; }
    T& At(uint32_t node) { return nodes_[node].value; }
    const T& At(uint32_t node) const { return nodes_[node].value; }
    bool Contains(uint64_t key) const { return Find(key) != kNoSlot; }
    bool Empty() const { return count_ == 0; }

    // A key's slot, for the calls below that take one (a matcher looks its key up once per device
    // log): kNoSlot when the key has no queue. A slot stays valid until a key is added or removed.
    size_t Find(uint64_t key) const {
        if (count_ == 0) return kNoSlot;
        for (size_t i = Home(key);; i = (i + 1) & mask_) {
            const Slot& s = slots_[i];
            if (s.head == kNil) return kNoSlot;
            if (s.key == key) return i;
        }
    }
    uint32_t Head(size_t slot) const { return slots_[slot].head; }

    void PushBack(uint64_t key, const T& value) { Append(InsertSlot(key), value); }

    // The slot of `key`, claimed if it had none; a claimed slot must be given a value (Append)
    // before any other call.
    size_t Claim(uint64_t key) { return InsertSlot(key); }
    void Append(size_t slot, const T& value) { Emplace(slot) = value; }
    // Appends a node to the queue in `slot` and returns its value for the caller to fill in place
    // (a recycled node keeps its old contents: every field must be written).
    T& Emplace(size_t slot) {
        const uint32_t node = Allocate();
        Slot& s = slots_[slot];
        if (s.head == kNil) {
            s.head = node;
        } else {
            nodes_[s.tail].next = node;
        }
        s.tail = node;
        return nodes_[node].value;
    }

    // Removes `node`, whose predecessor in `key`'s queue is `prev` (kNil for the front); a queue
    // left empty removes its key.
    void Remove(uint64_t key, uint32_t prev, uint32_t node) {
        const size_t i = Find(key);
        if (i != kNoSlot) RemoveAt(i, prev, node);
    }
    // The same for the queue in `slot`.
    void RemoveAt(size_t slot, uint32_t prev, uint32_t node) {
        Slot& s = slots_[slot];
        const uint32_t next = nodes_[node].next;
        if (prev == kNil) {
            s.head = next;
        } else {
            nodes_[prev].next = next;
        }
        if (s.tail == node) s.tail = prev;
        Release(node);
        if (s.head == kNil) {
            EraseSlot(slot);
        }
    }

    void PopFront(uint64_t key) {
        const size_t i = Find(key);
        if (i != kNoSlot) PopFrontAt(i);
    }
    // Removes the front node of the queue in `slot` (RemoveAt for the front, with fewer steps: a
    // queue left with nodes keeps its tail).
    void PopFrontAt(size_t slot) {
        Slot& s = slots_[slot];
        const uint32_t node = s.head;
        s.head = nodes_[node].next;
        Release(node);
        if (s.head == kNil) {
            EraseSlot(slot);
        }
    }

    // Removes `key` and its whole queue.
    void EraseKey(uint64_t key) {
        const size_t i = Find(key);
        if (i == kNoSlot) return;
        for (uint32_t n = slots_[i].head; n != kNil;) {
            const uint32_t next = nodes_[n].next;
            Release(n);
            n = next;
        }
        EraseSlot(i);
    }

    // A burst (a reader that fell behind) grows the table; once it has drained, a table larger than
    // the cache-resident size shrinks back, so that the keys in flight are not scattered over a table
    // sized for the burst. Shrinking only below an eighth keeps grow and shrink apart. Called now and
    // then (the matcher's sweep), not as keys leave: a reader whose backlog empties and refills
    // between reads would otherwise shrink and regrow the table at every read.
    void ShrinkIfSparse() {
        size_t size = slots_.size();
        while (size > kShrinkAbove && count_ * 8 < size) size /= 2;
        if (size != slots_.size()) Rehash(size);
    }

    // Every key that has a queue (a snapshot: the caller may modify the map while walking it).
    std::vector<uint64_t> Keys() const {
        std::vector<uint64_t> keys;
        keys.reserve(count_);
        for (const Slot& s : slots_) {
            if (s.head != kNil) keys.push_back(s.key);
        }
        return keys;
    }

private:
    static constexpr size_t kInitialSlots = 1024;
    static constexpr size_t kShrinkAbove = 16384;  // 256 KiB of slots

    struct Slot {
        uint64_t key = 0;
        uint32_t head = kNil;  // kNil: the slot is free
        uint32_t tail = kNil;
    };
    struct Node {
        T value;
        uint32_t next;
    };
    static_assert(std::is_trivially_copyable<T>::value, "nodes are moved as bytes");

    size_t Home(uint64_t key) const { return static_cast<size_t>((key * 0x9E3779B97F4A7C15ULL) >> shift_); }

    // The slot of `key`, claimed (with an empty queue) if it had none.
    size_t InsertSlot(uint64_t key) {
        if (count_ >= max_count_) Grow();
        for (size_t i = Home(key);; i = (i + 1) & mask_) {
            Slot& s = slots_[i];
            if (s.head == kNil) {
                s.key = key;
                s.tail = kNil;
                ++count_;
                return i;
            }
            if (s.key == key) return i;
        }
    }

    void EraseSlot(size_t i) {
        // Backward-shift deletion: later entries of the probe run move up, so no tombstones.
        const size_t mask = mask_;
        for (size_t j = (i + 1) & mask; slots_[j].head != kNil; j = (j + 1) & mask) {
            const size_t home = Home(slots_[j].key);
            // The entry at j may move to i unless its home lies cyclically in (i, j].
            const bool stays = i <= j ? (home > i && home <= j) : (home > i || home <= j);
            if (!stays) {
                slots_[i] = slots_[j];
                i = j;
            }
        }
        slots_[i] = Slot{};
        --count_;
    }

    void Grow() { Rehash(slots_.empty() ? kInitialSlots : slots_.size() * 2); }

    void Rehash(size_t size) {
        std::vector<Slot> old;
        old.swap(slots_);
        slots_.assign(size, Slot{});
        mask_ = size - 1;
        max_count_ = size / 2;  // at most half full: probe runs stay short
        shift_ = 64;
        for (size_t n = size; n > 1; n >>= 1) --shift_;
        count_ = 0;
        for (const Slot& s : old) {
            if (s.head == kNil) continue;
            size_t i = Home(s.key);
            while (slots_[i].head != kNil) i = (i + 1) & mask_;
            slots_[i] = s;
            ++count_;
        }
    }

    // A node with next kNil and a value to be written.
    uint32_t Allocate() {
        if (free_ != kNil) {
            const uint32_t node = free_;
            free_ = nodes_[node].next;
            nodes_[node].next = kNil;
            return node;
        }
        if (node_count_ == node_capacity_) GrowNodes();
        nodes_[node_count_].next = kNil;
        return node_count_++;
    }
    // Doubles the node pool, copying in pieces (common/piecewise_copy.h): a larger memcpy, as a
    // reallocating std::vector makes, is a string instruction that costs a step per byte (callgrind).
    void GrowNodes() {
        const uint32_t capacity = node_capacity_ == 0 ? 64 : node_capacity_ * 2;
        std::unique_ptr<Node[]> bigger(new Node[capacity]);  // not zeroed: a node is written when allocated
        CopyInPieces(bigger.get(), nodes_.get(), size_t{node_count_} * sizeof(Node));
        nodes_ = std::move(bigger);
        node_capacity_ = capacity;
    }
    void Release(uint32_t node) {
        nodes_[node].next = free_;
        free_ = node;
    }

    std::vector<Slot> slots_;
    size_t mask_ = 0;       // slots_.size() - 1 once the table exists
    size_t max_count_ = 0;  // keys the table holds before it grows
    unsigned shift_ = 64;
    size_t count_ = 0;
    std::unique_ptr<Node[]> nodes_;  // node_count_ made, node_capacity_ room
    uint32_t node_count_ = 0;
    uint32_t node_capacity_ = 0;
    uint32_t free_ = kNil;
};

}  // namespace mspti::seam
