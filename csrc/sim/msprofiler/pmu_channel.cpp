#include "msprofiler/pmu_channel.h"

#include <sys/stat.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <cstring>

#include "core/platform.h"
#include "seam/device_log.h"
#include "seam/hal.h"

namespace npusim::msprof {
namespace {

// The events each metric set programs (msprof's collector, hicann/runtime 681ef76:
// src/dfx/msprof/collector/dvvp/profimpl/platform/platform_interface.h, base_analyzer.cpp and, for the
// cube cores of a chip that counts cube and vector cores apart, cloud_v2_analyzer.h; the same lists as
// sim_runtime/msprof/aicore_metrics.py). A set of fewer than eight events leaves the rest 0.
struct SetEvents {
    aclprofAicoreMetrics metrics;
    std::array<uint16_t, 8> plain;  // every core of a chip without the split; the vector cores otherwise
    std::array<uint16_t, 8> split_cube;  // the cube cores of a split chip
    size_t count;
};
constexpr std::array<uint16_t, 8> kPipeUtilization = {0x8, 0xA, 0x9, 0xB, 0xC, 0xD, 0x55, 0x54};
constexpr std::array<uint16_t, 8> kArithmetic = {0x49, 0x4a, 0x4b, 0x4c, 0x4d, 0x4e, 0x4f};
constexpr std::array<uint16_t, 8> kMemory = {0x15, 0x16, 0x31, 0x32, 0xf, 0x10, 0x12, 0x13};
constexpr std::array<uint16_t, 8> kMemoryL0 = {0x1b, 0x1c, 0x21, 0x22, 0x27, 0x28, 0x29, 0x2a};
constexpr std::array<uint16_t, 8> kResourceConflict = {0x64, 0x65, 0x66};
constexpr std::array<uint16_t, 8> kMemoryUb = {0x10, 0x13, 0x37, 0x38, 0x3d, 0x3e, 0x43, 0x44};
constexpr std::array<uint16_t, 8> kL2Cache = {0x500, 0x502, 0x504, 0x506, 0x508, 0x50a};
constexpr std::array<uint16_t, 8> kMemoryAccess = {0x32, 0x3d, 0x3e, 0x206, 0x20c, 0x50c, 0x50d, 0x50e};
constexpr SetEvents kSets[] = {
    {ACL_AICORE_PIPE_UTILIZATION, kPipeUtilization, {0x416, 0x417, 0x9, 0x302, 0xC, 0x303, 0x55, 0x54}, 8},
    {ACL_AICORE_ARITHMETIC_UTILIZATION, kArithmetic, kArithmetic, 7},
    {ACL_AICORE_MEMORY_BANDWIDTH, kMemory, kMemory, 8},
    {ACL_AICORE_L0B_AND_WIDTH, kMemoryL0, kMemoryL0, 8},
    {ACL_AICORE_RESOURCE_CONFLICT_RATIO, kResourceConflict, kResourceConflict, 3},
    {ACL_AICORE_MEMORY_UB, kMemoryUb, kMemoryUb, 8},
    {ACL_AICORE_L2_CACHE, kL2Cache, kL2Cache, 6},
    {ACL_AICORE_MEMORY_ACCESS, kMemoryAccess, kMemoryAccess, 8},
};

const SetEvents* set_events(aclprofAicoreMetrics metrics) {
    for (const SetEvents& set : kSets) {
        if (set.metrics == metrics) return &set;
    }
    return nullptr;
}

constexpr uint32_t kReadBytes = 128u * 1024;
constexpr auto kIdlePause = std::chrono::milliseconds(1);

std::string events_text(const uint16_t* events, size_t count) {
    std::string out;
    char one[16];
    for (size_t i = 0; i < count; ++i) {
        std::snprintf(one, sizeof one, "%s0x%x", i == 0 ? "" : ",", static_cast<unsigned>(events[i]));
        out += one;
    }
    return out;
}

// The programmed events the device model counts (Device::pmu_event_counted), for the export to tell a
// metric the model derives from one it does not (docs/msprof.md, "AI Core metrics").
std::string counted_text(const uint16_t* aic, const uint16_t* aiv, size_t count) {
    std::vector<uint16_t> counted;
    for (const uint16_t* events : {aic, aiv}) {
        for (size_t i = 0; i < count; ++i) {
            if (Device::pmu_event_counted(events[i]) &&
                std::find(counted.begin(), counted.end(), events[i]) == counted.end()) {
                counted.push_back(events[i]);
            }
        }
    }
    return events_text(counted.data(), counted.size());
}

}  // namespace

const char* metric_set_name(aclprofAicoreMetrics metrics) {
    switch (metrics) {
        case ACL_AICORE_ARITHMETIC_UTILIZATION: return "ArithmeticUtilization";
        case ACL_AICORE_PIPE_UTILIZATION: return "PipeUtilization";
        case ACL_AICORE_MEMORY_BANDWIDTH: return "Memory";
        case ACL_AICORE_L0B_AND_WIDTH: return "MemoryL0";
        case ACL_AICORE_RESOURCE_CONFLICT_RATIO: return "ResourceConflictRatio";
        case ACL_AICORE_MEMORY_UB: return "MemoryUB";
        case ACL_AICORE_L2_CACHE: return "L2Cache";
        case ACL_AICORE_PIPE_EXECUTE_UTILIZATION: return "PipelineExecuteUtilization";
        case ACL_AICORE_MEMORY_ACCESS: return "MemoryAccess";
        default: return "";
    }
}

size_t pmu_events(aclprofAicoreMetrics metrics, bool split, uint16_t aic[8], uint16_t aiv[8]) {
    const SetEvents* set = set_events(metrics);
    if (set == nullptr) return 0;
    std::copy(set->plain.begin(), set->plain.end(), aiv);
    const auto& cube = split ? set->split_cube : set->plain;
    std::copy(cube.begin(), cube.end(), aic);
    return set->count;
}

bool PmuChannel::start(const std::string& prof_dir, const std::vector<uint32_t>& devices, aclprofAicoreMetrics metrics,
                       std::string* error, std::string* warning) {
    stop();
    if (metrics == ACL_AICORE_NONE) return true;
    const std::string name = metric_set_name(metrics);
    std::vector<uint32_t> counted;  // devices whose model writes ContextPmu records
    for (uint32_t device : devices) {
        const Device* dev = Platform::instance().device(device);
        if (dev != nullptr && !dev->wide_task_ids()) counted.push_back(device);
    }
    uint16_t aic[8];
    uint16_t aiv[8];
    if (pmu_events(metrics, true, aic, aiv) == 0) {
        *warning = "AI Core metrics " + (name.empty() ? std::to_string(static_cast<int>(metrics)) : name) +
                   " are not modelled: none is collected (docs/msprof.md)";
        return true;
    }
    if (counted.size() != devices.size()) {
        *warning = "AI Core metrics are not modelled on chip type 15: none is collected for its devices";
    }
    for (uint32_t device : counted) {
        const SocSpec& soc = Platform::instance().device(device)->soc();
        FftsProfileConfig config{};
        const size_t count = pmu_events(metrics, soc.aiv > 0, config.aicEvents, config.aivEvents);
        const std::string dir = prof_dir + "/device_" + std::to_string(device);
        const std::string data = dir + "/data";
        if (::mkdir(data.c_str(), 0750) != 0 && errno != EEXIST) {
            *error = "cannot create " + data + ": " + std::strerror(errno);
            stop();
            return false;
        }
        {
            std::unique_ptr<std::FILE, FileCloser> sample(std::fopen((dir + "/sample.json").c_str(), "w"));
            if (sample == nullptr) {
                *error = "cannot write " + dir + "/sample.json: " + std::strerror(errno);
                stop();
                return false;
            }
            std::fprintf(sample.get(),
                         "{\"ai_core_metrics\": \"%s\", \"ai_core_profiling_events\": \"%s\", "
                         "\"aiv_metrics\": \"%s\", \"aiv_profiling_events\": \"%s\", "
                         "\"npu_sim_counted_events\": \"%s\"}\n",
                         name.c_str(), events_text(config.aicEvents, count).c_str(), name.c_str(),
                         events_text(config.aivEvents, count).c_str(),
                         counted_text(config.aicEvents, config.aivEvents, count).c_str());
        }
        const std::string file = data + "/ffts_profile.data." + std::to_string(device) + ".slice_0";
        Sink sink;
        sink.device = device;
        sink.file.reset(std::fopen(file.c_str(), "wb"));
        if (sink.file == nullptr) {
            *error = "cannot write " + file + ": " + std::strerror(errno);
            stop();
            return false;
        }
        prof_start_para_t para{};
        para.channel_type = PROF_TS_TYPE;
        para.user_data = &config;
        para.user_data_size = sizeof config;
        const int rc = prof_drv_start(device, PROF_CHANNEL_FFTS_PROFILE, &para);
        if (rc != PROF_OK) {
            *error = "prof_drv_start(device " + std::to_string(device) + ", channel 53) returned " + std::to_string(rc);
            stop();
            return false;
        }
        sinks_.push_back(std::move(sink));
    }
    buffer_.resize(kReadBytes);
    running_.store(true, std::memory_order_release);
    reader_ = std::thread([this] { run(); });
    return true;
}

size_t PmuChannel::drain() {
    size_t total = 0;
    for (Sink& sink : sinks_) {
        for (;;) {
            const int n = prof_channel_read(sink.device, PROF_CHANNEL_FFTS_PROFILE, buffer_.data(),
                                            static_cast<unsigned int>(buffer_.size()));
            if (n <= 0) break;
            std::fwrite(buffer_.data(), 1, static_cast<size_t>(n), sink.file.get());
            total += static_cast<size_t>(n);
        }
    }
    return total;
}

void PmuChannel::run() {
    // Polls with the other readers of the driver (msPTI's): reads this channel when the driver says
    // something is readable, and pauses when what is readable is another reader's.
    prof_poll_info_t infos[16];
    while (running_.load(std::memory_order_acquire)) {
        const int n = prof_channel_poll(infos, 16, 1);
        if (!running_.load(std::memory_order_acquire)) break;
        bool ours = false;
        for (int i = 0; i < n && i < 16; ++i) ours = ours || infos[i].channel_id == PROF_CHANNEL_FFTS_PROFILE;
        if (!ours || drain() == 0) std::this_thread::sleep_for(kIdlePause);
    }
}

void PmuChannel::stop() {
    if (sinks_.empty()) return;
    for (const Sink& sink : sinks_) prof_stop(sink.device, PROF_CHANNEL_FFTS_PROFILE);
    running_.store(false, std::memory_order_release);
    if (reader_.joinable()) reader_.join();
    drain();  // stopped: everything the device wrote is readable
    sinks_.clear();
}

}  // namespace npusim::msprof
