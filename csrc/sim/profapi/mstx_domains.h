// mstx domain handles of the hub.
//
// The front end (the application) receives the hub's own handles; each maps to
// the handle a tool returned for it, per profiler module. A module's handle is
// created lazily, the first time a call on the domain is routed to that module,
// so switching modules never hands one tool's handle to another.
//
// Handles are encoded values (slot index + generation), never pointers: a call
// with a stale, destroyed or foreign handle is recognised and ignored without
// dereferencing it. Slots live in chunks that are never freed, so a lookup
// needs no lock.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "mstx_tables.h"

namespace npusim::profapi {

class MstxDomains {
public:
    struct Domain {
        std::mutex mutex;  // guards name and lazy creation
        std::string name;
        std::atomic<uint32_t> generation{0};  // odd while live
        std::array<std::atomic<bool>, kMstxModuleSlots> created{};
        std::array<std::atomic<void*>, kMstxModuleSlots> tool_handle{};
    };

    // The hub handle for `name`: the live one of that name if there is one (a name names one
    // domain), else a new one (nullptr when every slot is in use).
    void* create(const char* name);
    // The live domain behind a hub handle, or nullptr.
    Domain* find(void* handle);
    // Ends the handle; later calls with it are ignored.
    void destroy(void* handle);

    // The handle `module`'s tool knows this domain by, created through `create_fn` on first use.
    // `ok` is false when the module cannot have one (no create function).
    static void* tool_handle(Domain& d, uint32_t module, MstxDomainCreateAFn create_fn, bool& ok);

private:
    static constexpr uint32_t kChunkSize = 256;
    static constexpr uint32_t kMaxChunks = 256;  // 65536 live domains
    struct Chunk {
        std::array<Domain, kChunkSize> slots;
    };

    Domain* slot(uint32_t index) const;

    std::mutex mutex_;  // create/destroy
    std::array<std::unique_ptr<Chunk>, kMaxChunks> owned_;
    std::array<std::atomic<Chunk*>, kMaxChunks> chunks_{};  // lock-free view of owned_
    uint32_t next_unused_ = 0;
    std::vector<uint32_t> free_;
};

MstxDomains& mstx_domains();

}  // namespace npusim::profapi
