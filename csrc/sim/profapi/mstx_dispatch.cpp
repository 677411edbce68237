// The mstx functions libprofapi installs into an mstx front end
// (InitInjectionMstx), each forwarding to the tool of the current module.
//
// With no tool attached to the current module a call is one atomic load of the
// module, one of its slot, and a branch; range starts then return 0 ("not
// recorded"), as the front end does when nothing is injected.
#include <cstdint>
#include <iterator>

#include "core/fault_plan.h"
#include "core/log.h"
#include "mstx_domains.h"
#include "mstx_tables.h"

namespace npusim::profapi {

namespace {

constexpr int kMstxSuccess = 0;
constexpr int kMstxFail = 1;

void mark_a(const char* message, aclrtStream stream) {
    MstxTools& tools = mstx_tools();
    if (auto fn = tools.core<MstxMarkAFn>(tools.current(), MSTX_API_CORE_MARK_A)) fn(message, stream);
}

mstxRangeId range_start_a(const char* message, aclrtStream stream) {
    MstxTools& tools = mstx_tools();
    auto fn = tools.core<MstxRangeStartAFn>(tools.current(), MSTX_API_CORE_RANGE_START_A);
    return fn != nullptr ? fn(message, stream) : 0;
}

void range_end(mstxRangeId id) {
    MstxTools& tools = mstx_tools();
    if (auto fn = tools.core<MstxRangeEndFn>(tools.current(), MSTX_API_CORE_RANGE_END)) fn(id);
}

// Hub handles are opaque encoded values (mstx_domains.h), typed as the front end's handle at the table.
mstxDomainHandle_t as_handle(void* handle) { return static_cast<mstxDomainHandle_t>(handle); }

// Translates a hub handle for `module`'s tool. A null handle passes through (a tool reads it
// as its default domain); an unknown one, or a module that cannot create domains, yields false.
bool translate(void* hub_handle, uint32_t module, void*& tool_handle) {
    tool_handle = nullptr;
    if (hub_handle == nullptr) return true;
    MstxDomains::Domain* d = mstx_domains().find(hub_handle);
    if (d == nullptr) return false;
    bool ok = false;
    tool_handle = MstxDomains::tool_handle(
        *d, module, mstx_tools().domain<MstxDomainCreateAFn>(module, MSTX_API_CORE2_DOMAIN_CREATE_A), ok);
    return ok;
}

mstxDomainHandle_t domain_create_a(const char* name) {
    if (name == nullptr) return nullptr;
    void* hub_handle = mstx_domains().create(name);
    if (hub_handle == nullptr) {
        log_message(LogLevel::Error, "mstxDomainCreateA: too many live domains");
        return nullptr;
    }
    // The current module learns of the domain now; other modules on their first call with it.
    // A tool that refuses the name (NULL for "default", or a name too long) refuses it for the
    // application too, as when the application talks to the tool directly.
    const uint32_t module = mstx_tools().current();
    void* tool_handle = nullptr;
    const bool known = translate(hub_handle, module, tool_handle);
    const bool tool_creates =
        mstx_tools().domain<MstxDomainCreateAFn>(module, MSTX_API_CORE2_DOMAIN_CREATE_A) != nullptr;
    if (known && tool_creates && tool_handle == nullptr) {
        mstx_domains().destroy(hub_handle);
        return nullptr;
    }
    return as_handle(hub_handle);
}

void domain_destroy(mstxDomainHandle_t domain) {
    MstxTools& tools = mstx_tools();
    const uint32_t module = tools.current();
    // Only a module that already knows the domain is told; none is made to create it just to destroy it.
    MstxDomains::Domain* d = domain != nullptr ? mstx_domains().find(domain) : nullptr;
    auto fn = tools.domain<MstxDomainDestroyFn>(module, MSTX_API_CORE2_DOMAIN_DESTROY);
    if (fn != nullptr && (domain == nullptr || (d != nullptr && d->created[module].load(std::memory_order_acquire)))) {
        fn(as_handle(d != nullptr ? d->tool_handle[module].load(std::memory_order_relaxed) : nullptr));
    }
    if (d != nullptr) mstx_domains().destroy(domain);
}

void domain_mark_a(mstxDomainHandle_t domain, const char* message, aclrtStream stream) {
    MstxTools& tools = mstx_tools();
    const uint32_t module = tools.current();
    auto fn = tools.domain<MstxDomainMarkAFn>(module, MSTX_API_CORE2_DOMAIN_MARK_A);
    void* tool_handle = nullptr;
    if (fn != nullptr && translate(domain, module, tool_handle)) fn(as_handle(tool_handle), message, stream);
}

mstxRangeId domain_range_start_a(mstxDomainHandle_t domain, const char* message, aclrtStream stream) {
    MstxTools& tools = mstx_tools();
    const uint32_t module = tools.current();
    auto fn = tools.domain<MstxDomainRangeStartAFn>(module, MSTX_API_CORE2_DOMAIN_RANGE_START_A);
    void* tool_handle = nullptr;
    return fn != nullptr && translate(domain, module, tool_handle) ? fn(as_handle(tool_handle), message, stream) : 0;
}

void domain_range_end(mstxDomainHandle_t domain, mstxRangeId id) {
    MstxTools& tools = mstx_tools();
    const uint32_t module = tools.current();
    auto fn = tools.domain<MstxDomainRangeEndFn>(module, MSTX_API_CORE2_DOMAIN_RANGE_END);
    void* tool_handle = nullptr;
    if (fn != nullptr && translate(domain, module, tool_handle)) fn(as_handle(tool_handle), id);
}

struct Install {
    uint32_t id;
    MstxFuncPointer fn;
};

// Writes each function through the front end's slot table; ids the front end does not offer are skipped.
bool install(MstxGetModuleFuncTableFunc get_table, uint32_t api_module, const Install* begin, const Install* end) {
    MstxFuncPointer** table = nullptr;
    uint32_t size = 0;
    if (get_table(api_module, &table, &size) != kMstxSuccess || table == nullptr) return false;
    for (const Install* it = begin; it != end; ++it) {
        if (it->id < size && table[it->id] != nullptr) *table[it->id] = it->fn;
    }
    return true;
}

template <typename Fn>
MstxFuncPointer erase(Fn fn) {
    return reinterpret_cast<MstxFuncPointer>(fn);
}

}  // namespace

}  // namespace npusim::profapi

NPUSIM_C_EXPORT int InitInjectionMstx(MstxGetModuleFuncTableFunc getFuncTable) {
    NPUSIM_FAULT_RETURN_ARGS("InitInjectionMstx", int, getFuncTable);
    using namespace npusim::profapi;
    if (getFuncTable == nullptr) return kMstxFail;
    static const Install kCore[] = {
        {MSTX_API_CORE_MARK_A, erase(mark_a)},
        {MSTX_API_CORE_RANGE_START_A, erase(range_start_a)},
        {MSTX_API_CORE_RANGE_END, erase(range_end)},
    };
    static const Install kDomain[] = {
        {MSTX_API_CORE2_DOMAIN_CREATE_A, erase(domain_create_a)},
        {MSTX_API_CORE2_DOMAIN_DESTROY, erase(domain_destroy)},
        {MSTX_API_CORE2_DOMAIN_MARK_A, erase(domain_mark_a)},
        {MSTX_API_CORE2_DOMAIN_RANGE_START_A, erase(domain_range_start_a)},
        {MSTX_API_CORE2_DOMAIN_RANGE_END, erase(domain_range_end)},
    };
    const bool core = install(getFuncTable, MSTX_API_MODULE_CORE, std::begin(kCore), std::end(kCore));
    const bool domain = install(getFuncTable, MSTX_API_MODULE_CORE_DOMAIN, std::begin(kDomain), std::end(kDomain));
    return core || domain ? kMstxSuccess : kMstxFail;
}
