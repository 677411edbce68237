// Reads the driver's profiling channels.
//
// One thread blocks in prof_channel_poll and, for every channel reported
// ready, reads it until empty and parses the whole records (a record split
// across reads is completed by the next read). Drain() lets another thread
// (FlushAll, Disable, Unsubscribe) pull everything a channel holds right now:
// it asks the driver to flush, then reads until it has at least what the
// driver reported pending, so the records of work finished before the call are
// parsed when it returns.
//
// A channel is read under its own lock; the device-data mutex is taken only to
// parse what a read returned, never across a driver call. A drain that finds the
// reader thread on a channel asks for it: the reader hands the channel over after
// the batch it is parsing, so the drain still reads everything pending. Only a
// reader inside one driver call for kDrainPatience (a stalled driver) is given up
// on, and that channel is left to the reader: a stalled driver read delays
// FlushAll by about 50 ms per channel, not by the stall.
#pragma once

#include <atomic>
#include <chrono>
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
    // without anybody waiting for its driver calls, so unsubscribing and exiting never block on the
    // driver (its periodic work is waited for, at most kDrainPatience).
    void RetireThread();

    // fork(): the child has no reader thread; the next Add or drain starts one for the channels
    // that collect (the device-data mutex is re-created by the caller).
    void ChildAfterFork();

    ChannelReader() = default;
    ChannelReader(const ChannelReader&) = delete;
    ChannelReader& operator=(const ChannelReader&) = delete;

private:
    struct Channel {
        uint32_t device = 0;
        uint32_t channel = 0;
        // Held across the driver's read; guards buffer and fill. A plain mutex polled with try_lock by
        // drains (TSan does not follow std::timed_mutex's timed locks).
        std::mutex read_mutex;
        std::vector<uint8_t> buffer;
        size_t fill = 0;
        // Drains waiting for read_mutex: the reader thread then hands the channel over.
        std::atomic<int> drainers{0};
        // When the holder of read_mutex entered its current driver read (steady clock ns), 0 if none.
        std::atomic<int64_t> driver_since_ns{0};
        // Bytes the parser skipped to find a record boundary again (guarded by read_mutex).
        uint64_t skipped = 0;
        bool skip_logged = false;
    };
    static uint64_t Key(uint32_t device, uint32_t channel) { return (uint64_t{device} << 32) | channel; }
    // Reads until the channel is empty or at least `limit` bytes were read. Requires c.read_mutex, not
    // the device-data mutex (taken per batch to parse). The reader thread stops after a batch when a
    // drain waits for the channel (`yield_to_drains`).
    size_t ReadHeld(Channel& c, size_t limit, bool yield_to_drains = false);
    // Parses what c.buffer holds, resynchronising on record boundaries; returns the bytes used.
    // Requires c.read_mutex and the device-data mutex.
    static size_t ParseLocked(Channel& c);
    static void NoteSkipped(Channel& c, size_t bytes);
    // Flushes and reads one channel (see LockForDrain). Returns the records' time at the flush if
    // everything the driver held then was read, else 0.
    uint64_t DrainChannel(Channel& c);
    std::shared_ptr<Channel> Find(uint32_t device, uint32_t channel);
    // Locks c.read_mutex for a drain: waits while the reader thread works through the channel, gives
    // up when its holder has been in one driver call for kDrainPatience, or after kDrainLimit.
    static bool LockForDrain(Channel& c);
    void StartThreadIfWanted();
    // Starts a reader thread unless one is running. Requires thread_mutex_.
    void StartThreadLocked();
    void Loop(uint64_t generation);

    // Guarded by the device-data mutex; shared so that a reader inside the driver keeps its channel.
    std::map<uint64_t, std::shared_ptr<Channel>> channels_;

    std::mutex thread_mutex_;
    // A reader thread runs while the generation it started with is current (0: no reader wanted).
    std::atomic<uint64_t> generation_{0};
    // Readers (a retired one may overlap its successor) inside their periodic sweep and resync.
    std::atomic<int> housekeeping_{0};
    uint64_t next_generation_ = 0;  // guarded by thread_mutex_
    bool restart_after_fork_ = false;  // guarded by thread_mutex_
};

}  // namespace mspti::seam
