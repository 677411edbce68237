#include "reports/stream_syncs.h"

#include <algorithm>
#include <mutex>
#include <new>
#include <unordered_map>

#include "common/no_destructor.h"

namespace mspti::seam::stream_syncs {
namespace {

struct EventRecord {
    uint32_t device = 0;
    uint32_t stream_id = 0;
    const void* stream = nullptr;
    uint64_t began_ns = 0;
};

struct Table {
    std::mutex mutex;
    std::unordered_map<uint64_t, uint64_t> by_id;  // (device << 32 | stream id) -> began_ns
    std::unordered_map<const void*, uint64_t> by_handle;
    std::unordered_map<uint32_t, uint64_t> by_device;  // aclrtSynchronizeDevice
    std::unordered_map<const void*, EventRecord> events;  // the latest aclrtRecordEvent of each event
};

Table& GetTable() {
    static NoDestructor<Table> table;
    return table.get();
}

uint64_t IdKey(uint32_t device, uint32_t stream_id) { return (uint64_t{device} << 32) | stream_id; }

void Raise(uint64_t& slot, uint64_t began_ns) {
    if (began_ns > slot) slot = began_ns;
}

void NoteLocked(Table& t, uint32_t device, uint32_t stream_id, const void* handle, uint64_t began_ns) {
    Raise(t.by_id[IdKey(device, stream_id)], began_ns);
    Raise(t.by_handle[handle], began_ns);
}

uint64_t DeviceLocked(const Table& t, uint32_t device) {
    auto it = t.by_device.find(device);
    return it == t.by_device.end() ? 0 : it->second;
}

}  // namespace

void Note(uint32_t device, uint32_t stream_id, const void* handle, uint64_t began_ns) {
    Table& t = GetTable();
    std::lock_guard<std::mutex> lock(t.mutex);
    NoteLocked(t, device, stream_id, handle, began_ns);
}

void NoteDevice(uint32_t device, uint64_t began_ns) {
    Table& t = GetTable();
    std::lock_guard<std::mutex> lock(t.mutex);
    Raise(t.by_device[device], began_ns);
}

void NoteEventRecord(const void* event, uint32_t device, uint32_t stream_id, const void* stream, uint64_t began_ns) {
    Table& t = GetTable();
    std::lock_guard<std::mutex> lock(t.mutex);
    t.events[event] = EventRecord{device, stream_id, stream, began_ns};
}

void NoteEventSync(const void* event) {
    Table& t = GetTable();
    std::lock_guard<std::mutex> lock(t.mutex);
    auto it = t.events.find(event);
    if (it == t.events.end()) return;  // recorded before msPTI saw it, or never: nothing is known
    const EventRecord& r = it->second;
    NoteLocked(t, r.device, r.stream_id, r.stream, r.began_ns);
}

uint64_t ById(uint32_t device, uint32_t stream_id) {
    Table& t = GetTable();
    std::lock_guard<std::mutex> lock(t.mutex);
    auto it = t.by_id.find(IdKey(device, stream_id));
    const uint64_t stream = it == t.by_id.end() ? 0 : it->second;
    return std::max(stream, DeviceLocked(t, device));
}

uint64_t ByHandle(uint32_t device, const void* handle) {
    Table& t = GetTable();
    std::lock_guard<std::mutex> lock(t.mutex);
    auto it = t.by_handle.find(handle);
    const uint64_t stream = it == t.by_handle.end() ? 0 : it->second;
    return std::max(stream, DeviceLocked(t, device));
}

void ChildAfterFork() { new (&GetTable().mutex) std::mutex(); }

}  // namespace mspti::seam::stream_syncs
