#include "seam/stream_syncs.h"

#include <mutex>
#include <new>
#include <unordered_map>

#include "common/no_destructor.h"

namespace mspti::seam::stream_syncs {
namespace {

struct Table {
    std::mutex mutex;
    std::unordered_map<uint64_t, uint64_t> by_id;  // (device << 32 | stream id) -> began_ns
    std::unordered_map<const void*, uint64_t> by_handle;
};

Table& GetTable() {
    static NoDestructor<Table> table;
    return table.get();
}

uint64_t IdKey(uint32_t device, uint32_t stream_id) { return (uint64_t{device} << 32) | stream_id; }

}  // namespace

void Note(uint32_t device, uint32_t stream_id, const void* handle, uint64_t began_ns) {
    Table& t = GetTable();
    std::lock_guard<std::mutex> lock(t.mutex);
    uint64_t& id = t.by_id[IdKey(device, stream_id)];
    if (began_ns > id) id = began_ns;
    uint64_t& by_handle = t.by_handle[handle];
    if (began_ns > by_handle) by_handle = began_ns;
}

uint64_t ById(uint32_t device, uint32_t stream_id) {
    Table& t = GetTable();
    std::lock_guard<std::mutex> lock(t.mutex);
    auto it = t.by_id.find(IdKey(device, stream_id));
    return it == t.by_id.end() ? 0 : it->second;
}

uint64_t ByHandle(const void* handle) {
    Table& t = GetTable();
    std::lock_guard<std::mutex> lock(t.mutex);
    auto it = t.by_handle.find(handle);
    return it == t.by_handle.end() ? 0 : it->second;
}

void ChildAfterFork() { new (&GetTable().mutex) std::mutex(); }

}  // namespace mspti::seam::stream_syncs
