#include "msprofiler/pmu_channel.h"

#include <sys/stat.h>

#include <cerrno>
#include <chrono>
#include <cstring>

#include "core/platform.h"
#include "seam/device_log.h"
#include "seam/hal.h"

namespace npusim::msprof {
namespace {

// msprof's PipeUtilization events (Ascend/msprof 9ba1ac7, pipeut_calculator.h and
// pipeutext_calculator.h; the same lists as sim_runtime/msprof/aicore_metrics.py): the plain set,
// and the cube cores' extended set of a chip that counts cube and vector cores apart.
constexpr uint16_t kPipeUtilization[8] = {0x8, 0xA, 0x9, 0xB, 0xC, 0xD, 0x55, 0x54};
constexpr uint16_t kPipeUtilizationExct[8] = {0x416, 0x417, 0x9, 0x302, 0xC, 0x303, 0x55, 0x54};

constexpr uint32_t kReadBytes = 128u * 1024;
constexpr auto kIdlePause = std::chrono::milliseconds(1);

std::string events_text(const uint16_t events[8]) {
    std::string out;
    char one[16];
    for (int i = 0; i < 8; ++i) {
        std::snprintf(one, sizeof one, "%s0x%x", i == 0 ? "" : ",", static_cast<unsigned>(events[i]));
        out += one;
    }
    return out;
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

bool pmu_events(aclprofAicoreMetrics metrics, bool split, uint16_t aic[8], uint16_t aiv[8]) {
    if (metrics != ACL_AICORE_PIPE_UTILIZATION) return false;
    std::memcpy(aic, split ? kPipeUtilizationExct : kPipeUtilization, sizeof kPipeUtilization);
    std::memcpy(aiv, kPipeUtilization, sizeof kPipeUtilization);
    return true;
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
    if (!pmu_events(metrics, true, aic, aiv)) {
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
        pmu_events(metrics, soc.aiv > 0, config.aicEvents, config.aivEvents);
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
                         "\"aiv_metrics\": \"%s\", \"aiv_profiling_events\": \"%s\"}\n",
                         name.c_str(), events_text(config.aicEvents).c_str(), name.c_str(),
                         events_text(config.aivEvents).c_str());
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
