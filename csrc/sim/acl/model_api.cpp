// Model run instances (aclmdlRI*): stream capture, execution and destruction. The work is
// in capture.cpp; this file is the exported surface.
#include "acl/acl.h"
#include "acl/api_entry.h"
#include "acl/capture.h"
#include "acl/host_cost.h"
#include "acl/runtime_state.h"
#include "core/fault_plan.h"

using namespace acl;

ACL_FUNC_VISIBILITY aclError aclmdlRICaptureBegin(aclrtStream stream, aclmdlRICaptureMode mode) {
    NPUSIM_FAULT_RETURN("aclmdlRICaptureBegin", aclError);
    ACL_API_BEGIN(aclmdlRICaptureBegin);
    return capture::begin(stream, static_cast<int32_t>(mode));
}

ACL_FUNC_VISIBILITY aclError aclmdlRICaptureGetInfo(aclrtStream stream, aclmdlRICaptureStatus* status,
                                                    aclmdlRI* modelRI) {
    NPUSIM_FAULT_RETURN("aclmdlRICaptureGetInfo", aclError);
    ACL_API_BEGIN(aclmdlRICaptureGetInfo);
    return capture::get_info(stream, status, modelRI);
}

ACL_FUNC_VISIBILITY aclError aclmdlRICaptureEnd(aclrtStream stream, aclmdlRI* modelRI) {
    NPUSIM_FAULT_RETURN("aclmdlRICaptureEnd", aclError);
    ACL_API_BEGIN(aclmdlRICaptureEnd);
    return capture::end(stream, modelRI);
}

ACL_FUNC_VISIBILITY aclError aclmdlRICaptureThreadExchangeMode(aclmdlRICaptureMode* mode) {
    NPUSIM_FAULT_RETURN("aclmdlRICaptureThreadExchangeMode", aclError);
    ACL_API_BEGIN(aclmdlRICaptureThreadExchangeMode);
    return capture::exchange_mode(mode);
}

ACL_FUNC_VISIBILITY aclError aclmdlRIExecuteAsync(aclmdlRI modelRI, aclrtStream stream) {
    NPUSIM_FAULT_RETURN("aclmdlRIExecuteAsync", aclError);
    ACL_API_BEGIN(aclmdlRIExecuteAsync);
    uint64_t end_ns = 0;
    return capture::execute(modelRI, stream, &end_ns);
}

// Runs the model on the current context's default stream and waits for it: timeout is -1
// (no limit) or a positive number of milliseconds. When the model does not finish in time the
// call returns ACL_ERROR_RT_STREAM_SYNC_TIMEOUT (the simulator's choice of code) after the wait.
ACL_FUNC_VISIBILITY aclError aclmdlRIExecute(aclmdlRI modelRI, int32_t timeout) {
    NPUSIM_FAULT_RETURN("aclmdlRIExecute", aclError);
    ACL_API_BEGIN(aclmdlRIExecute);
    if (timeout == 0 || timeout < -1) return ACL_ERROR_INVALID_PARAM;
    uint64_t end_ns = 0;
    if (const aclError rc = capture::execute(modelRI, nullptr, &end_ns); rc != ACL_SUCCESS) return rc;
    npusim::Clock& clock = sim_clock();
    if (timeout > 0) {
        const uint64_t deadline = clock.now() + uint64_t(timeout) * 1'000'000ULL;
        if (end_ns > deadline) {
            clock.wait_until(deadline);
            return ACL_ERROR_RT_STREAM_SYNC_TIMEOUT;
        }
    }
    clock.wait_until(end_ns);
    clock.spend(sync_return_ns());
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclmdlRIDestroy(aclmdlRI modelRI) {
    NPUSIM_FAULT_RETURN("aclmdlRIDestroy", aclError);
    ACL_API_BEGIN(aclmdlRIDestroy);
    return capture::destroy(modelRI);
}
