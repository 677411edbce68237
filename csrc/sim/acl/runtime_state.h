// Process and thread state of the runtime: initialisation, which device and
// context each thread is using, device open counts, contexts, and resolving a
// stream argument (NULL = the current context's default stream).
#pragma once

#include <cstdint>

#include "acl/acl_base.h"
#include "core/device.h"
#include "core/platform.h"

namespace acl {

// False when the simulator's configuration is invalid; every API then fails.
bool platform_ok();

// The OS thread id of the calling thread, cached (profiling records carry it: two reports per traced
// launch). Initial-exec: one load from the thread pointer. An inline variable with a constant
// initialiser, so that a read needs no call of a TLS wrapper (an extern thread_local would).
inline thread_local uint32_t t_tid __attribute__((tls_model("initial-exec"))) = 0;
uint32_t refresh_tid();
inline uint32_t current_tid() {
    const uint32_t tid = t_tid;
    return tid != 0 ? tid : refresh_tid();
}

// aclInit / aclFinalize bookkeeping.
enum class InitState : uint8_t { Never, Initialised, Finalised };
InitState init_state();
void set_init_state(InitState state);

// A context: a device plus the stream that NULL means while the context is current.
struct Context {
    uint32_t device = 0;
    npusim::Stream* stream = nullptr;
    bool primary = false;  // the device's own context (aclrtSetDevice), not destroyable
};

// The calling thread's current device (-1 if none) and context handle.
struct ThreadState {
    int32_t device = -1;
    void* context = nullptr;
};
ThreadState& thread_state();

// The current device, or ACL_ERROR_RT_CONTEXT_NULL when the thread has none.
aclError current_device(npusim::Device*& out);

// ACL_ERROR_RT_INVALID_DEVICEID unless 0 <= id < device count.
aclError check_device_id(int64_t id);

// Reference-counted device opens; the first open and the last close notify the profiler.
// `primary`: the open is an aclrtSetDevice's, which holds the device's primary context (active
// while at least one such open lasts: aclrtGetPrimaryCtxState).
void open_device(uint32_t id, bool primary = false);
// False when the device was not open. `all`: every open is closed at once (aclrtResetDeviceForce).
bool close_device(uint32_t id, bool all = false, bool primary = false);
bool primary_context_active(uint32_t id);

// Contexts.
void* primary_context(uint32_t device);
void* create_context(uint32_t device, npusim::Stream* stream);
Context* find_context(const void* handle);
bool destroy_context(const void* handle);

// NULL resolves to the current context's default stream.
aclError resolve_stream(const void* handle, npusim::Stream*& stream, npusim::Device*& device);

// The simulator singletons, and the SoC of the platform.
inline npusim::Platform& platform() { return npusim::Platform::instance(); }
inline npusim::Clock& sim_clock() { return npusim::Platform::instance().clock(); }
const npusim::SocSpec& soc();

}  // namespace acl
