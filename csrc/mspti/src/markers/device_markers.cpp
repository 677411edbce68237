#include "markers/device_markers.h"

#include "activity/buffer_manager.h"
#include "activity/drop_counter.h"
#include "activity/kinds.h"
#include "interpose/hccl_reporter.h"
#include "markers/marker_ids.h"
#include "seam/device_time.h"

namespace mspti::markers {
namespace {

bool IsDeviceFlag(uint64_t flag) {
    return flag == MSPTI_ACTIVITY_FLAG_MARKER_INSTANTANEOUS_WITH_DEVICE ||
           flag == MSPTI_ACTIVITY_FLAG_MARKER_START_WITH_DEVICE || flag == MSPTI_ACTIVITY_FLAG_MARKER_END_WITH_DEVICE;
}

}  // namespace

void OnDeviceMarker(uint32_t device, uint32_t stream, uint64_t id, uint64_t flag, uint64_t count) {
    // In a forked child, the device halves of the parent's markers are the parent's records.
    if (IssuedBeforeFork(id)) return;
    if (interpose::hccl::OnInnerMarker(device, stream, id, flag, count)) return;
    if (!IsDeviceFlag(flag)) return;  // not a marker msPTI placed
    const uint64_t timestamp = seam::device_time::ToRecordTime(device, count);
    if (!activity::Enabled(MSPTI_ACTIVITY_KIND_MARKER) || timestamp == 0) {
        activity::Drops().Add(MSPTI_ACTIVITY_KIND_MARKER, activity::Enabled(MSPTI_ACTIVITY_KIND_MARKER)
                                                               ? MSPTI_DROP_REASON_DEVICE_HALF_LOST
                                                               : MSPTI_DROP_REASON_KIND_DISABLED);
        return;
    }
    msptiActivityMarker record{};
    record.kind = MSPTI_ACTIVITY_KIND_MARKER;
    record.flag = static_cast<msptiActivityFlag>(flag);
    record.sourceKind = MSPTI_ACTIVITY_SOURCE_KIND_DEVICE;
    record.timestamp = timestamp;
    record.id = id;
    record.objectId.ds.deviceId = device;
    record.objectId.ds.streamId = stream;
    record.name = "";
    record.domain = "";
    activity::BufferManager::Instance().Write(record);
}

void DropDeviceMarkers(uint32_t device) { interpose::hccl::DropDevice(device); }

}  // namespace mspti::markers
