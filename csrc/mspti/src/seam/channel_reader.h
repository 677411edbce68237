// Reads the driver's profiling channels.
//
// One thread blocks in prof_channel_poll and, for every channel reported
// ready, reads it until empty and parses the whole records (a record split
// across reads is completed by the next read). Drain() lets another thread
// (FlushAll, Disable, Unsubscribe) pull everything a channel holds right now:
// it asks the driver to flush, then reads until it has at least what the
// driver reported pending, so the records of work finished before the call are
// parsed when it returns.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace mspti::seam {

class ChannelReader {
public:
    static ChannelReader& Instance();

    // A channel the driver started: read it from now on (starts the reader thread if needed).
    void Add(uint32_t device, uint32_t channel);
    // Reads what is left, then forgets the channel (after prof_stop).
    void Remove(uint32_t device, uint32_t channel);
    // Flushes and reads everything pending on one channel, or on all channels.
    void Drain(uint32_t device, uint32_t channel);
    void DrainAll();
    // Retires the reader thread: it leaves at its next wake-up (at most one poll timeout later)
    // without anybody waiting for it, so unsubscribing and exiting never block on the driver.
    void RetireThread();

    ChannelReader() = default;
    ChannelReader(const ChannelReader&) = delete;
    ChannelReader& operator=(const ChannelReader&) = delete;

private:
    struct Channel {
        uint32_t device;
        uint32_t channel;
        std::vector<uint8_t> buffer;
        size_t fill = 0;
    };
    static uint64_t Key(uint32_t device, uint32_t channel) { return (uint64_t{device} << 32) | channel; }
    // Both require the device-data mutex.
    size_t ReadLocked(Channel& c);
    void DrainLocked(Channel& c);
    void Loop(uint64_t generation);

    // Guarded by the device-data mutex.
    std::map<uint64_t, std::unique_ptr<Channel>> channels_;

    std::mutex thread_mutex_;
    // A reader thread runs while the generation it started with is current (0: no reader wanted).
    std::atomic<uint64_t> generation_{0};
    uint64_t next_generation_ = 0;  // guarded by thread_mutex_
};

}  // namespace mspti::seam
