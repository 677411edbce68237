#include "markers/device_markers.h"

#include <mutex>
#include <new>
#include <unordered_map>

#include "activity/buffer_manager.h"
#include "activity/drop_counter.h"
#include "activity/kinds.h"
#include "common/host_clock.h"
#include "common/no_destructor.h"
#include "interpose/hccl_reporter.h"
#include "markers/marker_ids.h"
#include "cann/cann_api.h"
#include "device/device_registry.h"
#include "device/device_time.h"
#include "reports/stream_syncs.h"

namespace mspti::markers {
namespace {

bool IsDeviceFlag(uint64_t flag) {
    return flag == MSPTI_ACTIVITY_FLAG_MARKER_INSTANTANEOUS_WITH_DEVICE ||
           flag == MSPTI_ACTIVITY_FLAG_MARKER_START_WITH_DEVICE || flag == MSPTI_ACTIVITY_FLAG_MARKER_END_WITH_DEVICE;
}

// A range's START and END device halves share its id.
uint64_t HalfKey(uint64_t id, uint64_t flag) {
    const uint64_t which = flag == MSPTI_ACTIVITY_FLAG_MARKER_START_WITH_DEVICE ? 1
                           : flag == MSPTI_ACTIVITY_FLAG_MARKER_END_WITH_DEVICE ? 2
                                                                                : 0;
    return (id << 2) | which;
}

struct Placed {
    uint32_t device;
    const void* stream;
    uint64_t placed_ns;
};

struct Owed {
    std::mutex mutex;
    std::unordered_map<uint64_t, Placed> halves;
};

Owed& GetOwed() {
    static NoDestructor<Owed> owed;
    return owed.get();
}

uint32_t CurrentDevice() {
    auto get = seam::cann::aclrtGetDevice.get();
    int32_t device = -1;
    if (get == nullptr || get(&device) != ACL_SUCCESS || device < 0) return UINT32_MAX;
    return static_cast<uint32_t>(device);
}

// Counts and forgets the owed halves of `device` that `lost` selects.
template <typename Lost>
void DropOwed(uint32_t device, Lost&& lost) {
    Owed& o = GetOwed();
    std::lock_guard<std::mutex> lock(o.mutex);
    for (auto it = o.halves.begin(); it != o.halves.end();) {
        if ((it->second.device == device || it->second.device == UINT32_MAX) && lost(it->second)) {
            activity::Drops().Add(MSPTI_ACTIVITY_KIND_MARKER, MSPTI_DROP_REASON_DEVICE_HALF_LOST);
            it = o.halves.erase(it);
        } else {
            ++it;
        }
    }
}

}  // namespace

bool NotePlaced(uint64_t id, uint64_t flag, const void* stream) {
    const Placed placed{CurrentDevice(), stream, host_clock::Now()};
    // A channel records only while it collects: without it the device half cannot come (its
    // collection failed, or never started because msPTI does not know the device).
    if (!seam::devices::TsFwActive(placed.device)) {
        activity::Drops().Add(MSPTI_ACTIVITY_KIND_MARKER, MSPTI_DROP_REASON_COLLECTION_FAILED);
        return false;
    }
    Owed& o = GetOwed();
    std::lock_guard<std::mutex> lock(o.mutex);
    o.halves[HalfKey(id, flag)] = placed;
    return true;
}

void Unplace(uint64_t id, uint64_t flag) {
    Owed& o = GetOwed();
    std::lock_guard<std::mutex> lock(o.mutex);
    o.halves.erase(HalfKey(id, flag));
}

void OnDeviceMarker(uint32_t device, uint32_t stream, uint64_t id, uint64_t flag, uint64_t count) {
    if (interpose::hccl::OnInnerMarker(device, stream, id, flag, count)) return;
    if (!IsDeviceFlag(flag)) return;  // not a marker msPTI placed
    // In a forked child, the device halves of the parent's markers are the parent's records.
    if (IssuedBeforeFork(id)) return;
    {
        Owed& o = GetOwed();
        std::lock_guard<std::mutex> lock(o.mutex);
        // Not owed: placed by another process, or already counted as lost (then it came too late).
        if (o.halves.erase(HalfKey(id, flag)) == 0) return;
    }
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

void ExpireSynced(uint32_t device, uint64_t flush_ns) {
    DropOwed(device, [device, flush_ns](const Placed& p) {
        const uint64_t synced = seam::stream_syncs::ByHandle(device, p.stream);
        return synced != 0 && p.placed_ns < synced && synced < flush_ns;
    });
}

void DropDeviceMarkers(uint32_t device) {
    interpose::hccl::DropDevice(device);
    DropOwed(device, [](const Placed&) { return true; });
}

void ForgetAfterFork() {
    Owed& o = GetOwed();
    new (&o.mutex) std::mutex();
    o.halves.clear();
}

}  // namespace mspti::markers
