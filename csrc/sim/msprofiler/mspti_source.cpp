#include "msprofiler/mspti_source.h"

#include <dlfcn.h>

#include <atomic>
#include <cstdlib>
#include <mutex>
#include <string>
#include <vector>

#include "acl/acl_prof.h"
#include "core/log.h"
#include "mspti/mspti.h"

namespace npusim::msprof {
namespace {

constexpr size_t kBufferBytes = 4u << 20;

struct MsptiFunctions {
    decltype(&msptiSubscribe) subscribe = nullptr;
    decltype(&msptiUnsubscribe) unsubscribe = nullptr;
    decltype(&msptiActivityRegisterCallbacks) register_callbacks = nullptr;
    decltype(&msptiActivityEnable) enable = nullptr;
    decltype(&msptiActivityDisable) disable = nullptr;
    decltype(&msptiActivityFlushAll) flush_all = nullptr;
    decltype(&msptiActivityGetNextRecord) next_record = nullptr;
    decltype(&msptiGetTimestamp) timestamp = nullptr;
    // The simulated msPTI's entry for libmsprofiler (activity_api.cpp): enables MEMCPY and MEMSET
    // from the runtime's own task reports, without the interposer. Absent from another msPTI.
    decltype(&msptiActivityEnable) enable_for_msprof = nullptr;
    // Its entry that reports each KERNEL record's task id (AI Core metrics). Absent from another msPTI.
    void (*observe_kernel_tasks)(KernelTaskSink) = nullptr;
    // Its entry that reports each node basic info (Block Num). Absent from another msPTI.
    void (*observe_node_info)(NodeInfoSink) = nullptr;
    bool callbacks_registered = false;
};

// Process-lifetime state, never destroyed: msPTI may deliver a buffer from its reader thread
// while the process exits.
MsptiFunctions& functions() {
    static auto* fns = new MsptiFunctions();
    return *fns;
}
std::mutex& state_mutex() {
    static auto* mutex = new std::mutex();
    return *mutex;
}
std::atomic<RecordSink> g_sink{nullptr};
msptiSubscriberHandle g_subscriber = nullptr;
KindSet g_kinds;

std::string own_directory() {
    Dl_info info{};
    if (::dladdr(reinterpret_cast<const void*>(&load_mspti), &info) == 0 || info.dli_fname == nullptr) return {};
    std::string path = info.dli_fname;
    const size_t slash = path.rfind('/');
    return slash == std::string::npos ? std::string() : path.substr(0, slash);
}

template <typename Fn>
bool bind(void* handle, const char* name, Fn* out) {
    *out = reinterpret_cast<Fn>(::dlsym(handle, name));
    return *out != nullptr;
}

void request_buffer(uint8_t** buffer, size_t* size, size_t* max_records) {
    *buffer = static_cast<uint8_t*>(std::aligned_alloc(8, kBufferBytes));
    *size = *buffer != nullptr ? kBufferBytes : 0;
    *max_records = 0;
}

void complete_buffer(uint8_t* buffer, size_t /*size*/, size_t valid_size) {
    const RecordSink sink = g_sink.load(std::memory_order_acquire);
    MsptiFunctions& fns = functions();
    msptiActivity* record = nullptr;
    while (sink != nullptr && fns.next_record(buffer, valid_size, &record) == MSPTI_SUCCESS && record != nullptr) {
        sink(record);
    }
    std::free(buffer);
}

// The msPTI kinds a KindSet enables, in the order they are enabled.
std::vector<msptiActivityKind> kinds_of(const KindSet& kinds) {
    std::vector<msptiActivityKind> out;
    if (kinds.kernel)
        out.insert(out.end(), {MSPTI_ACTIVITY_KIND_KERNEL, MSPTI_ACTIVITY_KIND_MEMCPY, MSPTI_ACTIVITY_KIND_MEMSET});
    if (kinds.communication) out.insert(out.end(), {MSPTI_ACTIVITY_KIND_HCCL, MSPTI_ACTIVITY_KIND_COMMUNICATION});
    if (kinds.acl_api) out.push_back(MSPTI_ACTIVITY_KIND_ACL_API);
    if (kinds.node_api) out.push_back(MSPTI_ACTIVITY_KIND_NODE_API);
    if (kinds.runtime_api) out.push_back(MSPTI_ACTIVITY_KIND_RUNTIME_API);
    if (kinds.memory) out.push_back(MSPTI_ACTIVITY_KIND_MEMORY);
    return out;
}

const char* kind_name(msptiActivityKind kind) {
    switch (kind) {
        case MSPTI_ACTIVITY_KIND_MEMCPY: return "MEMCPY";
        case MSPTI_ACTIVITY_KIND_MEMSET: return "MEMSET";
        case MSPTI_ACTIVITY_KIND_MEMORY: return "MEMORY";
        case MSPTI_ACTIVITY_KIND_HCCL: return "HCCL";
        default: return "another";
    }
}

// Enables the kinds. CANN's profiler collects the runtime's copies and fills from the runtime's task
// reports; our msPTI's entry for libmsprofiler does the same for MEMCPY and MEMSET. MEMORY and HCCL come
// only from msPTI's interposer (MSPTI_ERROR_WITHOUT_LD_PRELOAD without it): what is refused is not
// collected, which is said once per collection (msprof --application and npu-sim run preload libmspti.so).
void enable_kinds(const KindSet& kinds, msptiResult (*enable)(msptiActivityKind)) {
    std::string refused;
    for (const msptiActivityKind kind : kinds_of(kinds)) {
        if (enable(kind) == MSPTI_ERROR_WITHOUT_LD_PRELOAD)
            refused += std::string(refused.empty() ? "" : ", ") + kind_name(kind);
    }
    if (!refused.empty()) {
        npusim::log_message(npusim::LogLevel::Warn,
                            "aclprofStart: msPTI's %s records need libmspti.so preloaded (its interposer); without it "
                            "they are not collected for this process: run it under msprof --application or npu-sim run",
                            refused.c_str());
    }
}

}  // namespace

KindSet kinds_for(uint64_t data_types) {
    constexpr uint64_t kTaskTime =
        ACL_PROF_TASK_TIME | ACL_PROF_TASK_TIME_L0 | ACL_PROF_TASK_TIME_L2 | ACL_PROF_TASK_TIME_L3;
    KindSet kinds;
    kinds.kernel = (data_types & kTaskTime) != 0;
    kinds.communication = (data_types & (kTaskTime | ACL_PROF_HCCL_TRACE)) != 0;
    kinds.acl_api = (data_types & ACL_PROF_ACL_API) != 0;
    // CANN's task-time collection carries the launch (node) records: msprof's timeline draws the
    // host-to-device flows from them.
    kinds.node_api = kinds.kernel || (data_types & (ACL_PROF_GE_API_L0 | ACL_PROF_GE_API_L1)) != 0;
    kinds.runtime_api = (data_types & ACL_PROF_RUNTIME_API) != 0;
    // Task memory (torch_npu's profile_memory=True): msprof's npu_mem is the application's device
    // memory over time, which the MEMORY records (every allocation and release) give.
    kinds.memory = (data_types & ACL_PROF_TASK_MEMORY) != 0;
    return kinds;
}

bool load_mspti(std::string* error) {
    std::lock_guard<std::mutex> lock(state_mutex());
    MsptiFunctions& fns = functions();
    if (fns.subscribe != nullptr) return true;
    const std::string dir = own_directory();
    void* handle = nullptr;
    for (const std::string& candidate :
         {dir + "/libmspti.so", dir + "/../../mspti_core/lib64/libmspti.so", std::string("libmspti.so")}) {
        handle = ::dlopen(candidate.c_str(), RTLD_NOW | RTLD_GLOBAL);
        if (handle != nullptr) break;
    }
    if (handle == nullptr) {
        *error = "libmspti.so was not found next to libmsprofiler.so nor on the library path";
        return false;
    }
    MsptiFunctions loaded;
    const bool ok =
        bind(handle, "msptiSubscribe", &loaded.subscribe) && bind(handle, "msptiUnsubscribe", &loaded.unsubscribe) &&
        bind(handle, "msptiActivityRegisterCallbacks", &loaded.register_callbacks) &&
        bind(handle, "msptiActivityEnable", &loaded.enable) && bind(handle, "msptiActivityDisable", &loaded.disable) &&
        bind(handle, "msptiActivityFlushAll", &loaded.flush_all) &&
        bind(handle, "msptiActivityGetNextRecord", &loaded.next_record) &&
        bind(handle, "msptiGetTimestamp", &loaded.timestamp);
    if (!ok) {
        *error = "libmspti.so lacks an msPTI activity function";
        return false;
    }
    bind(handle, "npusim_mspti_enable_for_msprof", &loaded.enable_for_msprof);         // optional
    bind(handle, "npusim_mspti_observe_kernel_tasks", &loaded.observe_kernel_tasks);  // optional
    bind(handle, "npusim_mspti_observe_node_info", &loaded.observe_node_info);        // optional
    fns = loaded;
    return true;
}

int start_collection(const KindSet& kinds, RecordSink sink, KernelTaskSink task_sink, bool tasks_required,
                     NodeInfoSink node_sink, std::string* error) {
    std::lock_guard<std::mutex> lock(state_mutex());
    MsptiFunctions& fns = functions();
    if (task_sink != nullptr && tasks_required && fns.observe_kernel_tasks == nullptr) {
        *error = "the loaded libmspti.so cannot report kernel task ids, which AI Core metrics need";
        return ACL_ERROR_PROFILING_FAILURE;
    }
    msptiResult rc = fns.subscribe(&g_subscriber, nullptr, nullptr);
    if (rc != MSPTI_SUCCESS) {
        g_subscriber = nullptr;
        *error = "msptiSubscribe returned " + std::to_string(rc) +
                 " (another profiler, e.g. an msPTI subscriber or npu-sim trace, holds the profiling seam)";
        return rc == MSPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED ? ACL_ERROR_PROF_API_CONFLICT
                                                                    : ACL_ERROR_PROFILING_FAILURE;
    }
    if (!fns.callbacks_registered) {
        rc = fns.register_callbacks(&request_buffer, &complete_buffer);
        if (rc != MSPTI_SUCCESS) {
            fns.unsubscribe(g_subscriber);
            g_subscriber = nullptr;
            *error = "msptiActivityRegisterCallbacks returned " + std::to_string(rc);
            return ACL_ERROR_PROFILING_FAILURE;
        }
        fns.callbacks_registered = true;
    }
    g_sink.store(sink, std::memory_order_release);
    if (fns.observe_kernel_tasks != nullptr) fns.observe_kernel_tasks(task_sink);
    if (fns.observe_node_info != nullptr) fns.observe_node_info(node_sink);
    g_kinds = kinds;
    enable_kinds(kinds, fns.enable_for_msprof != nullptr ? fns.enable_for_msprof : fns.enable);
    return ACL_SUCCESS;
}

uint64_t mspti_now() {
    std::lock_guard<std::mutex> lock(state_mutex());
    uint64_t now = 0;
    if (functions().timestamp == nullptr || functions().timestamp(&now) != MSPTI_SUCCESS) return 0;
    return now;
}

void stop_collection() {
    std::lock_guard<std::mutex> lock(state_mutex());
    MsptiFunctions& fns = functions();
    if (g_subscriber == nullptr) return;
    // Disable, unsubscribe, then flush: the flush delivers every record of the work issued.
    for (const msptiActivityKind kind : kinds_of(g_kinds)) fns.disable(kind);
    fns.unsubscribe(g_subscriber);
    g_subscriber = nullptr;
    fns.flush_all(1);
    if (fns.observe_kernel_tasks != nullptr) fns.observe_kernel_tasks(nullptr);
    if (fns.observe_node_info != nullptr) fns.observe_node_info(nullptr);
    g_sink.store(nullptr, std::memory_order_release);
}

}  // namespace npusim::msprof
