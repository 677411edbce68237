// libmsprofiler's collection API (acl/acl_prof.h): aclprofInit, aclprofCreateConfig,
// aclprofSetConfig, aclprofStart, aclprofStop, aclprofDestroyConfig, aclprofFinalize.
//
// aclprofInit names the folder; each aclprofStart .. aclprofStop writes one PROF_* directory into
// it (prof_dir.h) with the msPTI records of that interval (mspti_source.h). The toolkit's msprof
// command exports them (docs/msprof.md). What the data-type switches select is kinds_for();
// a config's AI Core metric set starts the device's PMU channel (pmu_channel.h). Each function has a
// fault point (docs/reliability.md): a fault plan's error=CODE makes the call return CODE (NULL for
// aclprofCreateConfig) before it does anything.
#include <sys/stat.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "acl/acl_prof.h"
#include "core/fault_plan.h"
#include "core/log.h"
#include "core/memory.h"
#include "core/platform.h"
#include "msprofiler/application.h"
#include "msprofiler/mspti_source.h"
#include "msprofiler/pmu_channel.h"
#include "msprofiler/prof_dir.h"

struct aclprofConfig {
    std::vector<uint32_t> devices;
    aclprofAicoreMetrics metrics = ACL_AICORE_NONE;
    uint64_t data_types = 0;
};

namespace {

constexpr size_t kMaxPathLength = 4096;

struct ProfilerState {
    std::mutex mutex;
    bool initialised = false;
    bool application = false;  // initialised by msprof's application mode (application.h)
    std::string path;
    std::map<const aclprofConfig*, std::unique_ptr<aclprofConfig>> configs;
    const aclprofConfig* running = nullptr;
    std::unique_ptr<npusim::msprof::ProfDir> dir;
    npusim::msprof::PmuChannel pmu;  // AI Core metrics of the running collection
    std::map<int, std::string> options;  // aclprofSetConfig: kept, not acted on
};

// Never destroyed: msPTI may deliver a buffer from its reader thread while the process exits.
ProfilerState& state() {
    static auto* s = new ProfilerState();
    return *s;
}

// The sink msPTI's buffers are emptied into; `dir` stays alive until the collection stopped.
// (msPTI calls the sink on its delivering thread.)
std::atomic<npusim::msprof::ProfDir*> g_dir{nullptr};
void sink(const void* record) {
    npusim::msprof::ProfDir* dir = g_dir.load(std::memory_order_acquire);
    if (dir != nullptr) dir->write_record(record);
}
void task_sink(const void* kernel_record, uint32_t task_id, uint64_t start_count, uint64_t end_count,
               uint32_t block_dim) {
    npusim::msprof::ProfDir* dir = g_dir.load(std::memory_order_acquire);
    if (dir != nullptr) dir->write_kernel_task(kernel_record, task_id, start_count, end_count, block_dim);
}

void node_sink(uint32_t thread_id, uint64_t time, uint32_t block_dim, uint32_t task_type) {
    npusim::msprof::ProfDir* dir = g_dir.load(std::memory_order_acquire);
    if (dir != nullptr) dir->write_node_info(thread_id, time, block_dim, task_type);
}

aclError fail(aclError code, const std::string& message) {
    npusim::log_message(npusim::LogLevel::Error, "%s", message.c_str());
    return code;
}

// Task memory: the device memory the process holds on each profiled device now (the simulator's
// own accounting), which npu_mem starts and ends with; the MEMORY records give the changes between.
void write_memory_in_use(const ProfilerState& s) {
    if (s.running == nullptr || !npusim::msprof::kinds_for(s.running->data_types).memory) return;
    const uint64_t now = npusim::msprof::mspti_now();
    for (const uint32_t device : s.running->devices) {
        s.dir->write_memory_in_use(
            device, now, npusim::Platform::instance().memory().bytes_in_use(device, npusim::MemoryKind::Device));
    }
}

aclError stop_locked(ProfilerState& s) {
    write_memory_in_use(s);
    npusim::msprof::stop_collection();
    s.pmu.stop();
    g_dir.store(nullptr, std::memory_order_release);
    s.dir->finish();
    npusim::log_message(npusim::LogLevel::Info, "aclprofStop: wrote %s", s.dir->path().c_str());
    s.dir.reset();
    s.running = nullptr;
    return ACL_SUCCESS;
}

}  // namespace

extern "C" {

aclError aclprofInit(const char* profilerResultPath, size_t length) {
    NPUSIM_FAULT_RETURN("aclprofInit", aclError);
    ProfilerState& s = state();
    std::lock_guard<std::mutex> lock(s.mutex);
    if (s.initialised && s.application) {
        return fail(ACL_ERROR_PROF_API_CONFLICT, "aclprofInit: msprof --application is collecting this process");
    }
    if (s.initialised)
        return fail(ACL_ERROR_REPEAT_INITIALIZE, "aclprofInit: already initialised; call aclprofFinalize first");
    if (profilerResultPath == nullptr || length == 0 || length > kMaxPathLength ||
        ::strnlen(profilerResultPath, length + 1) != length) {
        return fail(ACL_ERROR_INVALID_PARAM,
                    "aclprofInit: the path must be a non-empty string of at most 4096 bytes whose length is given");
    }
    std::string path(profilerResultPath, length);
    struct stat info{};
    if (::stat(path.c_str(), &info) != 0) {
        if (::mkdir(path.c_str(), 0750) != 0) {
            return fail(ACL_ERROR_INVALID_PARAM, "aclprofInit: cannot create " + path + ": " + std::strerror(errno));
        }
    } else if (!S_ISDIR(info.st_mode)) {
        return fail(ACL_ERROR_INVALID_PARAM, "aclprofInit: " + path + " is not a directory");
    }
    std::string error;
    if (!npusim::msprof::load_mspti(&error)) return fail(ACL_ERROR_PROFILING_FAILURE, "aclprofInit: " + error);
    s.path = path;
    s.initialised = true;
    return ACL_SUCCESS;
}

aclprofConfig* aclprofCreateConfig(uint32_t* deviceIdList, uint32_t deviceNums, aclprofAicoreMetrics aicoreMetrics,
                                   const aclprofAicoreEvents* aicoreEvents, uint64_t dataTypeConfig) {
    if (NPUSIM_FAULT("aclprofCreateConfig").fail) return nullptr;
    ProfilerState& s = state();
    std::lock_guard<std::mutex> lock(s.mutex);
    if ((deviceNums > 0 && deviceIdList == nullptr) || aicoreEvents != nullptr) {
        fail(ACL_ERROR_INVALID_PARAM, "aclprofCreateConfig: deviceIdList is NULL or aicoreEvents is not NULL");
        return nullptr;
    }
    const uint32_t available = npusim::Platform::instance().device_count();
    auto config = std::make_unique<aclprofConfig>();
    for (uint32_t i = 0; i < deviceNums; ++i) {
        const uint32_t device = deviceIdList[i];
        bool repeated = false;
        for (uint32_t seen : config->devices) repeated = repeated || seen == device;
        if (device >= available || repeated) {
            fail(ACL_ERROR_INVALID_PARAM, "aclprofCreateConfig: device " + std::to_string(device) +
                                              (repeated ? " is listed twice" : " does not exist"));
            return nullptr;
        }
        config->devices.push_back(device);
    }
    if (aicoreMetrics > ACL_AICORE_MEMORY_ACCESS && aicoreMetrics != ACL_AICORE_NONE) {
        fail(ACL_ERROR_INVALID_PARAM, "aclprofCreateConfig: aicoreMetrics " + std::to_string(aicoreMetrics) +
                                          " is not an aclprofAicoreMetrics value");
        return nullptr;
    }
    config->metrics = aicoreMetrics;
    config->data_types = dataTypeConfig;
    aclprofConfig* handle = config.get();
    s.configs.emplace(handle, std::move(config));
    return handle;
}

aclError aclprofDestroyConfig(const aclprofConfig* profilerConfig) {
    NPUSIM_FAULT_RETURN("aclprofDestroyConfig", aclError);
    ProfilerState& s = state();
    std::lock_guard<std::mutex> lock(s.mutex);
    auto it = s.configs.find(profilerConfig);
    if (it == s.configs.end())
        return fail(ACL_ERROR_INVALID_PARAM, "aclprofDestroyConfig: not a config of aclprofCreateConfig");
    if (s.running == profilerConfig)
        return fail(ACL_ERROR_PROF_ALREADY_RUN,
                    "aclprofDestroyConfig: the config is collecting; call aclprofStop first");
    s.configs.erase(it);
    return ACL_SUCCESS;
}

aclError aclprofSetConfig(aclprofConfigType configType, const char* config, size_t configLength) {
    NPUSIM_FAULT_RETURN("aclprofSetConfig", aclError);
    ProfilerState& s = state();
    std::lock_guard<std::mutex> lock(s.mutex);
    if (configType <= ACL_PROF_ARGS_MIN || configType >= ACL_PROF_ARGS_MAX || config == nullptr || configLength == 0 ||
        configLength > kMaxPathLength || ::strnlen(config, configLength + 1) != configLength) {
        return fail(ACL_ERROR_INVALID_PARAM,
                    "aclprofSetConfig: unknown option or value not a string of the given length");
    }
    s.options[static_cast<int>(configType)] = std::string(config, configLength);
    return ACL_SUCCESS;
}

aclError aclprofStart(const aclprofConfig* profilerConfig) {
    NPUSIM_FAULT_RETURN("aclprofStart", aclError);
    ProfilerState& s = state();
    std::lock_guard<std::mutex> lock(s.mutex);
    if (!s.initialised) return fail(ACL_ERROR_UNINITIALIZE, "aclprofStart: call aclprofInit first");
    if (s.configs.find(profilerConfig) == s.configs.end()) {
        return fail(ACL_ERROR_INVALID_PARAM, "aclprofStart: not a config of aclprofCreateConfig");
    }
    if (s.running != nullptr) return fail(ACL_ERROR_PROF_ALREADY_RUN, "aclprofStart: a collection is running");
    auto dir = std::make_unique<npusim::msprof::ProfDir>();
    std::string error;
    if (!dir->create(s.path, profilerConfig->devices, profilerConfig->data_types,
                     static_cast<uint32_t>(profilerConfig->metrics), &error)) {
        return fail(ACL_ERROR_PROFILING_FAILURE, "aclprofStart: " + error);
    }
    std::string warning;
    if (!s.pmu.start(dir->path(), profilerConfig->devices, profilerConfig->metrics, &error, &warning)) {
        return fail(ACL_ERROR_PROFILING_FAILURE, "aclprofStart: " + error);
    }
    if (!warning.empty()) npusim::log_message(npusim::LogLevel::Warn, "aclprofStart: %s", warning.c_str());
    g_dir.store(dir.get(), std::memory_order_release);
    const bool metrics = profilerConfig->metrics != ACL_AICORE_NONE;
    const npusim::msprof::KindSet kinds = npusim::msprof::kinds_for(profilerConfig->data_types);
    // Each kernel's task (its track's task id and blockDim: Task ID and Block Num) with task time; AI
    // Core metrics cannot do without it. The node basic info joins a kernel to its node launch: only
    // with both collected.
    const bool node_info = kinds.kernel && kinds.node_api;
    const int rc = npusim::msprof::start_collection(kinds, &sink, kinds.kernel || metrics ? &task_sink : nullptr,
                                                    metrics, node_info ? &node_sink : nullptr, &error);
    if (rc != ACL_SUCCESS) {
        s.pmu.stop();
        g_dir.store(nullptr, std::memory_order_release);
        return fail(rc, "aclprofStart: " + error);
    }
    s.dir = std::move(dir);
    s.running = profilerConfig;
    write_memory_in_use(s);
    return ACL_SUCCESS;
}

aclError aclprofStop(const aclprofConfig* profilerConfig) {
    NPUSIM_FAULT_RETURN("aclprofStop", aclError);
    ProfilerState& s = state();
    std::lock_guard<std::mutex> lock(s.mutex);
    if (s.configs.find(profilerConfig) == s.configs.end()) {
        return fail(ACL_ERROR_INVALID_PARAM, "aclprofStop: not a config of aclprofCreateConfig");
    }
    if (s.running != profilerConfig) return fail(ACL_ERROR_PROF_NOT_RUN, "aclprofStop: this config is not collecting");
    return stop_locked(s);
}

aclError aclprofFinalize(void) {
    NPUSIM_FAULT_RETURN("aclprofFinalize", aclError);
    ProfilerState& s = state();
    std::lock_guard<std::mutex> lock(s.mutex);
    if (!s.initialised) return fail(ACL_ERROR_UNINITIALIZE, "aclprofFinalize: call aclprofInit first");
    if (s.running != nullptr) stop_locked(s);
    s.initialised = false;
    s.application = false;
    s.path.clear();
    return ACL_SUCCESS;
}

}  // extern "C"

namespace {

aclprofConfig* g_application_config = nullptr;

void stop_application() {
    if (g_application_config == nullptr) return;
    aclprofStop(g_application_config);
    aclprofDestroyConfig(g_application_config);
    aclprofFinalize();
    g_application_config = nullptr;
}

}  // namespace

void npusim_msprof_on_acl_init(void) {
    const char* output = std::getenv("NPU_SIM_MSPROF_OUTPUT");
    if (output == nullptr || *output == '\0' || g_application_config != nullptr) return;
    const char* types = std::getenv("NPU_SIM_MSPROF_DATA_TYPES");
    const uint64_t data_types = types != nullptr && *types != '\0'
                                    ? std::strtoull(types, nullptr, 0)
                                    : (ACL_PROF_ACL_API | ACL_PROF_TASK_TIME | ACL_PROF_HCCL_TRACE);
    // msprof's --ai-core / --aic-metrics (an aclprofAicoreMetrics value; none when unset).
    const char* metrics_text = std::getenv("NPU_SIM_MSPROF_AIC_METRICS");
    const auto metrics = static_cast<aclprofAicoreMetrics>(metrics_text != nullptr && *metrics_text != '\0'
                                                               ? std::strtoul(metrics_text, nullptr, 0)
                                                               : static_cast<unsigned long>(ACL_AICORE_NONE));
    std::vector<uint32_t> devices(npusim::Platform::instance().device_count());
    for (uint32_t i = 0; i < devices.size(); ++i) devices[i] = i;
    if (aclprofInit(output, std::strlen(output)) != ACL_SUCCESS) return;
    aclprofConfig* config =
        aclprofCreateConfig(devices.data(), static_cast<uint32_t>(devices.size()), metrics, nullptr, data_types);
    if (config == nullptr || aclprofStart(config) != ACL_SUCCESS) {
        if (config != nullptr) aclprofDestroyConfig(config);
        aclprofFinalize();
        return;
    }
    g_application_config = config;
    {
        ProfilerState& s = state();
        std::lock_guard<std::mutex> lock(s.mutex);
        s.application = true;
    }
    std::atexit(stop_application);
}
