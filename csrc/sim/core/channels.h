// The device profiling channels of the simulated driver: one byte FIFO per
// (device, channel), filled by the device model while the channel is started,
// drained by prof_channel_read, and signalled to a blocking prof_channel_poll.
// Appending takes no lock the reader holds (core/byte_fifo.h); a poller is woken
// only when one is waiting.
//
// Device order. The model writes a task's logs when the task is scheduled, but a
// device log reaches the host only once the device has done the work: a record
// (every channel record carries its device time at offset 8) becomes readable
// once the platform clock has passed that time (wall: the host clock; virtual:
// the virtual clock, which reads, polls and flushes never advance). Readers take
// records in device-time order (ties in the order written). The sorting happens
// on the reader's side (`Staged`, under the read lock): records written later
// than a read always carry later times than what that read released, so the
// order is global. The ordering time sits at byte 8 of a STARS log or a step trace, and at byte 120
// (the end of the context) of a 128-byte ContextPmu record of the FFTS profile channel (53), which
// is written once the task has ended. A stop releases everything written (the device finishes
// the work it was given), so what a profiler reads after stopping is complete.
//
// Under `device_logs = "sync"` (NPU_SIM_DEVICE_LOGS) a record becomes readable only once the host
// has also waited for the device up to its time (Clock::wait_until: a synchronisation). While a
// reader polls the hub, a synchronisation releases the logs, wakes the reader and returns once the
// reader has read them and is back in its poll (at most kHandOverPatience): each batch a reader
// takes is then exactly the logs of one stretch between synchronisations, and its work does not
// overlap the next stretch, whatever the machine's load (the instruction benchmark,
// docs/performance.md).
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/byte_fifo.h"
#include "core/config.h"
#include "core/export.h"
#include "seam/hal.h"

namespace npusim {

class NPUSIM_API ChannelHub {
public:
    static constexpr uint32_t kChannels[] = {PROF_CHANNEL_TS_FW, PROF_CHANNEL_STARS_SOC_LOG, PROF_CHANNEL_FFTS_PROFILE};
    static constexpr size_t kChannelCount = 3;
    // A channel holds at most this many unread bytes; what arrives beyond it is counted as dropped.
    static constexpr size_t kMaxPendingBytes = 64u << 20;

    // `stars_record_bytes`: the size of one STARS log of the SoC (64, or 32 on chip type 15).
    explicit ChannelHub(uint32_t devices, uint32_t stars_record_bytes = 64,
                        DeviceLogRelease release = DeviceLogRelease::Due);

    // -1 if the simulator does not offer the channel. Inline and constexpr: device code passes a
    // constant channel, so the lookup folds away on the launch path.
    static constexpr int slot_of(uint32_t channel_id) {
        for (size_t i = 0; i < kChannelCount; ++i) {
            if (kChannels[i] == channel_id) return static_cast<int>(i);
        }
        return -1;
    }
    bool valid(uint32_t device, uint32_t channel) const { return device < devices_ && slot_of(channel) >= 0; }

    int start(uint32_t device, uint32_t channel);
    int stop(uint32_t device, uint32_t channel);
    bool active(uint32_t device, uint32_t channel) const {
        const int slot = slot_of(channel);
        return device < devices_ && slot >= 0 && fifo(device, slot).active.load(std::memory_order_acquire);
    }
    // Appends bytes when the channel is started; returns false (and counts) when not collected.
    bool push(uint32_t device, uint32_t channel, const void* data, size_t len);
    // The same for `len` bytes (at most ByteFifo::kMaxReserve) that `write(char* out)` writes in place
    // (the device's logs, made straight into the FIFO: no copy on the launch path).
    template <typename Write>
    bool emit(uint32_t device, uint32_t channel, size_t len, Write&& write) {
        const int slot = slot_of(channel);
        if (device >= devices_ || slot < 0) return false;
        Fifo& f = fifo(device, slot);
        f.bytes.lock_producers();
        if (!f.active.load(std::memory_order_relaxed)) {
            f.bytes.unlock_producers();
            return false;
        }
        char* out = f.bytes.reserve_locked(len, kMaxPendingBytes);
        if (out == nullptr) {
            f.bytes.unlock_producers();
            f.dropped.fetch_add(len, std::memory_order_relaxed);
            return false;
        }
        write(out);
        f.bytes.commit_locked(len);
        f.bytes.unlock_producers();
        notify_if_waiting();
        return true;
    }
    // Hands a reader bytes as they are (a test's device logs: any length, well-formed or not),
    // readable at once, ahead of the model's records and whether the channel is started or not.
    // PROF_ERROR for an unknown channel, or when the channel's unread bytes would pass
    // kMaxPendingBytes (nothing is then appended).
    int feed(uint32_t device, uint32_t channel, const void* data, size_t len);
    int poll(prof_poll_info_t* out, int num, int timeout_sec);
    int read(uint32_t device, uint32_t channel, char* buf, uint32_t size);
    int flush(uint32_t device, uint32_t channel, uint32_t* pending);
    uint64_t dropped_bytes(uint32_t device, uint32_t channel) const;
    // Bytes written and not read yet, readable or not.
    uint64_t pending_bytes(uint32_t device, uint32_t channel) const;
    // Bytes a read could return now.
    uint64_t readable_bytes(uint32_t device, uint32_t channel) const;
    // Wakes every poller (process teardown).
    void shutdown();
    // The host waited for the device up to `t` (device_logs = "sync"): records up to `t` become
    // readable and are handed to a polling reader (see above).
    void synchronised(uint64_t t);
    // In a forked child: the parent's pollers and readers are gone, but the locks and the condition
    // variable they held or waited on were copied; re-created so that the child can use the channels.
    void reset_after_fork();

private:
    static constexpr uint32_t kMaxRecordBytes = 128;  // the ContextPmu record of channel 53
    // Records taken out of the byte FIFO, not yet readable: a ring in device-time order, records
    // packed at the channel's record size so that records move in and out in bulk copies.
    struct Staged {
        std::unique_ptr<char[]>
            ring;  // `capacity` records; capacity a power of two, grows only while the backlog grows
        size_t capacity = 0, head = 0, count = 0;
        char carry[kMaxRecordBytes];  // the rest of a record a short read cut
        uint32_t carry_pos = 0, carry_len = 0;
        bool release_all = false;  // stopped: everything written is readable
    };
    struct Fifo {
        Fifo(uint32_t record, uint32_t time_at) : record_bytes(record), time_offset(time_at) {}
        ByteFifo bytes;
        const uint32_t record_bytes;
        const uint32_t time_offset;  // where a record carries its device time
        std::mutex read_mutex;  // readers (and start/stop) take turns; producers never take it
        std::atomic<bool> active{false};  // changed under both locks, read under the producer lock
        std::atomic<uint64_t> dropped{0};
        Staged staged;  // under read_mutex
        std::string fed;  // under read_mutex: fed bytes not read yet (feed)
        size_t fed_pos = 0;
    };
    Fifo& fifo(uint32_t device, int slot) const { return *fifos_[device * kChannelCount + static_cast<size_t>(slot)]; }
    // Under the fifo's read_mutex: moves written records into the staging ring, in time order.
    static void stage_locked(Fifo& f);
    // Under the read_mutex: how many of the first `limit` staged records (at most st.count) are due
    // at `now`.
    static size_t due_locked(const Fifo& f, size_t limit, uint64_t now);
    // Under the read_mutex: bytes readable at `now`; `next_due` gets the time of the first record
    // not readable yet (UINT64_MAX if none).
    static uint64_t readable_locked(const Fifo& f, uint64_t now, uint64_t* next_due);
    // The time up to which records are readable now (the clock, or under "sync" the last synchronisation).
    uint64_t release_time() const;
    // Under poll_mutex_ (sync release): a started channel holds records released and not read yet.
    bool released_unread_locked();
    // Under poll_mutex_: some channel is started (a profiler collects; its reader may be waited for).
    bool collecting_locked() const;
    // A poller waits (poll_mutex_ held by `lock`) until `until`, a wake-up or the shutdown.
    void park(std::unique_lock<std::mutex>& lock, std::chrono::steady_clock::time_point until, uint64_t seen);
    // Readable channels into `out` (at most `num`); `next_due` as above, over every channel.
    int collect_ready(prof_poll_info_t* out, int num, uint64_t* next_due);
    void notify();
    // After an append: the append published its bytes with a seq_cst store and a poller announces
    // itself with a seq_cst increment before it looks at the FIFOs, so either it sees the bytes or
    // this sees it.
    void notify_if_waiting() {
        if (waiting_pollers_.load(std::memory_order_seq_cst) != 0) notify();
    }

    uint32_t devices_;
    DeviceLogRelease release_;
    std::atomic<uint64_t> released_until_{0};  // sync release: the latest synchronisation's time
    std::atomic<bool> polled_{false};          // sync release: a reader polls this hub
    std::vector<std::unique_ptr<Fifo>> fifos_;
    std::mutex poll_mutex_;
    std::condition_variable poll_cv_;
    std::condition_variable handed_cv_;  // sync release: a poller parked (under poll_mutex_)
    uint32_t parked_pollers_ = 0;        // pollers waiting in poll (under poll_mutex_)
    std::atomic<bool> shutdown_{false};
    std::atomic<uint64_t> wake_seq_{0};
    std::atomic<uint32_t> waiting_pollers_{0};
};

}  // namespace npusim
