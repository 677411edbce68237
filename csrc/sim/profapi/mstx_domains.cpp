#include "mstx_domains.h"

#include "core/immortal.h"

namespace npusim::profapi {

namespace {

// A handle is (generation << 32) | (index + 1): never null, never a valid pointer to anything.
void* encode(uint32_t index, uint32_t generation) {
    return reinterpret_cast<void*>((static_cast<uintptr_t>(generation) << 32) | (static_cast<uintptr_t>(index) + 1));
}

static_assert(sizeof(uintptr_t) == 8, "domain handles encode 64-bit values");

}  // namespace

MstxDomains& mstx_domains() {
    static Immortal<MstxDomains> domains;
    return domains.get();
}

MstxDomains::Domain* MstxDomains::slot(uint32_t index) const {
    if (index >= kChunkSize * kMaxChunks) return nullptr;
    Chunk* chunk = chunks_[index / kChunkSize].load(std::memory_order_acquire);
    return chunk == nullptr ? nullptr : &chunk->slots[index % kChunkSize];
}

void* MstxDomains::create(const char* name) {
    std::lock_guard<std::mutex> lock(mutex_);
    for (uint32_t i = 0; i < next_unused_; ++i) {
        Domain& existing = *slot(i);
        const uint32_t generation = existing.generation.load(std::memory_order_acquire);
        if ((generation & 1u) == 0) continue;
        std::lock_guard<std::mutex> domain_lock(existing.mutex);
        if (existing.name == name) return encode(i, generation);
    }
    uint32_t index = 0;
    if (!free_.empty()) {
        index = free_.back();
        free_.pop_back();
    } else {
        if (next_unused_ == kChunkSize * kMaxChunks) return nullptr;
        index = next_unused_++;
        const uint32_t c = index / kChunkSize;
        if (!owned_[c]) {
            owned_[c] = std::make_unique<Chunk>();
            chunks_[c].store(owned_[c].get(), std::memory_order_release);
        }
    }
    Domain& d = *slot(index);
    std::lock_guard<std::mutex> domain_lock(d.mutex);
    d.name = name;
    for (uint32_t m = 0; m < kMstxModuleSlots; ++m) {
        d.created[m].store(false, std::memory_order_relaxed);
        d.tool_handle[m].store(nullptr, std::memory_order_relaxed);
    }
    const uint32_t generation = d.generation.load(std::memory_order_relaxed) + 1;  // even -> odd: live
    d.generation.store(generation, std::memory_order_release);
    return encode(index, generation);
}

MstxDomains::Domain* MstxDomains::find(void* handle) {
    const auto value = reinterpret_cast<uintptr_t>(handle);
    const auto low = static_cast<uint32_t>(value & 0xFFFFFFFFu);
    const auto generation = static_cast<uint32_t>(value >> 32);
    if (low == 0 || (generation & 1u) == 0) return nullptr;
    Domain* d = slot(low - 1);
    if (d == nullptr || d->generation.load(std::memory_order_acquire) != generation) return nullptr;
    return d;
}

void MstxDomains::destroy(void* handle) {
    std::lock_guard<std::mutex> lock(mutex_);
    Domain* d = find(handle);
    if (d == nullptr) return;
    d->generation.fetch_add(1, std::memory_order_acq_rel);  // odd -> even: dead
    free_.push_back(static_cast<uint32_t>((reinterpret_cast<uintptr_t>(handle) & 0xFFFFFFFFu) - 1));
}

void* MstxDomains::tool_handle(Domain& d, uint32_t module, MstxDomainCreateAFn create_fn, bool& ok) {
    ok = true;
    if (d.created[module].load(std::memory_order_acquire)) return d.tool_handle[module].load(std::memory_order_relaxed);
    std::lock_guard<std::mutex> lock(d.mutex);
    if (!d.created[module].load(std::memory_order_relaxed)) {
        if (create_fn == nullptr) {
            ok = false;
            return nullptr;
        }
        // A tool may legitimately answer null (msPTI does for "default"); that is its handle.
        d.tool_handle[module].store(create_fn(d.name.c_str()), std::memory_order_relaxed);
        d.created[module].store(true, std::memory_order_release);
    }
    return d.tool_handle[module].load(std::memory_order_relaxed);
}

}  // namespace npusim::profapi
