#include "core/memory.h"

#include <sys/mman.h>

#include <algorithm>
#include <cstdlib>
#include <mutex>
#include <utility>

namespace npusim {

namespace {
// Large blocks come from mmap so that untouched pages cost nothing, as device memory costs the host nothing.
constexpr size_t kMmapThreshold = 1u << 20;
}  // namespace

void* MemoryRegistry::allocate(size_t size, size_t align, uint32_t device, MemoryKind kind) {
    if (size == 0) size = 1;
    void* p = nullptr;
    if (size >= kMmapThreshold) {
        p = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (p == MAP_FAILED) return nullptr;
    } else {
        const size_t rounded = (size + align - 1) / align * align;
        p = std::aligned_alloc(align, rounded);
        if (p == nullptr) return nullptr;
    }
    std::unique_lock<std::shared_mutex> lock(mutex_);
    allocations_[reinterpret_cast<uintptr_t>(p)] = Allocation{reinterpret_cast<uintptr_t>(p), size, device, kind, true};
    return p;
}

void MemoryRegistry::add(uintptr_t base, size_t size, uint32_t device, MemoryKind kind) {
    std::unique_lock<std::shared_mutex> lock(mutex_);
    allocations_[base] = Allocation{base, size, device, kind, false};
}

bool MemoryRegistry::remove(uintptr_t base, Allocation* removed) {
    std::unique_lock<std::shared_mutex> lock(mutex_);
    auto it = allocations_.find(base);
    if (it == allocations_.end()) return false;
    if (removed) *removed = it->second;
    allocations_.erase(it);
    return true;
}

bool MemoryRegistry::release(void* ptr, MemoryKind kind, Allocation* released) {
    Allocation a;
    {
        std::unique_lock<std::shared_mutex> lock(mutex_);
        auto it = allocations_.find(reinterpret_cast<uintptr_t>(ptr));
        if (it == allocations_.end() || it->second.kind != kind || !it->second.owned) return false;
        a = it->second;
        allocations_.erase(it);
        if (auto p = pinned_.find(a.base); p != pinned_.end()) {
            p->second.released = true;  // still in use: the last pin frees it
            p->second.size = a.size;
            if (released) *released = a;
            return true;
        }
    }
    if (released) *released = a;
    free_block(ptr, a.size);
    return true;
}

void MemoryRegistry::free_block(void* ptr, size_t size) {
    if (size >= kMmapThreshold) munmap(ptr, size);
    else std::free(ptr);
}

MemoryPin MemoryRegistry::pin(const void* ptr) {
    if (ptr == nullptr) return {};
    const uintptr_t p = reinterpret_cast<uintptr_t>(ptr);
    std::unique_lock<std::shared_mutex> lock(mutex_);
    auto it = allocations_.upper_bound(p);
    if (it == allocations_.begin()) return {};
    --it;
    const Allocation& a = it->second;
    if (!a.owned || p - a.base >= std::max<size_t>(a.size, 1)) return {};
    ++pinned_[a.base].pins;
    return MemoryPin(this, a.base);
}

std::vector<MemoryPin> MemoryRegistry::pin_all(const void* const* buffers, size_t count) {
    std::vector<MemoryPin> pins;
    for (size_t i = 0; i < count; ++i) {
        if (MemoryPin one = pin(buffers[i])) pins.push_back(std::move(one));
    }
    return pins;
}

void MemoryRegistry::add_pin(uintptr_t base) {
    std::unique_lock<std::shared_mutex> lock(mutex_);
    ++pinned_[base].pins;
}

void MemoryRegistry::unpin(uintptr_t base) {
    Pinned last;
    {
        std::unique_lock<std::shared_mutex> lock(mutex_);
        auto it = pinned_.find(base);
        if (it == pinned_.end() || --it->second.pins != 0) return;
        last = it->second;
        pinned_.erase(it);
    }
    if (last.released) free_block(reinterpret_cast<void*>(base), last.size);
}

MemoryPin::MemoryPin(const MemoryPin& other) : registry_(other.registry_), base_(other.base_) {
    if (registry_ != nullptr) registry_->add_pin(base_);
}

MemoryPin& MemoryPin::operator=(const MemoryPin& other) {
    if (this != &other) {
        if (other.registry_ != nullptr) other.registry_->add_pin(other.base_);
        drop();
        registry_ = other.registry_;
        base_ = other.base_;
    }
    return *this;
}

MemoryPin::MemoryPin(MemoryPin&& other) noexcept : registry_(other.registry_), base_(other.base_) {
    other.registry_ = nullptr;
}

MemoryPin& MemoryPin::operator=(MemoryPin&& other) noexcept {
    if (this != &other) {
        drop();
        registry_ = other.registry_;
        base_ = other.base_;
        other.registry_ = nullptr;
    }
    return *this;
}

MemoryPin::~MemoryPin() { drop(); }

void MemoryPin::drop() {
    if (registry_ != nullptr) registry_->unpin(base_);
    registry_ = nullptr;
}

bool MemoryRegistry::find(const void* ptr, size_t len, Allocation* out) const {
    const uintptr_t p = reinterpret_cast<uintptr_t>(ptr);
    std::shared_lock<std::shared_mutex> lock(mutex_);
    auto it = allocations_.upper_bound(p);
    if (it == allocations_.begin()) return false;
    --it;
    const Allocation& a = it->second;
    if (p < a.base || p - a.base > a.size || len > a.size - (p - a.base)) return false;
    if (out) *out = a;
    return true;
}

uint64_t MemoryRegistry::bytes_in_use(uint32_t device, MemoryKind kind) const {
    std::shared_lock<std::shared_mutex> lock(mutex_);
    uint64_t total = 0;
    for (const auto& [base, a] : allocations_) {
        if (a.device == device && a.kind == kind) total += a.size;
    }
    return total;
}

}  // namespace npusim
