// ProfRegisterMstxFunc / ProfEnableMstxFunc over MstxTools.
#include "mstx_tables.h"

#include "core/fault_plan.h"
#include "core/log.h"
#include "core/immortal.h"
#include "profapi_internal.h"

namespace npusim::profapi {

namespace {

constexpr int kMstxSuccess = 0;
constexpr int kMstxFail = 1;

// The getter signature carries no context, so each hub module has its own.
int msprof_table(uint32_t api_module, MstxFuncPointer*** out_table, uint32_t* out_size) {
    return mstx_tools().table(PROF_MODULE_MSPROF, api_module, out_table, out_size);
}
int mspti_table(uint32_t api_module, MstxFuncPointer*** out_table, uint32_t* out_size) {
    return mstx_tools().table(PROF_MODULE_MSPTI, api_module, out_table, out_size);
}

}  // namespace

MstxTools& mstx_tools() {
    static Immortal<MstxTools> tools;
    return tools.get();
}

int MstxTools::table(uint32_t hub_module, uint32_t api_module, MstxFuncPointer*** out_table, uint32_t* out_size) {
    if (!valid_mstx_module(hub_module) || out_table == nullptr || out_size == nullptr) return kMstxFail;
    Staging& s = staging_[hub_module];
    switch (api_module) {
        case MSTX_API_MODULE_CORE:
            *out_table = s.core_table.data();
            *out_size = MSTX_API_CORE_SIZE;
            return kMstxSuccess;
        case MSTX_API_MODULE_CORE_DOMAIN:
            *out_table = s.domain_table.data();
            *out_size = MSTX_API_CORE2_SIZE;
            return kMstxSuccess;
        default: return kMstxFail;  // the hub routes no other mstx module
    }
}

void MstxTools::attach(uint32_t module, MstxInitInjectionFunc init) {
    std::lock_guard<std::recursive_mutex> lock(mutex_);
    Staging& s = staging_[module];
    s = Staging{};
    for (uint32_t id = 1; id < MSTX_API_CORE_SIZE; ++id) s.core_table[id] = &s.core[id];
    for (uint32_t id = 1; id < MSTX_API_CORE2_SIZE; ++id) s.domain_table[id] = &s.domain[id];
    const int rc = init(module == PROF_MODULE_MSPROF ? msprof_table : mspti_table);
    if (rc != kMstxSuccess) log_message(LogLevel::Warn, "ProfRegisterMstxFunc: module %u init returned %d", module, rc);
    // Publish what the tool wrote, even after a failed init: a tool that filled its slots can be called.
    Published& p = published_[module];
    for (uint32_t id = 0; id < MSTX_API_CORE_SIZE; ++id) p.core[id].store(s.core[id], std::memory_order_release);
    for (uint32_t id = 0; id < MSTX_API_CORE2_SIZE; ++id) p.domain[id].store(s.domain[id], std::memory_order_release);
}

bool MstxTools::attached(uint32_t module) const {
    if (!valid_mstx_module(module)) return false;
    const Published& p = published_[module];
    for (const auto& f : p.core) {
        if (f.load(std::memory_order_acquire) != nullptr) return true;
    }
    for (const auto& f : p.domain) {
        if (f.load(std::memory_order_acquire) != nullptr) return true;
    }
    return false;
}

uint32_t current_mstx_module() { return mstx_tools().current(); }
bool mstx_tool_attached(uint32_t module) { return mstx_tools().attached(module); }

}  // namespace npusim::profapi

NPUSIM_C_EXPORT void ProfRegisterMstxFunc(MstxInitInjectionFunc mstxInitFunc, uint32_t module) {
    (void)NPUSIM_FAULT_ARGS("ProfRegisterMstxFunc", mstxInitFunc, module);
    if (mstxInitFunc == nullptr || !npusim::profapi::valid_mstx_module(module)) {
        npusim::log_message(npusim::LogLevel::Error, "ProfRegisterMstxFunc: %s init function for module %u",
                            mstxInitFunc == nullptr ? "no" : "an", module);
        return;
    }
    npusim::profapi::mstx_tools().attach(module, mstxInitFunc);
}

NPUSIM_C_EXPORT void ProfEnableMstxFunc(uint32_t module) {
    (void)NPUSIM_FAULT_ARGS("ProfEnableMstxFunc", module);
    if (!npusim::profapi::valid_mstx_module(module)) {
        npusim::log_message(npusim::LogLevel::Error, "ProfEnableMstxFunc: unknown module %u", module);
        return;
    }
    npusim::profapi::mstx_tools().enable(module);
}
