// Opaque handles for runtime objects (contexts, binaries, functions, argument
// lists, physical memory). A handle is an encoded value, never a pointer: the
// top 16 bits name the object kind, the next 16 a slot generation and the low
// 32 a slot index. Resolving one reads two atomics without a lock, so the
// launch path can check its function handle cheaply, and a stale or foreign
// value is rejected instead of dereferenced.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

namespace acl {

template <typename T>
class HandleTable {
public:
    explicit HandleTable(uint16_t tag) : tag_(uintptr_t(tag) << 48) {}
    HandleTable(const HandleTable&) = delete;
    HandleTable& operator=(const HandleTable&) = delete;

    // Takes ownership; nullptr when every slot is in use.
    void* insert(std::unique_ptr<T> object) {
        std::lock_guard<std::mutex> lock(mutex_);
        uint32_t index;
        if (!free_.empty()) {
            index = free_.back();
            free_.pop_back();
        } else {
            if (next_ >= kChunkSize * kMaxChunks) return nullptr;
            index = next_++;
            const uint32_t c = index >> kChunkBits;
            if (chunks_[c].load(std::memory_order_relaxed) == nullptr) {
                owned_.push_back(std::make_unique<Chunk>());
                chunks_[c].store(owned_.back().get(), std::memory_order_release);
            }
        }
        Slot& slot = slot_at(index);
        slot.owner = std::move(object);
        const uint16_t generation = slot.generation.load(std::memory_order_relaxed);
        slot.object.store(slot.owner.get(), std::memory_order_release);
        return reinterpret_cast<void*>(tag_ | (uintptr_t(generation) << 32) | index);
    }

    // The object behind a live handle, else nullptr.
    T* find(const void* handle) const {
        const uintptr_t v = reinterpret_cast<uintptr_t>(handle);
        if ((v & kTagMask) != tag_) return nullptr;
        const uint32_t index = static_cast<uint32_t>(v);
        const uint32_t c = index >> kChunkBits;
        if (c >= kMaxChunks) return nullptr;
        const Chunk* chunk = chunks_[c].load(std::memory_order_acquire);
        if (chunk == nullptr) return nullptr;
        const Slot& slot = chunk->slots[index & (kChunkSize - 1)];
        T* object = slot.object.load(std::memory_order_acquire);
        if (object == nullptr || slot.generation.load(std::memory_order_acquire) != uint16_t(v >> 32)) return nullptr;
        return object;
    }

    // Removes a live handle and hands its object back (nullptr if the handle is not live).
    std::unique_ptr<T> erase(const void* handle) {
        std::lock_guard<std::mutex> lock(mutex_);
        if (find(handle) == nullptr) return nullptr;
        const uint32_t index = static_cast<uint32_t>(reinterpret_cast<uintptr_t>(handle));
        Slot& slot = slot_at(index);
        slot.object.store(nullptr, std::memory_order_release);
        slot.generation.fetch_add(1, std::memory_order_acq_rel);  // old handles never match again
        free_.push_back(index);
        return std::move(slot.owner);
    }

private:
    static constexpr uint32_t kChunkBits = 12;
    static constexpr uint32_t kChunkSize = 1u << kChunkBits;
    static constexpr uint32_t kMaxChunks = 1024;  // 4 Mi live handles of one kind
    static constexpr uintptr_t kTagMask = uintptr_t(0xFFFF) << 48;

    struct Slot {
        std::atomic<T*> object{nullptr};
        std::atomic<uint16_t> generation{0};
        std::unique_ptr<T> owner;
    };
    struct Chunk {
        std::array<Slot, kChunkSize> slots;
    };

    Slot& slot_at(uint32_t index) {
        return chunks_[index >> kChunkBits].load(std::memory_order_relaxed)->slots[index & (kChunkSize - 1)];
    }

    const uintptr_t tag_;
    std::mutex mutex_;
    std::array<std::atomic<Chunk*>, kMaxChunks> chunks_{};
    std::vector<std::unique_ptr<Chunk>> owned_;
    std::vector<uint32_t> free_;
    uint32_t next_ = 0;
};

// Handle tags; distinct from the core's stream (0x5157) and event (0x5E47) tags.
constexpr uint16_t kContextTag = 0x5C7E;
constexpr uint16_t kBinaryTag = 0x5B1A;
constexpr uint16_t kFunctionTag = 0x5F0C;
constexpr uint16_t kArgsTag = 0x5A26;
constexpr uint16_t kPhysicalTag = 0x5D4E;
constexpr uint16_t kModelTag = 0x5E0D;

}  // namespace acl
