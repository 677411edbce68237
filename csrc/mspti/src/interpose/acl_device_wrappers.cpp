// Interposed aclrt* device, context, stream and synchronisation functions:
// callbacks and a correlation scope, no host record. A successful stream
// synchronisation is noted (reports/stream_syncs.h): the device halves of what ran
// before it are owed by the next flush. The other synchronisations
// (aclrtSynchronizeStreamWithTimeout, aclrtSynchronizeDevice, aclrtSynchronizeEvent
// with the aclrtRecordEvent it waits for) are interposed only to be noted the same
// way: msPTI's callback API has no ids for them, so they give no callback.
#include "interpose/wrapper.h"
#include "mspti/mspti_cbid.h"
#include "mspti/mspti_ext.h"
#include "cann/cann_api.h"
#include "cann/device_task_manager.h"
#include "reports/stream_syncs.h"

namespace {

MSPTI_REAL_ACL(aclrtSetDevice);
MSPTI_REAL_ACL(aclrtResetDevice);
MSPTI_REAL_ACL(aclrtCreateContext);
MSPTI_REAL_ACL(aclrtDestroyContext);
MSPTI_REAL_ACL(aclrtCreateStream);
MSPTI_REAL_ACL(aclrtDestroyStream);
MSPTI_REAL_ACL(aclrtSynchronizeStream);
MSPTI_REAL_ACL(aclrtSynchronizeStreamWithTimeout);
MSPTI_REAL_ACL(aclrtSynchronizeDevice);
MSPTI_REAL_ACL(aclrtRecordEvent);
MSPTI_REAL_ACL(aclrtSynchronizeEvent);

using mspti::interpose::InterceptRuntime;
using mspti::interpose::NoRecord;

// The current device and the id of `stream` on it; false when CANN cannot tell.
bool StreamOf(aclrtStream stream, uint32_t& device, uint32_t& id) {
    auto get_device = mspti::seam::cann::aclrtGetDevice.get();
    auto get_id = mspti::seam::cann::aclrtStreamGetId.get();
    int32_t d = -1;
    int32_t i = -1;
    if (get_device == nullptr || get_id == nullptr || get_device(&d) != ACL_SUCCESS ||
        get_id(stream, &i) != ACL_SUCCESS || d < 0 || i < 0) {
        return false;
    }
    device = static_cast<uint32_t>(d);
    id = static_cast<uint32_t>(i);
    return true;
}

// A synchronisation that returned with the stream's work finished: successfully, or with the
// error of a collective task that failed on the device (CANN's FFTS+ timeout or exception); the
// failed task's device half will never come, and everything before it has run.
bool WorkFinished(aclError result) {
    constexpr aclError kCollectiveTimeout = 507048;    // ACL_ERROR_RT_FFTS_PLUS_TIMEOUT
    constexpr aclError kCollectiveException = 507049;  // ACL_ERROR_RT_FFTS_PLUS_EXCEPTION
    return result == ACL_SUCCESS || result == kCollectiveTimeout || result == kCollectiveException;
}

struct NoteSync {
    aclrtStream stream;
    void operator()(aclError result, uint64_t /*correlation_id*/, const mspti::interpose::CallTimes& times) const {
        uint32_t device = 0;
        uint32_t id = 0;
        if (!WorkFinished(result) || !StreamOf(stream, device, id)) return;
        mspti::seam::stream_syncs::Note(device, id, stream, times.start);
    }
};

// Calls the real function of a synchronisation msPTI only notes (no callback, no scope); `note`
// runs after a call that returned with the work finished (WorkFinished) with the time the call began.
template <typename Fn, typename Note, typename... Args>
aclError Noted(const mspti::seam::CannFunction<Fn>& real, const char* name, Note&& note, Args... args) noexcept {
    const Fn fn = real.get();
    if (fn == nullptr) return mspti::interpose::MissingFunction(name, static_cast<aclError>(ACL_ERROR_INTERNAL_ERROR));
    const uint64_t began = mspti::host_clock::Now();
    const aclError result = fn(args...);
    if (WorkFinished(result)) {
        try {
            note(began);
        } catch (...) {  // nothing of msPTI's fails the application's call
        }
    }
    return result;
}

}  // namespace

// The interposed definitions are the library's exported interface: exported here, not through the
// header's ACL_FUNC_VISIBILITY, which CANN's headers leave empty outside CANN's own build.
#pragma GCC visibility push(default)
extern "C" {

aclError aclrtSetDevice(int32_t deviceId) {
    const msptiRuntimeSetDeviceParams params{deviceId};
    auto noted = [deviceId](aclError result, uint64_t, const mspti::interpose::CallTimes&) {
        if (result == ACL_SUCCESS && deviceId >= 0) {
            mspti::seam::DeviceTaskManager::Instance().OnDeviceSet(static_cast<uint32_t>(deviceId));
        }
    };
    return InterceptRuntime(real_aclrtSetDevice, MSPTI_CBID_RUNTIME_DEVICE_SET, "aclrtSetDevice", params, false, noted,
                            deviceId);
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
    return InterceptRuntime(real_aclrtDestroyContext, MSPTI_CBID_RUNTIME_CONTEXT_DESTROY, "aclrtDestroyContext", params,
                            false, NoRecord{}, context);
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

aclError aclrtSynchronizeStreamWithTimeout(aclrtStream stream, int32_t timeout) {
    return Noted(
        real_aclrtSynchronizeStreamWithTimeout, "aclrtSynchronizeStreamWithTimeout",
        [stream](uint64_t began) { NoteSync{stream}(ACL_SUCCESS, 0, mspti::interpose::CallTimes{began, 0}); }, stream,
        timeout);
}

aclError aclrtSynchronizeDevice() {
    return Noted(real_aclrtSynchronizeDevice, "aclrtSynchronizeDevice", [](uint64_t began) {
        auto get_device = mspti::seam::cann::aclrtGetDevice.get();
        int32_t device = -1;
        if (get_device != nullptr && get_device(&device) == ACL_SUCCESS && device >= 0) {
            mspti::seam::stream_syncs::NoteDevice(static_cast<uint32_t>(device), began);
        }
    });
}

aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream) {
    return Noted(
        real_aclrtRecordEvent, "aclrtRecordEvent",
        [event, stream](uint64_t began) {
            uint32_t device = 0;
            uint32_t id = 0;
            if (StreamOf(stream, device, id))
                mspti::seam::stream_syncs::NoteEventRecord(event, device, id, stream, began);
        },
        event, stream);
}

aclError aclrtSynchronizeEvent(aclrtEvent event) {
    return Noted(
        real_aclrtSynchronizeEvent, "aclrtSynchronizeEvent",
        [event](uint64_t) { mspti::seam::stream_syncs::NoteEventSync(event); }, event);
}

}  // extern "C"
#pragma GCC visibility pop
