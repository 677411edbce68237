// Interposed aclrt* device, context, stream and synchronisation functions:
// callbacks and a correlation scope, no host record. A successful stream
// synchronisation is noted (seam/stream_syncs.h): the device halves of what ran
// before it are owed by the next flush.
#include "interpose/wrapper.h"
#include "mspti/mspti_cbid.h"
#include "mspti/mspti_ext.h"
#include "seam/cann_api.h"
#include "seam/stream_syncs.h"

namespace {

MSPTI_REAL_ACL(aclrtSetDevice);
MSPTI_REAL_ACL(aclrtResetDevice);
MSPTI_REAL_ACL(aclrtCreateContext);
MSPTI_REAL_ACL(aclrtDestroyContext);
MSPTI_REAL_ACL(aclrtCreateStream);
MSPTI_REAL_ACL(aclrtDestroyStream);
MSPTI_REAL_ACL(aclrtSynchronizeStream);

using mspti::interpose::InterceptRuntime;
using mspti::interpose::NoRecord;

struct NoteSync {
    aclrtStream stream;
    void operator()(aclError result, uint64_t /*correlation_id*/, const mspti::interpose::CallTimes& times) const {
        if (result != ACL_SUCCESS) return;
        auto get_device = mspti::seam::cann::aclrtGetDevice.get();
        auto get_id = mspti::seam::cann::aclrtStreamGetId.get();
        int32_t device = -1;
        int32_t id = -1;
        if (get_device == nullptr || get_id == nullptr || get_device(&device) != ACL_SUCCESS ||
            get_id(stream, &id) != ACL_SUCCESS || device < 0 || id < 0) {
            return;
        }
        mspti::seam::stream_syncs::Note(static_cast<uint32_t>(device), static_cast<uint32_t>(id), stream, times.start);
    }
};

}  // namespace

extern "C" {

aclError aclrtSetDevice(int32_t deviceId) {
    const msptiRuntimeSetDeviceParams params{deviceId};
    return InterceptRuntime(real_aclrtSetDevice, MSPTI_CBID_RUNTIME_DEVICE_SET, "aclrtSetDevice", params, false,
                            NoRecord{}, deviceId);
}

aclError aclrtResetDevice(int32_t deviceId) {
    const msptiRuntimeResetDeviceParams params{deviceId};
    return InterceptRuntime(real_aclrtResetDevice, MSPTI_CBID_RUNTIME_DEVICE_RESET, "aclrtResetDevice", params, false,
                            NoRecord{}, deviceId);
}

aclError aclrtCreateContext(aclrtContext* context, int32_t deviceId) {
    const msptiRuntimeCreateContextParams params{context, deviceId};
    return InterceptRuntime(real_aclrtCreateContext, MSPTI_CBID_RUNTIME_CONTEXT_CREATED, "aclrtCreateContext", params,
                            false, NoRecord{}, context, deviceId);
}

aclError aclrtDestroyContext(aclrtContext context) {
    const msptiRuntimeDestroyContextParams params{context};
    return InterceptRuntime(real_aclrtDestroyContext, MSPTI_CBID_RUNTIME_CONTEXT_DESTROY, "aclrtDestroyContext",
                            params, false, NoRecord{}, context);
}

aclError aclrtCreateStream(aclrtStream* stream) {
    const msptiRuntimeCreateStreamParams params{stream};
    return InterceptRuntime(real_aclrtCreateStream, MSPTI_CBID_RUNTIME_STREAM_CREATED, "aclrtCreateStream", params,
                            false, NoRecord{}, stream);
}

aclError aclrtDestroyStream(aclrtStream stream) {
    const msptiRuntimeDestroyStreamParams params{stream};
    return InterceptRuntime(real_aclrtDestroyStream, MSPTI_CBID_RUNTIME_STREAM_DESTROY, "aclrtDestroyStream", params,
                            false, NoRecord{}, stream);
}

aclError aclrtSynchronizeStream(aclrtStream stream) {
    const msptiRuntimeSynchronizeStreamParams params{stream};
    return InterceptRuntime(real_aclrtSynchronizeStream, MSPTI_CBID_RUNTIME_STREAM_SYNCHRONIZED,
                            "aclrtSynchronizeStream", params, true, NoteSync{stream}, stream);
}

}  // extern "C"
