// Stream capture into model run instances (aclmdlRI) and their replay.
//
// Between aclmdlRICaptureBegin and aclmdlRICaptureEnd the tasks issued to a
// stream are recorded, not run. As CANN does, the captured tasks belong to a
// stream of the model's own: each gets its task id at capture, and its host
// half (the task track) is reported once, at capture, as a graph task (aging
// flag 0). Every execution then runs the tasks again on the model's stream
// with the same ids, and the device emits their STARS logs each time, so a
// profiler joins every execution with the one track.
//
// Captured: kernels, asynchronous copies and fills (their data moves at each
// execution) and host functions (called at each execution). Other runtime work
// issued while capturing (events, profiler traces, model executions) runs at
// once and invalidates the capture: CANN captures those too, the simulator does not (yet). HCCL
// collectives bypass this path: they run at once and the capture stays valid.
// Captured copies keep the pointers they were given; an execution after those
// buffers were freed is not detected.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>

#include "acl/acl.h"
#include "acl/api_ids.h"
#include "core/device.h"

namespace acl::capture {

// The number of streams capturing now; the task path asks about a stream only when it is non-zero.
extern std::atomic<uint32_t> g_capturing;
inline bool any_capturing() { return g_capturing.load(std::memory_order_acquire) != 0; }

// What issuing a task to `stream` does while some stream captures.
enum class Disposition : uint8_t { Run, Recorded, Refused };

// Records the task if `stream` is capturing (reporting its graph task track), refuses it if the
// stream's capture was invalidated (rc = ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED), else Run.
// `effect` is what the task does when it runs: moves data or calls a host function (empty for kernels).
Disposition offer(npusim::Device& device, npusim::Stream& stream, const npusim::TaskDesc& desc, TaskType type,
                  uint64_t kernel_hash, uint16_t ffts_subtasks, std::function<void()> effect, aclError* rc);

// Stream work the simulator cannot capture: invalidates the stream's capture, if any.
void invalidate_if_capturing(const npusim::Stream& stream);

// True (and the capture invalidated) when `stream` is capturing: a host-blocking call on it.
bool blocks_capture(const npusim::Stream& stream);
// True when `stream` is capturing (it cannot be destroyed).
bool is_capturing(const npusim::Stream& stream);

// ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT when the calling thread's capture mode forbids a
// potentially unsafe call (synchronous copies and fills) during the captures in progress.
aclError check_unsafe_call();

// The public API, validated by model_api.cpp.
aclError begin(aclrtStream stream, int32_t mode);
aclError get_info(aclrtStream stream, aclmdlRICaptureStatus* status, aclmdlRI* model);
aclError end(aclrtStream stream, aclmdlRI* model);
aclError exchange_mode(aclmdlRICaptureMode* mode);
// Runs the model after the work queued on `stream`; *end_ns is when its last task ends.
aclError execute(aclmdlRI model, aclrtStream stream, uint64_t* end_ns);
aclError destroy(aclmdlRI model);

}  // namespace acl::capture
