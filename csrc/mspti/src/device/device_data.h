// The consumer side of device data: one mutex serialises everything that joins
// host halves with device halves (the channel reader thread, and flushes that
// drain channels on the caller's thread). Host halves queued by application
// threads are drained into the matchers before each batch of device records.
#pragma once

#include <cstdint>
#include <mutex>

#include "device/communication_matcher.h"
#include "device/kernel_matcher.h"

namespace mspti::seam {

class DeviceData {
public:
    static DeviceData& Instance();

    std::mutex& mutex() { return mutex_; }

    // Moves queued task tracks and communication events into the matchers.
    void DrainHostQueues();        // takes the mutex
    void DrainHostQueuesLocked();  // requires it

    // Parses complete records read from a channel (requires the mutex); `size` is a multiple of
    // the channel's record size for the device's chip.
    void ParseStars(uint32_t device, uint32_t chip, const uint8_t* data, size_t size);
    void ParseStepTraces(uint32_t device, uint32_t chip, const uint8_t* data, size_t size);

    void SweepLocked(uint64_t now_ns);
    // A flush read everything the device's STARS channel held at `flushed_ns` (records' time base;
    // 0: the channel was not read to the end): counts the kernels whose device half is lost.
    void ExpireLostLocked(uint32_t device, uint64_t flushed_ns);
    void DropDeviceLocked(uint32_t device, bool stars, bool tsfw);
    // After a flush that began at `flush_ns` drained the device's STARS (`stars`) or step-trace
    // channel: kernels and device markers of streams synchronised after their launch and before the
    // flush whose device half did not come are counted as lost.
    void ExpireSyncedLocked(uint32_t device, bool stars, bool tsfw, uint64_t flush_ns);

    // fork(), in the child (one thread): a new mutex, and no host or device half of the parent's
    // work (those records are the parent's; the child neither delivers nor counts them).
    void ChildAfterFork();

    DeviceData() = default;
    DeviceData(const DeviceData&) = delete;
    DeviceData& operator=(const DeviceData&) = delete;

private:
    std::mutex mutex_;
    KernelMatcher kernels_;
    CommunicationMatcher communications_;
};

// Record sizes on the channels.
constexpr size_t kStepTraceSize = 40;
size_t StarsRecordSize(uint32_t chip);

}  // namespace mspti::seam
