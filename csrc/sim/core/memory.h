// Device and pinned-host memory of the simulated platform: real host memory,
// tracked so that every pointer handed to a copy or a free can be checked.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <shared_mutex>

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

private:
    mutable std::shared_mutex mutex_;
    std::map<uintptr_t, Allocation> allocations_;
};

}  // namespace npusim
