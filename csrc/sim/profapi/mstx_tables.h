// The mstx tools attached to libprofapi: one private function table per
// profiler module (PROF_MODULE_MSPROF, PROF_MODULE_MSPTI), filled by the tool
// through ProfRegisterMstxFunc, and the switch (ProfEnableMstxFunc) that picks
// the module mstx calls are routed to.
//
// A tool fills its table during its init call, through the same
// pointer-to-slot tables an mstx front end hands to InitInjectionMstx. The
// slots it wrote are then published to atomics, from which the dispatchers read
// with an acquire load: routing a call costs two atomic loads and a branch.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <mutex>

#include "seam/mstx_table.h"
#include "seam/profapi.h"

namespace npusim::profapi {

// The C signatures of the mstx functions the hub routes: exactly the front end's types (a function
// called through a pointer of another type is undefined, and clang's -fsanitize=function checks it).
using MstxMarkAFn = void (*)(const char* message, aclrtStream stream);
using MstxRangeStartAFn = mstxRangeId (*)(const char* message, aclrtStream stream);
using MstxRangeEndFn = void (*)(mstxRangeId id);
using MstxDomainCreateAFn = mstxDomainHandle_t (*)(const char* name);
using MstxDomainDestroyFn = void (*)(mstxDomainHandle_t domain);
using MstxDomainMarkAFn = void (*)(mstxDomainHandle_t domain, const char* message, aclrtStream stream);
using MstxDomainRangeStartAFn = mstxRangeId (*)(mstxDomainHandle_t domain, const char* message, aclrtStream stream);
using MstxDomainRangeEndFn = void (*)(mstxDomainHandle_t domain, mstxRangeId id);

constexpr uint32_t kMstxModuleSlots = 3;  // indexed by PROF_MODULE_*; 0 (invalid) stays empty

inline bool valid_mstx_module(uint32_t module) { return module == PROF_MODULE_MSPROF || module == PROF_MODULE_MSPTI; }

class MstxTools {
public:
    // Calls init with this module's table getter; what the tool writes becomes the module's table
    // (slots it leaves alone become empty, so a re-registration replaces the whole table).
    void attach(uint32_t module, MstxInitInjectionFunc init);
    void enable(uint32_t module) { current_.store(module, std::memory_order_release); }
    uint32_t current() const { return current_.load(std::memory_order_acquire); }
    bool attached(uint32_t module) const;

    // A published function of `module` (nullptr when the tool did not provide it).
    template <typename Fn>
    Fn core(uint32_t module, uint32_t id) const {
        return reinterpret_cast<Fn>(published_[module].core[id].load(std::memory_order_acquire));
    }
    template <typename Fn>
    Fn domain(uint32_t module, uint32_t id) const {
        return reinterpret_cast<Fn>(published_[module].domain[id].load(std::memory_order_acquire));
    }

    // The getter handed to a tool: the table of api_module (CORE or CORE_DOMAIN) of hub_module.
    int table(uint32_t hub_module, uint32_t api_module, MstxFuncPointer*** out_table, uint32_t* out_size);

private:
    // Where a tool writes during its init: slots plus the pointer-to-slot arrays, laid out like an
    // mstx front end's (entry 0 and the entry at `size` are null; valid ids are 1..size-1).
    struct Staging {
        std::array<MstxFuncPointer, MSTX_API_CORE_SIZE> core{};
        std::array<MstxFuncPointer, MSTX_API_CORE2_SIZE> domain{};
        std::array<MstxFuncPointer*, MSTX_API_CORE_SIZE + 1> core_table{};
        std::array<MstxFuncPointer*, MSTX_API_CORE2_SIZE + 1> domain_table{};
    };
    struct Published {
        std::array<std::atomic<MstxFuncPointer>, MSTX_API_CORE_SIZE> core{};
        std::array<std::atomic<MstxFuncPointer>, MSTX_API_CORE2_SIZE> domain{};
    };

    std::recursive_mutex mutex_;  // serialises attach (a tool's init may re-enter)
    std::array<Staging, kMstxModuleSlots> staging_{};
    std::array<Published, kMstxModuleSlots> published_{};
    std::atomic<uint32_t> current_{PROF_MODULE_MSPROF};
};

MstxTools& mstx_tools();

}  // namespace npusim::profapi
