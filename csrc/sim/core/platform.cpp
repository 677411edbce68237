#include "core/platform.h"

#include <string>

#include "core/log_plog.h"

namespace npusim {

namespace {
// Handle tags: the top 16 bits of an encoded handle say what it is.
constexpr uintptr_t kStreamTag = uintptr_t(0x5157) << 48;
constexpr uintptr_t kEventTag = uintptr_t(0x5E47) << 48;
constexpr uintptr_t kTagMask = uintptr_t(0xFFFF) << 48;
}  // namespace

Platform& Platform::instance() {
    // Never destroyed: CANN libraries and profilers may call in from atexit handlers and late threads.
    static Platform* platform = new Platform();
    return *platform;
}

Platform::Platform()
    : config_(sim_config()),
      clock_(Clock::instance()),
      // Chip type 15 writes 32-byte STARS logs.
      channels_(config_.devices, config_.soc != nullptr && config_.soc->chip_type == 15 ? 32 : 64,
                config_.device_logs) {
    if (config_.device_logs == DeviceLogRelease::Sync) {
        // Device logs become readable at synchronisations: each one wakes a waiting poller.
        clock_.set_wait_listener([](void* hub, uint64_t t) { static_cast<ChannelHub*>(hub)->synchronised(t); },
                                 &channels_);
    }
    for (uint32_t d = 0; d < config_.devices; ++d) {
        devices_.push_back(
            std::make_unique<Device>(d, *config_.soc, config_.seed, config_.jitter_pct, clock_, channels_));
    }
    // CANN's runtime writes an EVENT line when it starts, so every process that uses it has a plog.
    const std::string event = "npu-sim: runtime started, " + std::to_string(config_.devices) + " device(s)";
    plog_write(kPlogEvent, "RUNTIME", event.c_str());
}

void* Platform::stream_handle(const Stream& s) {
    return reinterpret_cast<void*>(kStreamTag | (uintptr_t(s.device()) << 16) | s.id());
}

Stream* Platform::resolve_stream(const void* handle) {
    const uintptr_t v = reinterpret_cast<uintptr_t>(handle);
    if ((v & kTagMask) != kStreamTag) return nullptr;
    Device* dev = device(int64_t((v >> 16) & 0xFFFF));
    return dev ? dev->stream_by_id(uint16_t(v & 0xFFFF)) : nullptr;
}

void* Platform::create_event(uint32_t device, uint32_t flags) {
    std::lock_guard<std::mutex> lock(events_mutex_);
    const uint32_t id = next_event_id_++;
    const uintptr_t handle = kEventTag | (uintptr_t(device) << 32) | id;
    events_[handle] = Event{device, id, flags, false, 0};
    return reinterpret_cast<void*>(handle);
}

bool Platform::destroy_event(void* handle) {
    std::lock_guard<std::mutex> lock(events_mutex_);
    return events_.erase(reinterpret_cast<uintptr_t>(handle)) == 1;
}

}  // namespace npusim
