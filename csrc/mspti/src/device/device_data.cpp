#include "device/device_data.h"

#include <cstddef>
#include <cstring>
#include <new>

#include "common/no_destructor.h"
#include "interpose/hccl_reporter.h"
#include "markers/device_markers.h"
#include "seam/device_log.h"
#include "device/device_registry.h"
#include "reports/stream_syncs.h"
#include "device/stream_task_id.h"
#include "reports/task_track_queue.h"

namespace mspti::seam {
namespace {

template <typename T>
T Load(const uint8_t* p) {
    T value;
    std::memcpy(&value, p, sizeof value);
    return value;
}

}  // namespace

size_t StarsRecordSize(uint32_t chip) { return devices::IsV6(chip) ? sizeof(StarsSocLogV6) : sizeof(StarsSocLog); }

DeviceData& DeviceData::Instance() {
    static NoDestructor<DeviceData> data;
    return data.get();
}

void DeviceData::ChildAfterFork() {
    new (&mutex_) std::mutex();
    ForgetTracksAfterFork();
    communication::ForgetAfterFork();
    interpose::hccl::ForgetAfterFork();
    markers::ForgetAfterFork();
    stream_syncs::ChildAfterFork();
    kernels_ = KernelMatcher();
    communications_ = CommunicationMatcher();
}

void DeviceData::DrainHostQueues() {
    std::lock_guard<std::mutex> lock(mutex_);
    DrainHostQueuesLocked();
}

void DeviceData::DrainHostQueuesLocked() {
    const EventSpan<TrackEvent> tracks = TakeTracks();
    kernels_.AddTracks(tracks.data, tracks.size);
    for (const CopyTrackEvent& e : TakeCopyTracks()) kernels_.AddCopyTrack(e);
    communication::DrainEvents([this](const communication::TaskEvent& t) { communications_.AddTask(t); },
                               [this](const communication::OpEvent& o) { communications_.FinishOp(o); });
}

// Both layouts keep the task's identity in the 4 bytes at offset 4 (stream and task id; chip type 15:
// the task id) and the device time at offset 8.
static_assert(offsetof(StarsSocLog, streamId) == 4 && offsetof(StarsSocLog, taskId) == 6 &&
                  offsetof(StarsSocLog, timestamp) == 8,
              "STARS log layout");
static_assert(offsetof(StarsSocLogV6, taskId) == 4 && sizeof(StarsSocLogV6::taskId) == 4 &&
                  offsetof(StarsSocLogV6, timestamp) == 8,
              "STARS log layout (chip type 15)");

void DeviceData::ParseStars(uint32_t device, uint32_t chip, const uint8_t* data, size_t size) {
    DrainHostQueuesLocked();
    const size_t record = StarsRecordSize(chip);
    const bool v6 = devices::IsV6(chip);
    for (size_t off = 0; off + record <= size; off += record) {
        const uint8_t* p = data + off;
        const uint16_t func = STARS_HEAD_FUNC_TYPE(Load<uint16_t>(p));
        if (func == STARS_FUNC_TYPE_BEGIN || func == STARS_FUNC_TYPE_END) {
            // Only the fields used, not the whole log.
            const uint32_t ids = Load<uint32_t>(p + 4);
            const StreamTask id = v6 ? StreamTask{0, ids}
                                     : DecodeStreamTask(Load<uint16_t>(p + offsetof(StarsSocLog, streamId)),
                                                        Load<uint16_t>(p + offsetof(StarsSocLog, taskId)));
            const uint64_t timestamp = Load<uint64_t>(p + 8);
            // A start and the same task's end in a row (a stream's logs come in order): one step.
            if (func == STARS_FUNC_TYPE_BEGIN && off + 2 * record <= size) {
                const uint8_t* q = p + record;
                if (STARS_HEAD_FUNC_TYPE(Load<uint16_t>(q)) == STARS_FUNC_TYPE_END && Load<uint32_t>(q + 4) == ids) {
                    const uint64_t end = Load<uint64_t>(q + 8);
                    kernels_.OnSpan(device, id.stream, id.task, timestamp, end);
                    communications_.OnTask(device, id.stream, id.task, true, timestamp);
                    communications_.OnTask(device, id.stream, id.task, false, end);
                    off += record;
                    continue;
                }
            }
            const bool start = func == STARS_FUNC_TYPE_BEGIN;
            kernels_.OnTask(device, id.stream, id.task, start, timestamp);
            communications_.OnTask(device, id.stream, id.task, start, timestamp);
        } else if (!v6 && (func == STARS_FUNC_TYPE_FFTS_BEGIN || func == STARS_FUNC_TYPE_FFTS_END)) {
            const auto log = Load<FftsPlusLog>(p);
            const StreamTask id = DecodeStreamTask(log.streamId, log.taskId);
            communications_.OnSubTask(device, id.stream, id.task, log.subTaskId, func == STARS_FUNC_TYPE_FFTS_BEGIN,
                                      log.timestamp);
        }
        // Other function types carry nothing msPTI reports; they are skipped, never re-reported.
    }
}

void DeviceData::ParseStepTraces(uint32_t device, uint32_t chip, const uint8_t* data, size_t size) {
    DrainHostQueuesLocked();
    for (size_t off = 0; off + kStepTraceSize <= size; off += kStepTraceSize) {
        const uint8_t* p = data + off;
        if (p[1] != TS_RPT_TYPE_STEP_TRACE) continue;
        uint32_t stream = 0;
        uint16_t tag = 0;
        uint64_t timestamp = 0;
        uint64_t index = 0;
        uint64_t model = 0;
        // The two chip generations' layouts name the same fields.
        const auto take = [&](const auto& t) {
            stream = t.streamId;
            tag = t.tagId;
            timestamp = t.timestamp;
            index = t.indexId;
            model = t.modelId;
        };
        if (devices::IsV6(chip)) {
            take(Load<TsStepTraceV6>(p));
        } else {
            take(Load<TsStepTrace>(p));
        }
        if (tag != STEP_TRACE_TAG_MARKEX) continue;
        markers::OnDeviceMarker(device, stream, index, model, timestamp);
    }
}

void DeviceData::SweepLocked(uint64_t now_ns) {
    kernels_.Sweep(now_ns);
    communications_.Sweep(now_ns);
}

void DeviceData::ExpireLostLocked(uint32_t device, uint64_t flushed_ns) {
    DrainHostQueuesLocked();
    kernels_.ExpireLost(device, flushed_ns);
}

void DeviceData::ExpireSyncedLocked(uint32_t device, bool stars, bool tsfw, uint64_t flush_ns) {
    DrainHostQueuesLocked();
    if (stars) {
        kernels_.ExpireSynced(device, flush_ns);
        communications_.ExpireSynced(device, flush_ns);
    }
    if (tsfw) markers::ExpireSynced(device, flush_ns);
}

void DeviceData::DropDeviceLocked(uint32_t device, bool stars, bool tsfw) {
    DrainHostQueuesLocked();
    if (stars) {
        kernels_.DropDevice(device);
        communications_.DropDevice(device);
    }
    if (tsfw) markers::DropDeviceMarkers(device);
}

}  // namespace mspti::seam
