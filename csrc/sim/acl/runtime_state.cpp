#include "acl/runtime_state.h"

#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <memory>
#include <mutex>

#include "acl/error_codes/rt_error_codes.h"
#include "acl/handle_table.h"
#include "core/immortal.h"
#include "seam/profapi.h"

namespace acl {

namespace {

thread_local ThreadState t_state;

// A forked child keeps the parent thread's cached id; forget it.
void forget_tid_in_child() { t_tid = 0; }
[[maybe_unused]] const bool g_atfork_registered = pthread_atfork(nullptr, nullptr, forget_tid_in_child) == 0;

std::atomic<InitState> g_init_state{InitState::Never};

constexpr uint32_t kMaxDevices = 64;  // the configuration allows at most 64

struct Devices {
    std::mutex mutex;
    std::array<uint32_t, kMaxDevices> open_count{};
    std::array<uint32_t, kMaxDevices> primary_count{};  // the opens of aclrtSetDevice among them
    std::array<void*, kMaxDevices> primary{};
};

Devices& devices() {
    static npusim::Immortal<Devices> d;
    return d.get();
}

HandleTable<Context>& contexts() {
    static npusim::Immortal<HandleTable<Context>> table(kContextTag);
    return table.get();
}

}  // namespace

bool platform_ok() {
    static const bool ok = platform().ok();
    return ok;
}

uint32_t refresh_tid() {
    t_tid = static_cast<uint32_t>(syscall(SYS_gettid));
    return t_tid;
}

InitState init_state() { return g_init_state.load(std::memory_order_acquire); }
void set_init_state(InitState state) { g_init_state.store(state, std::memory_order_release); }

ThreadState& thread_state() { return t_state; }

const npusim::SocSpec& soc() {
    static const npusim::SocSpec& spec = *platform().config().soc;
    return spec;
}

aclError current_device(npusim::Device*& out) {
    out = t_state.device < 0 ? nullptr : platform().device(t_state.device);
    return out ? ACL_SUCCESS : ACL_ERROR_RT_CONTEXT_NULL;
}

aclError check_device_id(int64_t id) {
    return platform().device(id) != nullptr ? ACL_SUCCESS : ACL_ERROR_RT_INVALID_DEVICEID;
}

void open_device(uint32_t id, bool primary) {
    Devices& d = devices();
    std::lock_guard<std::mutex> lock(d.mutex);
    if (primary) ++d.primary_count[id];
    if (d.open_count[id]++ == 0) (void)MsprofNotifySetDevice(soc().chip_type, id, true);
}

bool close_device(uint32_t id, bool all, bool primary) {
    Devices& d = devices();
    std::lock_guard<std::mutex> lock(d.mutex);
    if (d.open_count[id] == 0) return false;
    d.open_count[id] = all ? 0 : d.open_count[id] - 1;
    if (all) {
        d.primary_count[id] = 0;
    } else if (primary && d.primary_count[id] > 0) {
        --d.primary_count[id];
    }
    if (d.open_count[id] == 0) {
        // Closing a device waits for its work, as the runtime's reset does.
        (void)platform().device(id)->settle();
        sim_clock().wait_until(platform().device(id)->busy_until_ns());
        (void)MsprofNotifySetDevice(soc().chip_type, id, false);
    }
    return true;
}

bool primary_context_active(uint32_t id) {
    Devices& d = devices();
    std::lock_guard<std::mutex> lock(d.mutex);
    return d.primary_count[id] > 0;
}

void* primary_context(uint32_t device) {
    Devices& d = devices();
    std::lock_guard<std::mutex> lock(d.mutex);
    if (d.primary[device] == nullptr) {
        auto ctx = std::make_unique<Context>();
        ctx->device = device;
        ctx->stream = platform().device(device)->default_stream();
        ctx->primary = true;
        d.primary[device] = contexts().insert(std::move(ctx));
    }
    return d.primary[device];
}

void* create_context(uint32_t device, npusim::Stream* stream) {
    auto ctx = std::make_unique<Context>();
    ctx->device = device;
    ctx->stream = stream;
    return contexts().insert(std::move(ctx));
}

Context* find_context(const void* handle) { return contexts().find(handle); }

bool destroy_context(const void* handle) { return contexts().erase(handle) != nullptr; }

aclError resolve_stream(const void* handle, npusim::Stream*& stream, npusim::Device*& device) {
    if (handle != nullptr) {
        stream = platform().resolve_stream(handle);
        if (stream == nullptr) return ACL_ERROR_RT_PARAM_INVALID;
        device = platform().device(stream->device());
        return ACL_SUCCESS;
    }
    const aclError rc = current_device(device);
    if (rc != ACL_SUCCESS) return rc;
    const Context* ctx = t_state.context ? contexts().find(t_state.context) : nullptr;
    stream = ctx != nullptr && ctx->device == device->id() ? ctx->stream : device->default_stream();
    return ACL_SUCCESS;
}

}  // namespace acl
