#include "interpose/memory_reporter.h"

#include <mutex>
#include <unordered_map>

#include "activity/buffer_manager.h"
#include "activity/copy_records.h"
#include "activity/kinds.h"
#include "common/no_destructor.h"
#include "common/thread_id.h"
#include "cann/cann_api.h"

namespace mspti::interpose::memory {
namespace {

// Sizes of the allocations seen, for the bytes of their release.
class AllocationSizes {
public:
    void Add(const void* address, uint64_t bytes) {
        Stripe& s = StripeOf(address);
        std::lock_guard<std::mutex> lock(s.mutex);
        s.sizes[address] = bytes;
    }
    uint64_t Take(const void* address) {
        Stripe& s = StripeOf(address);
        std::lock_guard<std::mutex> lock(s.mutex);
        auto it = s.sizes.find(address);
        if (it == s.sizes.end()) return 0;
        const uint64_t bytes = it->second;
        s.sizes.erase(it);
        return bytes;
    }

private:
    static constexpr size_t kStripes = 16;
    struct Stripe {
        std::mutex mutex;
        std::unordered_map<const void*, uint64_t> sizes;
    };
    Stripe& StripeOf(const void* address) { return stripes_[(reinterpret_cast<uintptr_t>(address) >> 6) % kStripes]; }
    Stripe stripes_[kStripes];
};

AllocationSizes& Sizes() {
    static NoDestructor<AllocationSizes> sizes;
    return sizes.get();
}

uint32_t CurrentDevice() {
    auto get = seam::cann::aclrtGetDevice.get();
    int32_t device = -1;
    if (get == nullptr || get(&device) != ACL_SUCCESS || device < 0) return MSPTI_INVALID_DEVICE_ID;
    return static_cast<uint32_t>(device);
}

uint32_t StreamId(bool async, aclrtStream stream) {
    if (!async) return MSPTI_INVALID_STREAM_ID;
    auto get = seam::cann::aclrtStreamGetId.get();
    int32_t id = -1;
    if (get == nullptr || get(stream, &id) != ACL_SUCCESS || id < 0) return MSPTI_INVALID_STREAM_ID;
    return static_cast<uint32_t>(id);
}

void WriteMemory(msptiActivityMemoryOperationType op, uint64_t correlation_id, uint64_t start, uint64_t end,
                 const void* address, uint64_t bytes) {
    msptiActivityMemory record{};
    record.kind = MSPTI_ACTIVITY_KIND_MEMORY;
    record.memoryOperationType = op;
    record.memoryKind = MSPTI_ACTIVITY_MEMORY_DEVICE;
    record.correlationId = correlation_id;
    record.start = start;
    record.end = end;
    record.address = reinterpret_cast<uintptr_t>(address);
    record.bytes = bytes;
    record.processId = CurrentProcessId();
    record.deviceId = CurrentDevice();
    record.streamId = MSPTI_INVALID_STREAM_ID;
    activity::BufferManager::Instance().Write(record);
}

}  // namespace

msptiActivityMemcpyKind CopyKind(aclrtMemcpyKind kind) {
    switch (kind) {
        case ACL_MEMCPY_HOST_TO_HOST: return MSPTI_ACTIVITY_MEMCPY_KIND_HTOH;
        case ACL_MEMCPY_HOST_TO_DEVICE:
        case ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE: return MSPTI_ACTIVITY_MEMCPY_KIND_HTOD;
        case ACL_MEMCPY_DEVICE_TO_HOST: return MSPTI_ACTIVITY_MEMCPY_KIND_DTOH;
        case ACL_MEMCPY_DEVICE_TO_DEVICE: return MSPTI_ACTIVITY_MEMCPY_KIND_DTOD;
        case ACL_MEMCPY_DEFAULT: return MSPTI_ACTIVITY_MEMCPY_KIND_DEFAULT;
        default: return MSPTI_ACTIVITY_MEMCPY_KIND_UNKNOWN;
    }
}

void ReportAllocation(uint64_t correlation_id, uint64_t start, uint64_t end, const void* address, uint64_t bytes) {
    if (!activity::Enabled(MSPTI_ACTIVITY_KIND_MEMORY)) return;
    Sizes().Add(address, bytes);
    WriteMemory(MSPTI_ACTIVITY_MEMORY_OPERATION_TYPE_ALLOCATION, correlation_id, start, end, address, bytes);
}

void ReportRelease(uint64_t correlation_id, uint64_t start, uint64_t end, const void* address) {
    // Taken even when MEMORY is off now, so a stale size never meets a reused address.
    const uint64_t bytes = Sizes().Take(address);
    if (!activity::Enabled(MSPTI_ACTIVITY_KIND_MEMORY)) return;
    WriteMemory(MSPTI_ACTIVITY_MEMORY_OPERATION_TYPE_RELEASE, correlation_id, start, end, address, bytes);
}

void ReportMemcpy(uint64_t correlation_id, uint64_t start, uint64_t end, aclrtMemcpyKind kind, uint64_t bytes,
                  bool async, aclrtStream stream) {
    if (!activity::Enabled(MSPTI_ACTIVITY_KIND_MEMCPY)) return;
    activity::WriteMemcpy(CopyKind(kind),
                          {bytes, start, end, CurrentDevice(), StreamId(async, stream), correlation_id, async});
}

void ReportMemset(uint64_t correlation_id, uint64_t start, uint64_t end, int32_t value, uint64_t bytes, bool async,
                  aclrtStream stream) {
    if (!activity::Enabled(MSPTI_ACTIVITY_KIND_MEMSET)) return;
    activity::WriteMemset(static_cast<uint32_t>(value),
                          {bytes, start, end, CurrentDevice(), StreamId(async, stream), correlation_id, async});
}

}  // namespace mspti::interpose::memory
