// Devices: selection, reference-counted opens, queries from the SoC table, topology.
#include "acl/acl.h"
#include "acl/api_entry.h"
#include "acl/enum_value.h"
#include "acl/host_cost.h"
#include "acl/prof_reporter.h"
#include "acl/runtime_state.h"
#include "core/fault_plan.h"

using namespace acl;

namespace {

// The NPU architecture code of a chip type (910B / A3: 2201, 310B: 3002, 950: 3510).
int64_t npu_arch(uint32_t chip_type) {
    switch (chip_type) {
        case 7: return 3002;
        case 15: return 3510;
        default: return 2201;
    }
}

// aclrtGetDevicesTopo result bits.
constexpr uint64_t kTopoHccs = 0x01;
constexpr uint64_t kTopoPix = 0x02;
constexpr uint64_t kTopoSys = 0x10;
constexpr uint64_t kTopoSio = 0x20;

uint64_t topology_between(const npusim::SocSpec& spec, uint32_t a, uint32_t b) {
    // 310B devices have no chip-to-chip links: they meet on the host's PCIe switch.
    if (spec.family == "310B") return kTopoPix;
    const uint32_t per_server = spec.devices_per_server == 0 ? 1 : spec.devices_per_server;
    // Devices of different servers talk through the host network.
    if (a / per_server != b / per_server) return kTopoSys;
    // An A3 package holds two dies (logical devices 2k and 2k+1) joined by SIO.
    if (spec.family == "A3" && a / 2 == b / 2) return kTopoSio;
    return kTopoHccs;
}

}  // namespace

ACL_FUNC_VISIBILITY aclError aclrtSetDevice(int32_t deviceId) {
    NPUSIM_FAULT_RETURN_ARGS("aclrtSetDevice", aclError, deviceId);
    ACL_API_BEGIN(aclrtSetDevice);
    if (const aclError rc = check_device_id(deviceId); rc != ACL_SUCCESS) return rc;
    const uint32_t id = static_cast<uint32_t>(deviceId);
    open_device(id, true);
    ThreadState& ts = thread_state();
    ts.device = deviceId;
    ts.context = primary_context(id);
    return ACL_SUCCESS;
}

// Active (1) while an aclrtSetDevice of the device has not been reset; flags is reserved (NULL).
ACL_FUNC_VISIBILITY aclError aclrtGetPrimaryCtxState(int32_t deviceId, uint32_t* flags, int32_t* active) {
    NPUSIM_FAULT_RETURN("aclrtGetPrimaryCtxState", aclError);
    ACL_API_BEGIN(aclrtGetPrimaryCtxState);
    if (active == nullptr || flags != nullptr) return ACL_ERROR_INVALID_PARAM;
    if (const aclError rc = check_device_id(deviceId); rc != ACL_SUCCESS) return rc;
    *active = primary_context_active(static_cast<uint32_t>(deviceId)) ? 1 : 0;
    return ACL_SUCCESS;
}

namespace {

// aclrtResetDevice closes one aclrtSetDevice; the forced reset closes them all.
aclError reset_device(int32_t deviceId, bool all) {
    if (const aclError rc = check_device_id(deviceId); rc != ACL_SUCCESS) return rc;
    // Resetting a device that is not open is harmless, as in CANN.
    (void)close_device(static_cast<uint32_t>(deviceId), all, true);
    ThreadState& ts = thread_state();
    if (ts.device == deviceId) ts = ThreadState{};
    return ACL_SUCCESS;
}

}  // namespace

ACL_FUNC_VISIBILITY aclError aclrtResetDevice(int32_t deviceId) {
    NPUSIM_FAULT_RETURN_ARGS("aclrtResetDevice", aclError, deviceId);
    ACL_API_BEGIN(aclrtResetDevice);
    return reset_device(deviceId, false);
}

ACL_FUNC_VISIBILITY aclError aclrtResetDeviceForce(int32_t deviceId) {
    NPUSIM_FAULT_RETURN("aclrtResetDeviceForce", aclError);
    ACL_API_BEGIN(aclrtResetDeviceForce);
    return reset_device(deviceId, true);
}

// CANN reports a device's HBM uncorrectable errors and link faults here. The simulator models
// neither, so a device it simulates has no fault to report; 310B has no such query in CANN.
ACL_FUNC_VISIBILITY aclError aclrtGetErrorVerbose(int32_t deviceId, aclrtErrorInfo* errorInfo) {
    NPUSIM_FAULT_RETURN("aclrtGetErrorVerbose", aclError);
    ACL_API_BEGIN(aclrtGetErrorVerbose);
    if (errorInfo == nullptr) return ACL_ERROR_INVALID_PARAM;
    if (soc().family == "310B") return ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
    if (const aclError rc = check_device_id(deviceId); rc != ACL_SUCCESS) return rc;
    errorInfo->tryRepair = 0;
    errorInfo->hasDetail = 0;
    errorInfo->errorType = ACL_RT_NO_ERROR;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtGetDevice(int32_t* deviceId) {
    NPUSIM_FAULT_RETURN_ARGS("aclrtGetDevice", aclError, deviceId);
    ACL_API_BEGIN(aclrtGetDevice);
    if (deviceId == nullptr) return ACL_ERROR_INVALID_PARAM;
    npusim::Device* device = nullptr;
    if (const aclError rc = current_device(device); rc != ACL_SUCCESS) return rc;
    *deviceId = static_cast<int32_t>(device->id());
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtGetDeviceCount(uint32_t* count) {
    NPUSIM_FAULT_RETURN("aclrtGetDeviceCount", aclError);
    ACL_API_BEGIN(aclrtGetDeviceCount);
    if (count == nullptr) return ACL_ERROR_INVALID_PARAM;
    *count = platform().device_count();
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtSynchronizeDevice(void) {
    NPUSIM_FAULT_RETURN("aclrtSynchronizeDevice", aclError);
    ACL_API_BEGIN(aclrtSynchronizeDevice);
    npusim::Device* device = nullptr;
    if (const aclError rc = current_device(device); rc != ACL_SUCCESS) return rc;
    const aclError error = device->settle();  // collectives held on its streams are placed first
    sim_clock().wait_until(device->busy_until_ns());
    sim_clock().spend(sync_return_ns());
    return error;
}

ACL_FUNC_VISIBILITY aclError aclrtGetDeviceInfo(uint32_t deviceId, aclrtDevAttr attr, int64_t* value) {
    NPUSIM_FAULT_RETURN("aclrtGetDeviceInfo", aclError);
    ACL_API_BEGIN(aclrtGetDeviceInfo);
    if (const aclError rc = check_device_id(deviceId); rc != ACL_SUCCESS) return rc;
    if (value == nullptr) return ACL_ERROR_INVALID_PARAM;
    const npusim::SocSpec& s = soc();
    switch (raw_value(attr)) {
        case ACL_DEV_ATTR_AICPU_CORE_NUM: *value = s.aicpu; break;
        case ACL_DEV_ATTR_AICORE_CORE_NUM: *value = s.aic; break;
        case ACL_DEV_ATTR_CUBE_CORE_NUM: *value = s.aic; break;
        case ACL_DEV_ATTR_VECTOR_CORE_NUM: *value = s.aiv; break;
        case ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE: *value = static_cast<int64_t>(s.memory_bytes); break;
        case ACL_DEV_ATTR_L2_CACHE_SIZE: *value = static_cast<int64_t>(s.l2_bytes); break;
        case ACL_DEV_ATTR_HD_CONNECT_TYPE: *value = s.hd_connect_type; break;
        case ACL_DEV_ATTR_NPU_ARCH: *value = npu_arch(s.chip_type); break;
        // Identity of a single simulated chip: its logical id is its physical id, nothing is virtualised.
        case ACL_DEV_ATTR_PHY_CHIP_ID: *value = deviceId; break;
        case ACL_DEV_ATTR_SUPER_POD_DEVICE_ID: *value = deviceId; break;
        case ACL_DEV_ATTR_SMP_ID:
        case ACL_DEV_ATTR_SUPER_POD_SERVER_ID:
        case ACL_DEV_ATTR_SUPER_POD_ID:
        case ACL_DEV_ATTR_MAINBOARD_ID:
        case ACL_DEV_ATTR_CUST_OP_PRIVILEGE:
        case ACL_DEV_ATTR_DEVICE_FORM_FACTOR:
        case ACL_DEV_ATTR_IS_VIRTUAL: *value = 0; break;
        // SIMT figures (warp, grid and block limits, unified buffer per vector core) are not in the SoC table.
        case ACL_DEV_ATTR_WARP_SIZE:
        case ACL_DEV_ATTR_MAX_THREAD_PER_VECTOR_CORE:
        case ACL_DEV_ATTR_UBUF_PER_VECTOR_CORE:
        case ACL_DEV_ATTR_MAX_GRID_DIM_X:
        case ACL_DEV_ATTR_MAX_GRID_DIM_Y:
        case ACL_DEV_ATTR_MAX_GRID_DIM_Z:
        case ACL_DEV_ATTR_MAX_BLOCK_PER_GRID:
        case ACL_DEV_ATTR_MAX_THREADS_PER_BLOCK:
        case ACL_DEV_ATTR_MAX_BLOCK_DIM_X:
        case ACL_DEV_ATTR_MAX_BLOCK_DIM_Y:
        case ACL_DEV_ATTR_MAX_BLOCK_DIM_Z: return ACL_ERROR_FEATURE_UNSUPPORTED;
        default: return ACL_ERROR_INVALID_PARAM;
    }
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclGetDeviceCapability(uint32_t deviceId, aclDeviceInfo deviceInfo, int64_t* value) {
    NPUSIM_FAULT_RETURN("aclGetDeviceCapability", aclError);
    ACL_API_BEGIN(aclGetDeviceCapability);
    if (const aclError rc = check_device_id(deviceId); rc != ACL_SUCCESS) return rc;
    if (value == nullptr) return ACL_ERROR_INVALID_PARAM;
    switch (raw_value(deviceInfo)) {
        case ACL_DEVICE_INFO_AI_CORE_NUM: *value = soc().aic; break;
        case ACL_DEVICE_INFO_VECTOR_CORE_NUM: *value = soc().aiv; break;
        case ACL_DEVICE_INFO_L2_SIZE: *value = static_cast<int64_t>(soc().l2_bytes); break;
        default: return ACL_ERROR_INVALID_PARAM;
    }
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtGetDevicesTopo(uint32_t deviceId, uint32_t otherDeviceId, uint64_t* value) {
    NPUSIM_FAULT_RETURN("aclrtGetDevicesTopo", aclError);
    ACL_API_BEGIN(aclrtGetDevicesTopo);
    if (const aclError rc = check_device_id(deviceId); rc != ACL_SUCCESS) return rc;
    if (const aclError rc = check_device_id(otherDeviceId); rc != ACL_SUCCESS) return rc;
    if (value == nullptr || deviceId == otherDeviceId) return ACL_ERROR_INVALID_PARAM;
    *value = topology_between(soc(), deviceId, otherDeviceId);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtGetLogicDevIdByUserDevId(const int32_t userDevid, int32_t* const logicDevId) {
    NPUSIM_FAULT_RETURN("aclrtGetLogicDevIdByUserDevId", aclError);
    ACL_API_BEGIN(aclrtGetLogicDevIdByUserDevId);
    if (const aclError rc = check_device_id(userDevid); rc != ACL_SUCCESS) return rc;
    if (logicDevId == nullptr) return ACL_ERROR_INVALID_PARAM;
    *logicDevId = userDevid;  // no device visibility remapping in the simulator
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtGetPhyDevIdByLogicDevId(const int32_t logicDevId, int32_t* const phyDevId) {
    NPUSIM_FAULT_RETURN("aclrtGetPhyDevIdByLogicDevId", aclError);
    ACL_API_BEGIN(aclrtGetPhyDevIdByLogicDevId);
    if (const aclError rc = check_device_id(logicDevId); rc != ACL_SUCCESS) return rc;
    if (phyDevId == nullptr) return ACL_ERROR_INVALID_PARAM;
    *phyDevId = logicDevId;
    return ACL_SUCCESS;
}
