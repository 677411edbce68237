#include "interpose/hccl_reporter.h"

#include <mutex>
#include <new>
#include <unordered_map>

#include "activity/buffer_manager.h"
#include "activity/drop_counter.h"
#include "activity/kinds.h"
#include "common/no_destructor.h"
#include "common/string_pool.h"
#include "interpose/report_route.h"
#include "markers/marker_ids.h"
#include "markers/prof_trace.h"
#include "cann/cann_api.h"
#include "device/device_registry.h"
#include "device/device_time.h"

namespace mspti::interpose::hccl {
namespace {

seam::CannFunction<decltype(&::HcclGetCommName)> g_get_comm_name{seam::CannLibrary::kHccl, "HcclGetCommName"};
seam::CannFunction<decltype(&::HcclGetRankSize)> g_get_rank_size{seam::CannLibrary::kHccl, "HcclGetRankSize"};

struct Op {
    const char* name;
    const char* comm_name;
    uint64_t bytes;
    uint32_t device;
    bool started;
    uint32_t stream;
    uint64_t start_count;
};

struct Table {
    std::mutex mutex;
    std::unordered_map<uint64_t, Op> ops;
};

Table& GetTable() {
    static NoDestructor<Table> table;
    return table.get();
}

const char* CommName(HcclComm comm) {
    auto get = g_get_comm_name.get();
    char name[kHcclCommNameMax] = {};
    if (get == nullptr || get(comm, name) != HCCL_SUCCESS) return "";
    name[kHcclCommNameMax - 1] = '\0';
    return InternString(name);
}

void Emit(const Op& op, uint32_t device, uint32_t stream, uint64_t start_count, uint64_t end_count) {
    const uint64_t start = seam::device_time::ToRecordTime(device, start_count);
    const uint64_t end = seam::device_time::ToRecordTime(device, end_count);
    if (!activity::Enabled(MSPTI_ACTIVITY_KIND_HCCL) || start == 0 || end == 0) {
        activity::Drops().Add(MSPTI_ACTIVITY_KIND_HCCL, activity::Enabled(MSPTI_ACTIVITY_KIND_HCCL)
                                                            ? MSPTI_DROP_REASON_DEVICE_HALF_LOST
                                                            : MSPTI_DROP_REASON_KIND_DISABLED);
        return;
    }
    msptiActivityHccl record{};
    record.kind = MSPTI_ACTIVITY_KIND_HCCL;
    record.start = start;
    record.end = end < start ? start : end;
    record.ds.deviceId = device;
    record.ds.streamId = stream;
    record.bandWidth = end > start ? static_cast<double>(op.bytes) / static_cast<double>(end - start) : 0.0;
    record.name = op.name;
    record.commName = op.comm_name;
    activity::BufferManager::Instance().Write(record);
}

}  // namespace

uint64_t DataTypeSize(int64_t data_type) {
    switch (data_type) {
        case HCCL_DATA_TYPE_INT8:
        case HCCL_DATA_TYPE_UINT8:
        case HCCL_DATA_TYPE_HIF8:
        case HCCL_DATA_TYPE_FP8E4M3:
        case HCCL_DATA_TYPE_FP8E5M2:
        case HCCL_DATA_TYPE_FP8E8M0: return 1;
        case HCCL_DATA_TYPE_INT16:
        case HCCL_DATA_TYPE_UINT16:
        case HCCL_DATA_TYPE_FP16:
        case HCCL_DATA_TYPE_BFP16: return 2;
        case HCCL_DATA_TYPE_INT32:
        case HCCL_DATA_TYPE_UINT32:
        case HCCL_DATA_TYPE_FP32: return 4;
        case HCCL_DATA_TYPE_INT64:
        case HCCL_DATA_TYPE_UINT64:
        case HCCL_DATA_TYPE_FP64: return 8;
        case HCCL_DATA_TYPE_INT128: return 16;
        default: return 0;
    }
}

uint32_t RankSize(HcclComm comm) {
    auto get = g_get_rank_size.get();
    uint32_t n = 0;
    if (get == nullptr || get(comm, &n) != HCCL_SUCCESS) return 0;
    return n;
}

uint64_t BeginOp(const char* name, HcclComm comm, uint64_t bytes, aclrtStream stream) {
    if (!activity::Enabled(MSPTI_ACTIVITY_KIND_HCCL)) return 0;
    int32_t device = 0;
    auto get_device = seam::cann::aclrtGetDevice.get();
    if (get_device == nullptr || get_device(&device) != ACL_SUCCESS || device < 0) {
        // The runtime cannot say which device the operation runs on: its markers cannot be placed, so
        // its device half can never come. The record the call owes is counted.
        activity::Drops().Add(MSPTI_ACTIVITY_KIND_HCCL, MSPTI_DROP_REASON_COLLECTION_FAILED);
        return 0;
    }
    const auto dev = static_cast<uint32_t>(device);
    // Without a collecting step-trace channel the markers would never come back; if the channel could
    // not start, or never will because CANN cannot report to msPTI (the device was never reported
    // open, the report callbacks are not registered), the record is counted.
    if (!seam::devices::TsFwActive(dev)) {
        if (seam::devices::TsFwFailed(dev) || report_route::DeviceUnreported(dev)) {
            activity::Drops().Add(MSPTI_ACTIVITY_KIND_HCCL, MSPTI_DROP_REASON_COLLECTION_FAILED);
        }
        return 0;
    }
    const uint64_t id = markers::NextMarkerId();
    {
        Table& t = GetTable();
        std::lock_guard<std::mutex> lock(t.mutex);
        t.ops[id] = Op{name, CommName(comm), bytes, dev, false, 0, 0};
    }
    if (!markers::ProfTrace(id, MSPTI_ACTIVITY_FLAG_MARKER_START_WITH_DEVICE, stream)) {
        Table& t = GetTable();
        std::lock_guard<std::mutex> lock(t.mutex);
        t.ops.erase(id);
        activity::Drops().Add(MSPTI_ACTIVITY_KIND_HCCL, MSPTI_DROP_REASON_BAD_ARGUMENT);
        return 0;
    }
    return id;
}

void EndOp(uint64_t id, aclrtStream stream) {
    if (id == 0) return;
    if (!markers::ProfTrace(id, MSPTI_ACTIVITY_FLAG_MARKER_END_WITH_DEVICE, stream)) {
        Table& t = GetTable();
        std::lock_guard<std::mutex> lock(t.mutex);
        if (t.ops.erase(id) != 0) activity::Drops().Add(MSPTI_ACTIVITY_KIND_HCCL, MSPTI_DROP_REASON_BAD_ARGUMENT);
    }
}

bool OnInnerMarker(uint32_t device, uint32_t stream, uint64_t id, uint64_t flag, uint64_t count) {
    Table& t = GetTable();
    std::lock_guard<std::mutex> lock(t.mutex);
    auto it = t.ops.find(id);
    if (it == t.ops.end()) return false;
    Op& op = it->second;
    if (flag == MSPTI_ACTIVITY_FLAG_MARKER_START_WITH_DEVICE) {
        op.started = true;
        op.stream = stream;
        op.start_count = count;
    } else if (flag == MSPTI_ACTIVITY_FLAG_MARKER_END_WITH_DEVICE) {
        if (op.started) {
            Emit(op, device, op.stream, op.start_count, count);
        } else {
            activity::Drops().Add(MSPTI_ACTIVITY_KIND_HCCL, MSPTI_DROP_REASON_DEVICE_HALF_LOST);
        }
        t.ops.erase(it);
    }
    return true;
}

void ForgetAfterFork() {
    Table& t = GetTable();
    new (&t.mutex) std::mutex();
    t.ops.clear();
}

void DropDevice(uint32_t device) {
    Table& t = GetTable();
    std::lock_guard<std::mutex> lock(t.mutex);
    for (auto it = t.ops.begin(); it != t.ops.end();) {
        if (it->second.device == device) {
            activity::Drops().Add(MSPTI_ACTIVITY_KIND_HCCL, MSPTI_DROP_REASON_DEVICE_HALF_LOST);
            it = t.ops.erase(it);
        } else {
            ++it;
        }
    }
}

}  // namespace mspti::interpose::hccl
