// aclrtProfTrace: a marker task whose device side is one TS step trace on
// channel 44 carrying the caller's ids (what mstx device marks turn into).
#include <cstring>

#include "acl/acl.h"
#include "acl/api_entry.h"
#include "acl/capture.h"
#include "acl/prof_reporter.h"
#include "acl/runtime_state.h"
#include "acl/task_submit.h"
#include "core/fault_plan.h"

using namespace acl;

namespace {

// The payload: packed {u64 indexId; u64 modelId; u16 tagId}.
constexpr int32_t kTraceDataLength = 18;
constexpr uint64_t kTraceTaskNs = 100;

}  // namespace

ACL_FUNC_VISIBILITY aclError aclrtProfTrace(void* userdata, int32_t length, aclrtStream stream) {
    NPUSIM_FAULT_RETURN_ARGS("aclrtProfTrace", aclError, userdata, length, stream);
    ACL_API_BEGIN(aclrtProfTrace);
    if (userdata == nullptr || length != kTraceDataLength) return ACL_ERROR_INVALID_PARAM;
    uint64_t index_id = 0, model_id = 0;
    uint16_t tag_id = 0;
    const auto* bytes = static_cast<const unsigned char*>(userdata);
    std::memcpy(&index_id, bytes, sizeof index_id);
    std::memcpy(&model_id, bytes + 8, sizeof model_id);
    std::memcpy(&tag_id, bytes + 16, sizeof tag_id);
    npusim::Stream* s = nullptr;
    npusim::Device* device = nullptr;
    if (const aclError rc = resolve_stream(stream, s, device); rc != ACL_SUCCESS) return rc;
    const npusim::TaskDesc desc = plain_task(npusim::TaskKind::ProfTrace, kTraceTaskNs, stars::kPlaceHolder);
    if (!s->queue().idle() && !(capture::any_capturing() && capture::is_capturing(*s))) {
        // The stream is held by a collective whose peers have not all arrived: the marker is
        // placed behind it once it is (stream_queue.h), without blocking the caller. Its host
        // half is reported now, with the task id it was given at issue.
        const npusim::TaskReservation res = device->reserve(*s);
        npusim::TaskRecord track;
        track.device = device->id();
        track.stream_id = s->id();
        track.task_id = res.task_id;
        track.submit_ns = res.submit_ns;
        if (prof::task_time_on(device->id())) prof::report_task_track(track, TaskType::ProfilerTraceEx, 0);
        auto place = [device, s, desc, res, index_id, model_id, tag_id] {
            const npusim::TaskRecord rec = device->schedule_reserved(*s, desc, res);
            device->emit_task_logs(rec, desc.stars_task_type);
            device->emit_step_trace(rec, index_id, model_id, tag_id);
        };
        if (!s->queue().defer(place)) place();  // released meanwhile
        return ACL_SUCCESS;
    }
    const npusim::TaskRecord rec = submit_task(*device, *s, desc, TaskType::ProfilerTraceEx);
    device->emit_step_trace(rec, index_id, model_id, tag_id);
    return ACL_SUCCESS;
}
