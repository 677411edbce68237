// Device and pinned-host memory of the simulated platform: real host memory,
// tracked so that every pointer handed to a copy or a free can be checked.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <shared_mutex>
#include <vector>

#include "core/export.h"

namespace npusim {

enum class MemoryKind : uint8_t { Device, Host, Reserved };

struct Allocation {
    uintptr_t base = 0;
    size_t size = 0;
    uint32_t device = 0;
    MemoryKind kind = MemoryKind::Device;
    bool owned = false;  // allocated by the registry (and so freed by it), not merely registered
};

class MemoryRegistry;

// Keeps an allocation's memory alive while work that the application can no longer wait for still
// uses it (a collective in flight after a synchronisation failed): see MemoryRegistry::pin. Copies
// share the pin; the memory of an allocation released meanwhile is freed with the last one.
class NPUSIM_API MemoryPin {
public:
    MemoryPin() = default;
    MemoryPin(const MemoryPin& other);
    MemoryPin& operator=(const MemoryPin& other);
    MemoryPin(MemoryPin&& other) noexcept;
    MemoryPin& operator=(MemoryPin&& other) noexcept;
    ~MemoryPin();
    explicit operator bool() const { return registry_ != nullptr; }

private:
    friend class MemoryRegistry;
    MemoryPin(MemoryRegistry* registry, uintptr_t base) : registry_(registry), base_(base) {}
    void drop();
    MemoryRegistry* registry_ = nullptr;
    uintptr_t base_ = 0;
};

class NPUSIM_API MemoryRegistry {
public:
    // Allocates `size` bytes (at least 1) aligned to `align`; returns nullptr when the host cannot.
    void* allocate(size_t size, size_t align, uint32_t device, MemoryKind kind);
    // Registers memory owned elsewhere (an address reservation); no backing is allocated.
    void add(uintptr_t base, size_t size, uint32_t device, MemoryKind kind);
    // Releases an allocation the registry made, by its base address; false when `ptr` is not one
    // (registered ranges are only ever removed, never freed here).
    bool release(void* ptr, MemoryKind kind, Allocation* released = nullptr);
    bool remove(uintptr_t base, Allocation* removed = nullptr);
    // The allocation that contains [ptr, ptr+len), if any.
    bool find(const void* ptr, size_t len, Allocation* out) const;
    uint64_t bytes_in_use(uint32_t device, MemoryKind kind) const;
    // Pins the allocation the registry made that contains `ptr` (an empty pin when there is none):
    // until the pin and its copies are gone, a release unregisters the allocation at once (for the
    // application it is freed) but keeps its memory, which the last pin frees.
    MemoryPin pin(const void* ptr);
    // The pins of the application's buffers that work run later reads or writes (a collective, or a
    // copy or fill queued behind a held stream): a synchronisation that fails meanwhile returns at
    // once, and the application may then free them. Pointers the registry did not allocate get none.
    std::vector<MemoryPin> pin_all(const void* const* buffers, size_t count);
    std::vector<MemoryPin> pin_all(std::initializer_list<const void*> buffers) {
        return pin_all(buffers.begin(), buffers.size());
    }

private:
    friend class MemoryPin;
    struct Pinned {
        uint64_t pins = 0;
        bool released = false;  // released while pinned: the last pin frees it
        size_t size = 0;
    };
    void add_pin(uintptr_t base);
    void unpin(uintptr_t base);
    static void free_block(void* ptr, size_t size);

    mutable std::shared_mutex mutex_;
    std::map<uintptr_t, Allocation> allocations_;
    std::map<uintptr_t, Pinned> pinned_;
};

}  // namespace npusim
