// The simulated platform of one process: its devices, memory, clock and channels.
// Every CANN-named library reaches the model through Platform::instance().
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "core/channels.h"
#include "core/clock.h"
#include "core/config.h"
#include "core/device.h"
#include "core/export.h"
#include "core/memory.h"

namespace npusim {

// An event: a point on a stream's device timeline.
struct Event {
    uint32_t device = 0;
    uint32_t id = 0;
    uint32_t flags = 0;
    bool recorded = false;
    uint64_t time_ns = 0;  // device time at which the recording stream reached it
    // Recorded on a stream held behind a collective (stream_queue.h): the record task is not
    // placed yet, so its time is unknown; `stream` is where it waits, `generation` tells the
    // placement of this record from that of an earlier one.
    bool pending = false;
    Stream* stream = nullptr;
    uint64_t generation = 0;
};

class NPUSIM_API Platform {
public:
    static Platform& instance();

    const SimConfig& config() const { return config_; }
    bool ok() const { return config_.error.empty(); }
    uint32_t device_count() const { return static_cast<uint32_t>(devices_.size()); }
    Device* device(int64_t id) {
        return id >= 0 && id < int64_t(devices_.size()) ? devices_[size_t(id)].get() : nullptr;
    }
    Clock& clock() { return clock_; }
    ChannelHub& channels() { return channels_; }
    MemoryRegistry& memory() { return memory_; }

    // Stream handles are encoded values, checked without dereferencing user input.
    static void* stream_handle(const Stream& s);
    Stream* resolve_stream(const void* handle);

    // Events live in a table keyed by their handle value.
    void* create_event(uint32_t device, uint32_t flags);
    bool destroy_event(void* handle);
    // Runs `fn(Event&)` with the table locked; false when the handle is unknown.
    template <typename Fn>
    bool with_event(void* handle, Fn&& fn) {
        std::lock_guard<std::mutex> lock(events_mutex_);
        auto it = events_.find(reinterpret_cast<uintptr_t>(handle));
        if (it == events_.end()) return false;
        fn(it->second);
        return true;
    }

private:
    Platform();
    SimConfig config_;
    Clock& clock_;
    ChannelHub channels_;
    MemoryRegistry memory_;
    std::vector<std::unique_ptr<Device>> devices_;
    std::mutex events_mutex_;
    std::unordered_map<uintptr_t, Event> events_;
    uint32_t next_event_id_ = 1;
};

}  // namespace npusim
