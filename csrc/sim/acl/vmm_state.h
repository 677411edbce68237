// Virtual memory management state: address reservations, physical memory
// objects (memfd-backed, counted against device memory), the mappings between
// them and the shareable ids exported for physical memory.
#pragma once

#include <unistd.h>

#include <cstddef>
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

namespace acl {

// True when `ptr` is the base of a live aclrtMapMem mapping. Such a range is
// registered as device memory (so copies into it validate) but is not an
// aclrtMalloc allocation, so aclrtFree must refuse it.
bool is_vmm_mapping(const void* ptr);

// True when some byte of [ptr, ptr+len) lies in a reserved address range but
// in none of its mappings: such bytes are inaccessible (PROT_NONE). The
// registry alone cannot tell, because a mapping at a reservation's base
// replaces the reservation's registry entry.
bool touches_unmapped_reservation(const void* ptr, size_t len);

class UniqueFd {
public:
    explicit UniqueFd(int fd = -1) : fd_(fd) {}
    ~UniqueFd() {
        if (fd_ >= 0) ::close(fd_);
    }
    UniqueFd(UniqueFd&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }
    UniqueFd& operator=(UniqueFd&&) = delete;
    UniqueFd(const UniqueFd&) = delete;
    UniqueFd& operator=(const UniqueFd&) = delete;
    int get() const { return fd_; }

private:
    int fd_;
};

// Physical memory: a memory file of `size` bytes. Device memory is counted
// against its device until the last handle and the last mapping let go.
struct PhysicalMemory {
    UniqueFd fd;
    size_t size = 0;
    uint32_t device = 0;
    bool counted = false;
    uint64_t shareable_id = 0;  // 0 until exported
    PhysicalMemory(UniqueFd f, size_t s, uint32_t d, bool c) : fd(std::move(f)), size(s), device(d), counted(c) {}
    ~PhysicalMemory();
    PhysicalMemory(const PhysicalMemory&) = delete;
    PhysicalMemory& operator=(const PhysicalMemory&) = delete;
};

// What an aclrtDrvMemHandle refers to (an import makes a second handle to the same memory).
struct PhysicalHandle {
    std::shared_ptr<PhysicalMemory> memory;
};

struct Reservation {
    uintptr_t base = 0;
    size_t size = 0;   // whole pages
    uint32_t device = 0;
};

struct Mapping {
    uintptr_t base = 0;
    size_t size = 0;
    uintptr_t reservation = 0;  // base of the reservation it lies in
    std::shared_ptr<PhysicalMemory> memory;
};

struct Shareable {
    std::weak_ptr<PhysicalMemory> memory;
    std::vector<int32_t> pids;  // processes allowed to import (recorded only)
};

// All tables, under one lock (none of these calls is on a hot path).
struct VmmState {
    std::mutex mutex;
    std::map<uintptr_t, Reservation> reservations;
    std::map<uintptr_t, Mapping> mappings;
    std::map<uint64_t, Shareable> shareables;
    uint64_t next_shareable = 1;
    std::atomic<size_t> live_reservations{0};  // lets copies skip the lock when there are none
};

VmmState& vmm_state();

}  // namespace acl
