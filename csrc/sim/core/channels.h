// The device profiling channels of the simulated driver: one byte FIFO per
// (device, channel), filled by the device model while the channel is started,
// drained by prof_channel_read, and signalled to a blocking prof_channel_poll.
// Appending takes no lock the reader holds (core/byte_fifo.h); a poller is woken
// only when one is waiting.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "core/byte_fifo.h"
#include "core/export.h"
#include "seam/hal.h"

namespace npusim {

class NPUSIM_API ChannelHub {
public:
    static constexpr uint32_t kChannels[] = {PROF_CHANNEL_TS_FW, PROF_CHANNEL_STARS_SOC_LOG};
    static constexpr size_t kChannelCount = 2;
    // A channel holds at most this many unread bytes; what arrives beyond it is counted as dropped.
    static constexpr size_t kMaxPendingBytes = 64u << 20;

    explicit ChannelHub(uint32_t devices);

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
    int poll(prof_poll_info_t* out, int num, int timeout_sec);
    int read(uint32_t device, uint32_t channel, char* buf, uint32_t size);
    int flush(uint32_t device, uint32_t channel, uint32_t* pending);
    uint64_t dropped_bytes(uint32_t device, uint32_t channel) const;
    uint64_t pending_bytes(uint32_t device, uint32_t channel) const;
    // Wakes every poller (process teardown).
    void shutdown();
    // In a forked child: the parent's pollers and readers are gone, but the locks and the condition
    // variable they held or waited on were copied; re-created so that the child can use the channels.
    void reset_after_fork();

private:
    struct Fifo {
        ByteFifo bytes;
        std::mutex read_mutex;  // readers (and start/stop) take turns; producers never take it
        std::atomic<bool> active{false};  // changed under both locks, read under the producer lock
        std::atomic<uint64_t> dropped{0};
    };
    Fifo& fifo(uint32_t device, int slot) const { return *fifos_[device * kChannelCount + static_cast<size_t>(slot)]; }
    bool any_pending() const;
    void notify();

    uint32_t devices_;
    std::vector<std::unique_ptr<Fifo>> fifos_;
    std::mutex poll_mutex_;
    std::condition_variable poll_cv_;
    std::atomic<bool> shutdown_{false};
    std::atomic<uint64_t> wake_seq_{0};
    std::atomic<uint32_t> waiting_pollers_{0};
};

}  // namespace npusim
