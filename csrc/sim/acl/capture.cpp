#include "acl/capture.h"

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "acl/handle_table.h"
#include "core/immortal.h"
#include "acl/prof_reporter.h"
#include "acl/runtime_state.h"

namespace acl::capture {

std::atomic<uint32_t> g_capturing{0};

namespace {

struct CapturedTask {
    npusim::TaskDesc desc;
    uint32_t task_id = 0;
    uint16_t ffts_subtasks = 0;
    std::function<void()> effect;
};

// A model run instance: its own stream and the tasks captured for it, in issue order.
struct Model {
    npusim::Device* device = nullptr;
    npusim::Stream* stream = nullptr;
    std::vector<CapturedTask> tasks;
    bool capturing = true;
};

// A capture in progress, by the stream that captures.
struct Capture {
    void* model = nullptr;
    int32_t mode = ACL_MODEL_RI_CAPTURE_MODE_GLOBAL;
    std::thread::id thread;
    bool invalidated = false;
};

// One lock serialises capture, execution and destruction of models: an execution never
// races with the destruction of its model.
struct Registry {
    std::mutex mutex;
    std::map<const npusim::Stream*, Capture> captures;
    HandleTable<Model> models{kModelTag};
};

Registry& registry() {
    static npusim::Immortal<Registry> r;
    return r.get();
}

thread_local int32_t t_mode = ACL_MODEL_RI_CAPTURE_MODE_GLOBAL;

bool valid_mode(int32_t mode) {
    return mode == ACL_MODEL_RI_CAPTURE_MODE_GLOBAL || mode == ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL ||
           mode == ACL_MODEL_RI_CAPTURE_MODE_RELAXED;
}

// Releases a model's stream once its queued executions are done. Caller holds the registry lock.
void release(Registry& r, void* handle) {
    std::unique_ptr<Model> m = r.models.erase(handle);
    if (m == nullptr) return;
    sim_clock().wait_until(m->stream->tail_ns());
    (void)m->device->destroy_stream(m->stream);
}

void end_capture(Registry& r, std::map<const npusim::Stream*, Capture>::iterator it) {
    r.captures.erase(it);
    g_capturing.fetch_sub(1, std::memory_order_acq_rel);
}

// Schedules one execution of a model after the work queued on `stream` and collects what its tasks
// do. The tasks keep their captured ids, and their tracks were reported at capture, so only the
// device logs are emitted now.
aclError schedule_execution(aclmdlRI model, npusim::Stream& stream, npusim::Device& device, uint64_t* end_ns,
                            std::vector<std::function<void()>>& effects) {
    Registry& r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    Model* m = r.models.find(model);
    if (m == nullptr) return ACL_ERROR_INVALID_RESOURCE_HANDLE;
    if (m->capturing) return ACL_ERROR_RT_MODEL_CAPTURED;
    if (m->device != &device) return ACL_ERROR_RT_MODEL_CONTEXT;
    // Executing a model is stream work the simulator does not capture.
    if (const auto it = r.captures.find(&stream); it != r.captures.end()) it->second.invalidated = true;
    const uint64_t ready = device.earliest_start(stream);
    uint64_t finish = ready;
    for (const CapturedTask& task : m->tasks) {
        npusim::TaskDesc desc = task.desc;
        desc.not_before_ns = ready;
        npusim::TaskRecord rec = device.schedule(*m->stream, desc);
        rec.task_id = task.task_id;
        if (task.effect) effects.push_back(task.effect);
        device.emit_task_logs(rec, desc.stars_task_type, task.ffts_subtasks);
        device.emit_pmu(rec, desc);
        finish = std::max(finish, rec.end_ns);
    }
    // The stream goes on when the model is done. CANN's own model-execute task on this stream
    // (and its records) is not modelled: only its effect on the stream's timeline.
    npusim::TaskDesc join;
    join.kind = npusim::TaskKind::EventWait;
    join.not_before_ns = finish;
    (void)device.schedule(stream, join);
    *end_ns = finish;
    return ACL_SUCCESS;
}

}  // namespace

Disposition offer(npusim::Device& device, npusim::Stream& stream, const npusim::TaskDesc& desc, TaskType type,
                  uint64_t kernel_hash, uint16_t ffts_subtasks, std::function<void()> effect, aclError* rc) {
    Registry& r = registry();
    npusim::TaskRecord track;
    {
        std::lock_guard<std::mutex> lock(r.mutex);
        const auto it = r.captures.find(&stream);
        if (it == r.captures.end()) return Disposition::Run;
        if (it->second.invalidated) {
            *rc = ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED;
            return Disposition::Refused;
        }
        Model* m = r.models.find(it->second.model);
        CapturedTask task;
        task.desc = desc;
        task.desc.not_before_ns = 0;
        task.task_id = device.reserve_task_id(*m->stream);
        task.ffts_subtasks = ffts_subtasks;
        task.effect = std::move(effect);
        track.device = device.id();
        track.stream_id = m->stream->id();
        track.task_id = task.task_id;
        m->tasks.push_back(std::move(task));
    }
    // The host half of a graph task is reported once, at capture, outside the lock.
    if (prof::task_time_on(device.id())) {
        prof::report_task_track(track, type, kernel_hash, desc.track_blocks, prof::kGraphTask);
    }
    return Disposition::Recorded;
}

void invalidate_if_capturing(const npusim::Stream& stream) { (void)blocks_capture(stream); }

bool blocks_capture(const npusim::Stream& stream) {
    Registry& r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    const auto it = r.captures.find(&stream);
    if (it == r.captures.end()) return false;
    it->second.invalidated = true;
    return true;
}

bool is_capturing(const npusim::Stream& stream) {
    Registry& r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    return r.captures.count(&stream) != 0;
}

aclError check_unsafe_call() {
    if (!any_capturing() || t_mode == ACL_MODEL_RI_CAPTURE_MODE_RELAXED) return ACL_SUCCESS;
    Registry& r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    const std::thread::id me = std::this_thread::get_id();
    for (const auto& entry : r.captures) {
        const Capture& c = entry.second;
        if (c.mode == ACL_MODEL_RI_CAPTURE_MODE_RELAXED) continue;
        const bool mine = c.thread == me;
        // A global-mode thread is stopped by any global capture and by its own thread-local ones;
        // a thread-local-mode thread only by its own captures.
        const bool forbidden =
            t_mode == ACL_MODEL_RI_CAPTURE_MODE_GLOBAL ? (c.mode == ACL_MODEL_RI_CAPTURE_MODE_GLOBAL || mine) : mine;
        if (forbidden) return ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT;
    }
    return ACL_SUCCESS;
}

aclError begin(aclrtStream stream, int32_t mode) {
    // The default stream cannot capture: capture needs a stream the caller created.
    if (stream == nullptr || !valid_mode(mode)) return ACL_ERROR_INVALID_PARAM;
    npusim::Stream* s = nullptr;
    npusim::Device* device = nullptr;
    if (const aclError rc = resolve_stream(stream, s, device); rc != ACL_SUCCESS) return rc;
    Registry& r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    if (r.captures.count(s) != 0) return ACL_ERROR_RT_STREAM_CAPTURED;
    npusim::Stream* model_stream = device->create_stream(s->priority(), 0);
    if (model_stream == nullptr) return ACL_ERROR_RT_NO_STREAM_RESOURCE;
    auto model = std::make_unique<Model>();
    model->device = device;
    model->stream = model_stream;
    void* handle = r.models.insert(std::move(model));
    if (handle == nullptr) {
        (void)device->destroy_stream(model_stream);
        return ACL_ERROR_RT_NO_MODEL_RESOURCE;
    }
    r.captures.emplace(s, Capture{handle, mode, std::this_thread::get_id(), false});
    g_capturing.fetch_add(1, std::memory_order_acq_rel);
    return ACL_SUCCESS;
}

aclError get_info(aclrtStream stream, aclmdlRICaptureStatus* status, aclmdlRI* model) {
    if (status == nullptr) return ACL_ERROR_INVALID_PARAM;
    npusim::Stream* s = nullptr;
    npusim::Device* device = nullptr;
    if (const aclError rc = resolve_stream(stream, s, device); rc != ACL_SUCCESS) return rc;
    Registry& r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    const auto it = r.captures.find(s);
    if (it == r.captures.end()) {
        *status = ACL_MODEL_RI_CAPTURE_STATUS_NONE;
        if (model != nullptr) *model = nullptr;
        return ACL_SUCCESS;
    }
    *status = it->second.invalidated ? ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED : ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE;
    if (model != nullptr) *model = it->second.model;
    return ACL_SUCCESS;
}

aclError end(aclrtStream stream, aclmdlRI* model) {
    if (model == nullptr) return ACL_ERROR_INVALID_PARAM;
    npusim::Stream* s = nullptr;
    npusim::Device* device = nullptr;
    if (const aclError rc = resolve_stream(stream, s, device); rc != ACL_SUCCESS) return rc;
    Registry& r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    const auto it = r.captures.find(s);
    if (it == r.captures.end()) return ACL_ERROR_RT_STREAM_NOT_CAPTURED;
    const Capture c = it->second;
    if (c.mode != ACL_MODEL_RI_CAPTURE_MODE_RELAXED && c.thread != std::this_thread::get_id())
        return ACL_ERROR_RT_STREAM_CAPTURE_WRONG_THREAD;
    end_capture(r, it);
    if (c.invalidated) {
        release(r, c.model);
        *model = nullptr;
        return ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED;
    }
    r.models.find(c.model)->capturing = false;
    *model = c.model;
    return ACL_SUCCESS;
}

aclError exchange_mode(aclmdlRICaptureMode* mode) {
    if (mode == nullptr || !valid_mode(static_cast<int32_t>(*mode))) return ACL_ERROR_INVALID_PARAM;
    const int32_t previous = t_mode;
    t_mode = static_cast<int32_t>(*mode);
    *mode = static_cast<aclmdlRICaptureMode>(previous);
    return ACL_SUCCESS;
}

aclError execute(aclmdlRI model, aclrtStream stream, uint64_t* end_ns) {
    if (model == nullptr) return ACL_ERROR_INVALID_PARAM;
    npusim::Stream* s = nullptr;
    npusim::Device* device = nullptr;
    if (const aclError rc = resolve_stream(stream, s, device); rc != ACL_SUCCESS) return rc;
    // What the tasks do (copies, fills, host functions) happens after the registry lock is
    // released, in task order: a host function may itself call the runtime.
    std::vector<std::function<void()>> effects;
    if (const aclError rc = schedule_execution(model, *s, *device, end_ns, effects); rc != ACL_SUCCESS) return rc;
    for (const std::function<void()>& effect : effects) effect();
    return ACL_SUCCESS;
}

aclError destroy(aclmdlRI model) {
    if (model == nullptr) return ACL_ERROR_INVALID_PARAM;
    Registry& r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    const Model* m = r.models.find(model);
    if (m == nullptr) return ACL_ERROR_INVALID_RESOURCE_HANDLE;
    if (m->capturing) return ACL_ERROR_RT_MODEL_CAPTURED;
    release(r, model);
    return ACL_SUCCESS;
}

}  // namespace acl::capture
