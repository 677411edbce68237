#include "markers/mstx_functions.h"

#include <cstring>
#include <string_view>

#include "activity/buffer_manager.h"
#include "activity/drop_counter.h"
#include "activity/kinds.h"
#include "common/host_clock.h"
#include "common/string_pool.h"
#include "common/thread_id.h"
#include "markers/device_markers.h"
#include "markers/domains.h"
#include "markers/marker_ids.h"
#include "markers/prof_trace.h"
#include "markers/range_table.h"
// The slot ids and the front end's handle and stream types (mstx/ms_tools_ext.h without its functions).
#include "seam/mstx_table.h"

namespace mspti::markers {
namespace {

// Table functions have exactly the front end's types: the hub calls them through its pointers.
using Stream = aclrtStream;
using Handle = mstxDomainHandle_t;

bool Collecting(const Domain* domain) {
    return domain != nullptr && activity::Enabled(MSPTI_ACTIVITY_KIND_MARKER) &&
           domain->enabled.load(std::memory_order_acquire) && !domain->destroyed.load(std::memory_order_acquire);
}

void WriteHostRecord(msptiActivityFlag flag, uint64_t id, const char* name, const char* domain) {
    msptiActivityMarker record{};
    record.kind = MSPTI_ACTIVITY_KIND_MARKER;
    record.flag = flag;
    record.sourceKind = MSPTI_ACTIVITY_SOURCE_KIND_HOST;
    record.timestamp = host_clock::Now();
    record.id = id;
    record.objectId.pt.processId = CurrentProcessId();
    record.objectId.pt.threadId = CurrentThreadId();
    record.name = name;
    record.domain = domain;
    activity::BufferManager::Instance().Write(record);
}

// The message's length when it is a valid name (see ValidName), measured once for the check and the
// string pool; kMaxNameLength when it is not.
size_t MessageLength(const char* message) {
    return message != nullptr ? strnlen(message, kMaxNameLength) : kMaxNameLength;
}

// A message msPTI cannot record (NULL, or kMaxNameLength characters or more: never truncated): the
// record it would have made is counted as dropped.
bool Recordable(size_t length) {
    if (length < kMaxNameLength) return true;
    activity::Drops().Add(MSPTI_ACTIVITY_KIND_MARKER, MSPTI_DROP_REASON_BAD_ARGUMENT);
    return false;
}

// Places the device half of marker `id` on `stream`; if the runtime refuses (a stream that does not
// exist, ...), the device half will never come and is counted as dropped.
void PlaceDeviceHalf(uint64_t id, msptiActivityFlag flag, Stream stream) {
    // Owed before the call: the device half may be parsed before ProfTrace returns.
    const bool owed = NotePlaced(id, flag, stream);
    if (ProfTrace(id, flag, stream) || !owed) return;
    Unplace(id, flag);
    activity::Drops().Add(MSPTI_ACTIVITY_KIND_MARKER, MSPTI_DROP_REASON_BAD_ARGUMENT);
}

void Mark(Domain* domain, const char* message, Stream stream) {
    if (!Collecting(domain)) return;
    const size_t length = MessageLength(message);
    if (!Recordable(length)) return;
    const uint64_t id = NextMarkerId();
    const msptiActivityFlag flag = stream != nullptr ? MSPTI_ACTIVITY_FLAG_MARKER_INSTANTANEOUS_WITH_DEVICE
                                                     : MSPTI_ACTIVITY_FLAG_MARKER_INSTANTANEOUS;
    WriteHostRecord(flag, id, InternString(std::string_view(message, length)), domain->name);
    if (stream != nullptr) PlaceDeviceHalf(id, flag, stream);
}

uint64_t RangeStart(Domain* domain, const char* message, Stream stream) {
    if (!Collecting(domain)) return 0;
    const size_t length = MessageLength(message);
    if (!Recordable(length)) return 0;
    const uint64_t id = NextMarkerId();
    const bool with_device = stream != nullptr;
    const msptiActivityFlag flag =
        with_device ? MSPTI_ACTIVITY_FLAG_MARKER_START_WITH_DEVICE : MSPTI_ACTIVITY_FLAG_MARKER_START;
    AddRange(id, OpenRange{domain, stream});
    WriteHostRecord(flag, id, InternString(std::string_view(message, length)), domain->name);
    if (with_device) PlaceDeviceHalf(id, flag, stream);
    return id;
}

void RangeEnd(Domain* domain, uint64_t id) {
    OpenRange range{};
    if (id == 0 || !TakeRange(id, &range)) return;
    // The range ends in the domain it started in (the handle given to the end call is not trusted).
    (void)domain;
    if (!Collecting(range.domain)) return;
    const bool with_device = range.stream != nullptr;
    const msptiActivityFlag flag =
        with_device ? MSPTI_ACTIVITY_FLAG_MARKER_END_WITH_DEVICE : MSPTI_ACTIVITY_FLAG_MARKER_END;
    WriteHostRecord(flag, id, "", "");
    // The device end goes to the stream of the start, so both device markers time the same stream.
    if (with_device) PlaceDeviceHalf(id, flag, range.stream);
}

// ---- the functions in libprofapi's tables (C calling convention, mstx signatures) ----

void MarkA(const char* message, Stream stream) { Mark(&DefaultDomain(), message, stream); }
uint64_t RangeStartA(const char* message, Stream stream) { return RangeStart(&DefaultDomain(), message, stream); }
void RangeEndA(uint64_t id) { RangeEnd(nullptr, id); }

Handle DomainCreateA(const char* name) { return reinterpret_cast<Handle>(CreateDomain(name)); }
void DomainDestroyA(Handle handle) { DestroyDomain(FromHandle(handle)); }
void DomainMarkA(Handle handle, const char* message, Stream stream) { Mark(FromHandle(handle), message, stream); }
mstxRangeId DomainRangeStartA(Handle handle, const char* message, Stream stream) {
    return RangeStart(FromHandle(handle), message, stream);
}
void DomainRangeEndA(Handle handle, mstxRangeId id) { RangeEnd(FromHandle(handle), id); }

template <typename Fn>
void Install(MstxFuncPointer** table, uint32_t size, uint32_t id, Fn fn) {
    if (table == nullptr || id > size || table[id] == nullptr) return;
    *table[id] = reinterpret_cast<MstxFuncPointer>(fn);
}

}  // namespace

int InitMstxInjection(MstxGetModuleFuncTableFunc get_table) {
    if (get_table == nullptr) return 1;
    MstxFuncPointer** table = nullptr;
    uint32_t size = 0;
    if (get_table(MSTX_API_MODULE_CORE, &table, &size) == 0) {
        Install(table, size, MSTX_API_CORE_MARK_A, &MarkA);
        Install(table, size, MSTX_API_CORE_RANGE_START_A, &RangeStartA);
        Install(table, size, MSTX_API_CORE_RANGE_END, &RangeEndA);
    }
    table = nullptr;
    size = 0;
    if (get_table(MSTX_API_MODULE_CORE_DOMAIN, &table, &size) == 0) {
        Install(table, size, MSTX_API_CORE2_DOMAIN_CREATE_A, &DomainCreateA);
        Install(table, size, MSTX_API_CORE2_DOMAIN_DESTROY, &DomainDestroyA);
        Install(table, size, MSTX_API_CORE2_DOMAIN_MARK_A, &DomainMarkA);
        Install(table, size, MSTX_API_CORE2_DOMAIN_RANGE_START_A, &DomainRangeStartA);
        Install(table, size, MSTX_API_CORE2_DOMAIN_RANGE_END, &DomainRangeEndA);
    }
    return 0;
}

}  // namespace mspti::markers
