// Device enumeration and device information of the simulated driver.
#include "core/fault_plan.h"
#include "core/platform.h"
#include "seam/hal.h"

using npusim::Platform;

namespace {
// Below the host-frequency threshold: CANN host timestamps are CLOCK_MONOTONIC_RAW ns.
constexpr int32_t kHalApiVersion = 0x071800;
}  // namespace

NPUSIM_C_EXPORT drvError_t drvGetDevNum(uint32_t* numDev) {
    NPUSIM_FAULT_RETURN_ARGS("drvGetDevNum", drvError_t, numDev);
    if (numDev == nullptr) return DRV_ERROR_INVALID_VALUE;
    Platform& p = Platform::instance();
    if (!p.ok()) return DRV_ERROR_INNER_ERR;
    *numDev = p.device_count();
    return DRV_ERROR_NONE;
}

NPUSIM_C_EXPORT drvError_t drvGetDevIDs(uint32_t* devices, uint32_t len) {
    NPUSIM_FAULT_RETURN_ARGS("drvGetDevIDs", drvError_t, devices, len);
    Platform& p = Platform::instance();
    if (devices == nullptr || len < p.device_count()) return DRV_ERROR_INVALID_VALUE;
    if (!p.ok()) return DRV_ERROR_INNER_ERR;
    for (uint32_t i = 0; i < p.device_count(); ++i) devices[i] = i;
    return DRV_ERROR_NONE;
}

NPUSIM_C_EXPORT drvError_t halGetAPIVersion(int32_t* apiVersion) {
    NPUSIM_FAULT_RETURN_ARGS("halGetAPIVersion", drvError_t, apiVersion);
    if (apiVersion == nullptr) return DRV_ERROR_INVALID_VALUE;
    *apiVersion = kHalApiVersion;
    return DRV_ERROR_NONE;
}

NPUSIM_C_EXPORT drvError_t halGetDeviceInfo(uint32_t devId, int32_t moduleType, int32_t infoType, int64_t* value) {
    NPUSIM_FAULT_RETURN_ARGS("halGetDeviceInfo", drvError_t, devId, moduleType, infoType, value);
    if (value == nullptr) return DRV_ERROR_INVALID_VALUE;
    Platform& p = Platform::instance();
    npusim::Device* dev = p.device(devId);
    if (dev == nullptr) return DRV_ERROR_INVALID_DEVICE;
    if (moduleType != MODULE_TYPE_SYSTEM) return DRV_ERROR_NOT_SUPPORT;
    const npusim::SocSpec& soc = dev->soc();
    switch (infoType) {
        case INFO_TYPE_ENV: *value = 1; return DRV_ERROR_NONE;  // 1: running on a host with devices
        case INFO_TYPE_VERSION: *value = soc.chip_version(); return DRV_ERROR_NONE;
        case INFO_TYPE_CORE_NUM: *value = soc.aic; return DRV_ERROR_NONE;
        case INFO_TYPE_SYS_COUNT: *value = static_cast<int64_t>(p.clock().now()); return DRV_ERROR_NONE;
        case INFO_TYPE_PHY_CHIP_ID: *value = devId; return DRV_ERROR_NONE;
        case INFO_TYPE_DEV_OSC_FREQUE: *value = soc.dev_osc_khz; return DRV_ERROR_NONE;
        default: return DRV_ERROR_NOT_SUPPORT;  // HOST_OSC_FREQUE included: host-frequency mode is off
    }
}
