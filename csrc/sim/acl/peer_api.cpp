// Peer access between devices and the device-side process id. The simulated devices of a process
// share its host memory, so every pair of distinct devices can access each other.
#include <unistd.h>

#include "acl/acl.h"
#include "acl/api_entry.h"
#include "acl/runtime_state.h"
#include "core/fault_plan.h"

using namespace acl;

ACL_FUNC_VISIBILITY aclError aclrtDeviceCanAccessPeer(int32_t* canAccessPeer, int32_t deviceId, int32_t peerDeviceId) {
    NPUSIM_FAULT_RETURN("aclrtDeviceCanAccessPeer", aclError);
    ACL_API_BEGIN(aclrtDeviceCanAccessPeer);
    if (const aclError rc = check_device_id(deviceId); rc != ACL_SUCCESS) return rc;
    if (const aclError rc = check_device_id(peerDeviceId); rc != ACL_SUCCESS) return rc;
    // A device is not its own peer (CANN rejects the pair).
    if (canAccessPeer == nullptr || deviceId == peerDeviceId) return ACL_ERROR_INVALID_PARAM;
    *canAccessPeer = 1;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtDeviceEnablePeerAccess(int32_t peerDeviceId, uint32_t flags) {
    NPUSIM_FAULT_RETURN("aclrtDeviceEnablePeerAccess", aclError);
    ACL_API_BEGIN(aclrtDeviceEnablePeerAccess);
    if (const aclError rc = check_device_id(peerDeviceId); rc != ACL_SUCCESS) return rc;
    if (flags != 0) return ACL_ERROR_INVALID_PARAM;  // CANN reserves flags; 0 is the only value
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtDeviceDisablePeerAccess(int32_t peerDeviceId) {
    NPUSIM_FAULT_RETURN("aclrtDeviceDisablePeerAccess", aclError);
    ACL_API_BEGIN(aclrtDeviceDisablePeerAccess);
    return check_device_id(peerDeviceId);
}

ACL_FUNC_VISIBILITY aclError aclrtDeviceGetBareTgid(int32_t* pid) {
    NPUSIM_FAULT_RETURN("aclrtDeviceGetBareTgid", aclError);
    ACL_API_BEGIN(aclrtDeviceGetBareTgid);
    if (pid == nullptr) return ACL_ERROR_INVALID_PARAM;
    *pid = static_cast<int32_t>(getpid());  // the device runs in this process
    return ACL_SUCCESS;
}
