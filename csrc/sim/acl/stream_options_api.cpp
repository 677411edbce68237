// Per-stream options a framework sets when it creates its streams (torch_npu sets both on every
// stream): overflow detection and the failure mode. The simulator computes no overflow flags and
// never fails a task on its own, so the options are validated and the overflow switch is recorded
// for aclrtGetStreamOverflowSwitch, without other effect. Also the timed and forced variants of
// device synchronisation and stream destruction.
#include <mutex>
#include <unordered_map>

#include "acl/acl.h"
#include "acl/api_entry.h"
#include "acl/host_cost.h"
#include "acl/runtime_state.h"
#include "core/fault_plan.h"

using namespace acl;

namespace {

struct OverflowSwitches {
    std::mutex mutex;
    std::unordered_map<const void*, uint32_t> by_stream;
};

OverflowSwitches& overflow_switches() {
    static OverflowSwitches instance;
    return instance;
}

}  // namespace

ACL_FUNC_VISIBILITY aclError aclrtSetStreamOverflowSwitch(aclrtStream stream, uint32_t flag) {
    NPUSIM_FAULT_RETURN("aclrtSetStreamOverflowSwitch", aclError);
    ACL_API_BEGIN(aclrtSetStreamOverflowSwitch);
    npusim::Stream* s = nullptr;
    npusim::Device* device = nullptr;
    if (const aclError rc = resolve_stream(stream, s, device); rc != ACL_SUCCESS) return rc;
    if (flag > 1) return ACL_ERROR_INVALID_PARAM;
    OverflowSwitches& switches = overflow_switches();
    std::lock_guard<std::mutex> lock(switches.mutex);
    switches.by_stream[stream] = flag;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtGetStreamOverflowSwitch(aclrtStream stream, uint32_t* flag) {
    NPUSIM_FAULT_RETURN("aclrtGetStreamOverflowSwitch", aclError);
    ACL_API_BEGIN(aclrtGetStreamOverflowSwitch);
    npusim::Stream* s = nullptr;
    npusim::Device* device = nullptr;
    if (const aclError rc = resolve_stream(stream, s, device); rc != ACL_SUCCESS) return rc;
    if (flag == nullptr) return ACL_ERROR_INVALID_PARAM;
    OverflowSwitches& switches = overflow_switches();
    std::lock_guard<std::mutex> lock(switches.mutex);
    const auto it = switches.by_stream.find(stream);
    *flag = it == switches.by_stream.end() ? 0 : it->second;
    return ACL_SUCCESS;
}

// mode 0: a failed task stops only itself; 1: it stops the stream (CANN's ACL_STOP_ON_FAILURE).
ACL_FUNC_VISIBILITY aclError aclrtSetStreamFailureMode(aclrtStream stream, uint64_t mode) {
    NPUSIM_FAULT_RETURN("aclrtSetStreamFailureMode", aclError);
    ACL_API_BEGIN(aclrtSetStreamFailureMode);
    npusim::Stream* s = nullptr;
    npusim::Device* device = nullptr;
    if (const aclError rc = resolve_stream(stream, s, device); rc != ACL_SUCCESS) return rc;
    return mode > 1 ? ACL_ERROR_INVALID_PARAM : ACL_SUCCESS;
}

// The device finishes its modelled work in bounded time; only a collective waiting for its peers
// can make the timeout (ms; -1 and 0: none) expire.
ACL_FUNC_VISIBILITY aclError aclrtSynchronizeDeviceWithTimeout(int32_t timeout) {
    NPUSIM_FAULT_RETURN("aclrtSynchronizeDeviceWithTimeout", aclError);
    ACL_API_BEGIN(aclrtSynchronizeDeviceWithTimeout);
    if (timeout < -1) return ACL_ERROR_INVALID_PARAM;
    npusim::Device* device = nullptr;
    if (const aclError rc = current_device(device); rc != ACL_SUCCESS) return rc;
    // As aclrtSynchronizeDevice: collectives held on the device's streams are placed first (a
    // collective whose peers do not come within a positive timeout ends the wait).
    int32_t error = 0;
    if (timeout > 0) {
        if (!device->settle_for(timeout, error)) return ACL_ERROR_RT_STREAM_SYNC_TIMEOUT;
    } else {
        error = device->settle();
    }
    sim_clock().wait_until(device->busy_until_ns());
    sim_clock().spend(sync_return_ns());
    return error;
}

// Destroys the stream as aclrtDestroyStream does (and is reported as that call): the simulator's
// queued work has already run, so there is nothing to abandon.
ACL_FUNC_VISIBILITY aclError aclrtDestroyStreamForce(aclrtStream stream) {
    NPUSIM_FAULT_RETURN("aclrtDestroyStreamForce", aclError);
    {
        OverflowSwitches& switches = overflow_switches();
        std::lock_guard<std::mutex> lock(switches.mutex);
        switches.by_stream.erase(stream);
    }
    return aclrtDestroyStream(stream);
}
