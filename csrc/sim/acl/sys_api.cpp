// Process-wide runtime options and version queries that a framework issues at start-up (torch_npu
// sets them all when it initialises a device): the CANN release presented, CANN attributes,
// saturation mode, system parameters and operator timeouts. Values are recorded and read back; the
// simulator has no behaviour behind saturation mode, timeouts or the debug-kernel option.
#include <array>
#include <atomic>
#include <cstdio>
#include <cstring>

#include "acl/acl.h"
#include "acl/api_entry.h"
#include "acl/runtime_state.h"
#include "core/fault_plan.h"

using namespace acl;

namespace {

// The CANN release whose ABI the simulator presents to programs that check it: `cann_version` of
// sim_runtime/data/toolkit_layout.toml, which the build passes in (csrc/sim/CMakeLists.txt).
constexpr const char* kCannMajor = NPU_SIM_CANN_MAJOR;
constexpr const char* kCannMinor = NPU_SIM_CANN_MINOR;
constexpr const char* kCannRelease = NPU_SIM_CANN_RELEASE;
constexpr const char* kCannVersion = NPU_SIM_CANN_MAJOR "." NPU_SIM_CANN_MINOR "." NPU_SIM_CANN_RELEASE;

struct SysOptions {
    std::atomic<int32_t> sat_mode{ACL_RT_OVERFLOW_MODE_SATURATION};
    std::array<std::atomic<int64_t>, 3> params{};  // indexed by aclSysParamOpt
    std::atomic<uint64_t> op_execute_timeout_us{0};
    std::atomic<uint32_t> op_wait_timeout_s{0};
};

SysOptions& options() {
    static SysOptions instance;
    return instance;
}

bool valid_param(aclSysParamOpt opt) {
    const auto index = static_cast<int64_t>(opt);
    return index >= 0 && index < static_cast<int64_t>(options().params.size());
}

void copy_text(char* out, size_t size, const char* text) { std::snprintf(out, size, "%s", text); }

}  // namespace

ACL_FUNC_VISIBILITY aclError aclsysGetCANNVersion(aclCANNPackageName name, aclCANNPackageVersion* version) {
    NPUSIM_FAULT_RETURN("aclsysGetCANNVersion", aclError);
    const auto package = static_cast<int32_t>(name);
    if (version == nullptr || package < ACL_PKG_NAME_CANN || package > ACL_PKG_NAME_DRIVER) {
        return ACL_ERROR_INVALID_PARAM;
    }
    std::memset(version, 0, sizeof *version);
    copy_text(version->version, sizeof version->version, kCannVersion);
    copy_text(version->majorVersion, sizeof version->majorVersion, kCannMajor);
    copy_text(version->minorVersion, sizeof version->minorVersion, kCannMinor);
    copy_text(version->releaseVersion, sizeof version->releaseVersion, kCannRelease);
    return ACL_SUCCESS;
}

// versionStr is a buffer of ACL_PKG_VERSION_MAX_SIZE bytes, as CANN documents it.
ACL_FUNC_VISIBILITY aclError aclsysGetVersionStr(char* pkgName, char* versionStr) {
    NPUSIM_FAULT_RETURN("aclsysGetVersionStr", aclError);
    if (pkgName == nullptr || versionStr == nullptr) return ACL_ERROR_INVALID_PARAM;
    copy_text(versionStr, ACL_PKG_VERSION_MAX_SIZE, kCannVersion);
    return ACL_SUCCESS;
}

// INF/NAN mode and BF16 are supported by every simulated SoC; operators need no JIT compilation.
ACL_FUNC_VISIBILITY aclError aclGetCannAttribute(aclCannAttr cannAttr, int32_t* value) {
    NPUSIM_FAULT_RETURN("aclGetCannAttribute", aclError);
    if (value == nullptr) return ACL_ERROR_INVALID_PARAM;
    switch (cannAttr) {
        case ACL_CANN_ATTR_INF_NAN: *value = 1; return ACL_SUCCESS;
        case ACL_CANN_ATTR_BF16: *value = 1; return ACL_SUCCESS;
        case ACL_CANN_ATTR_JIT_COMPILE: *value = 0; return ACL_SUCCESS;
        default: return ACL_ERROR_INVALID_PARAM;
    }
}

ACL_FUNC_VISIBILITY aclError aclrtSetDeviceSatMode(aclrtFloatOverflowMode mode) {
    NPUSIM_FAULT_RETURN("aclrtSetDeviceSatMode", aclError);
    ACL_API_BEGIN(aclrtSetDeviceSatMode);
    const auto value = static_cast<int32_t>(mode);
    if (value != ACL_RT_OVERFLOW_MODE_SATURATION && value != ACL_RT_OVERFLOW_MODE_INFNAN) {
        return ACL_ERROR_INVALID_PARAM;
    }
    options().sat_mode.store(value, std::memory_order_relaxed);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtGetDeviceSatMode(aclrtFloatOverflowMode* mode) {
    NPUSIM_FAULT_RETURN("aclrtGetDeviceSatMode", aclError);
    ACL_API_BEGIN(aclrtGetDeviceSatMode);
    if (mode == nullptr) return ACL_ERROR_INVALID_PARAM;
    *mode = static_cast<aclrtFloatOverflowMode>(options().sat_mode.load(std::memory_order_relaxed));
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtSetSysParamOpt(aclSysParamOpt opt, int64_t value) {
    NPUSIM_FAULT_RETURN("aclrtSetSysParamOpt", aclError);
    ACL_API_BEGIN(aclrtSetSysParamOpt);
    if (!valid_param(opt)) return ACL_ERROR_INVALID_PARAM;
    options().params[static_cast<size_t>(opt)].store(value, std::memory_order_relaxed);
    return ACL_SUCCESS;
}

// The simulator has one set of system parameters per process, shared by its contexts.
ACL_FUNC_VISIBILITY aclError aclrtCtxSetSysParamOpt(aclSysParamOpt opt, int64_t value) {
    NPUSIM_FAULT_RETURN("aclrtCtxSetSysParamOpt", aclError);
    ACL_API_BEGIN(aclrtCtxSetSysParamOpt);
    if (!valid_param(opt)) return ACL_ERROR_INVALID_PARAM;
    options().params[static_cast<size_t>(opt)].store(value, std::memory_order_relaxed);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtGetSysParamOpt(aclSysParamOpt opt, int64_t* value) {
    NPUSIM_FAULT_RETURN("aclrtGetSysParamOpt", aclError);
    ACL_API_BEGIN(aclrtGetSysParamOpt);
    if (!valid_param(opt) || value == nullptr) return ACL_ERROR_INVALID_PARAM;
    *value = options().params[static_cast<size_t>(opt)].load(std::memory_order_relaxed);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtSetOpWaitTimeout(uint32_t timeout) {
    NPUSIM_FAULT_RETURN("aclrtSetOpWaitTimeout", aclError);
    ACL_API_BEGIN(aclrtSetOpWaitTimeout);
    options().op_wait_timeout_s.store(timeout, std::memory_order_relaxed);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtSetOpExecuteTimeOut(uint32_t timeout) {
    NPUSIM_FAULT_RETURN("aclrtSetOpExecuteTimeOut", aclError);
    ACL_API_BEGIN(aclrtSetOpExecuteTimeOut);
    options().op_execute_timeout_us.store(uint64_t{timeout} * 1000000u, std::memory_order_relaxed);
    return ACL_SUCCESS;
}

// timeout in microseconds; the simulator applies it exactly, so the actual timeout is the one asked.
ACL_FUNC_VISIBILITY aclError aclrtSetOpExecuteTimeOutV2(uint64_t timeout, uint64_t* actualTimeout) {
    NPUSIM_FAULT_RETURN("aclrtSetOpExecuteTimeOutV2", aclError);
    ACL_API_BEGIN(aclrtSetOpExecuteTimeOutV2);
    if (actualTimeout == nullptr) return ACL_ERROR_INVALID_PARAM;
    options().op_execute_timeout_us.store(timeout, std::memory_order_relaxed);
    *actualTimeout = timeout;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtGetLastError(aclrtLastErrLevel level) {
    NPUSIM_FAULT_RETURN("aclrtGetLastError", aclError);
    ACL_API_BEGIN(aclrtGetLastError);
    const auto value = static_cast<int32_t>(level);
    if (value != ACL_RT_THREAD_LEVEL && value != ACL_RT_PROCESS_LEVEL) return ACL_ERROR_INVALID_PARAM;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtPeekAtLastError(aclrtLastErrLevel level) {
    NPUSIM_FAULT_RETURN("aclrtPeekAtLastError", aclError);
    ACL_API_BEGIN(aclrtPeekAtLastError);
    const auto value = static_cast<int32_t>(level);
    if (value != ACL_RT_THREAD_LEVEL && value != ACL_RT_PROCESS_LEVEL) return ACL_ERROR_INVALID_PARAM;
    return ACL_SUCCESS;
}
