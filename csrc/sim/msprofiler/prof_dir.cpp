#include "msprofiler/prof_dir.h"

#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cinttypes>
#include <cstring>
#include <ctime>

#include "core/clock.h"
#include "core/platform.h"
#include "mspti/mspti.h"
#include "text/json_string.h"

namespace npusim::msprof {
namespace {

using text::json_string;

bool make_dir(const std::string& path, std::string* error) {
    if (::mkdir(path.c_str(), 0750) == 0 || errno == EEXIST) return true;
    *error = "cannot create " + path + ": " + std::strerror(errno);
    return false;
}

// The wall time (us) and the simulator's host clock (ns) of one moment, as CANN's start_info and
// end_info give them: torch_npu maps host-clock times to wall time with their difference.
struct Moment {
    uint64_t wall_us;
    uint64_t clock_ns;
    std::string date;
};

Moment now_moment() {
    timespec wall{};
    ::clock_gettime(CLOCK_REALTIME, &wall);
    Moment moment{static_cast<uint64_t>(wall.tv_sec) * 1000000u + static_cast<uint64_t>(wall.tv_nsec) / 1000u,
                  Clock::instance().now(),
                  {}};
    tm local{};
    ::localtime_r(&wall.tv_sec, &local);
    char date[64];
    std::strftime(date, sizeof(date), "%Y-%m-%d %H:%M:%S", &local);
    char micro[24];
    std::snprintf(micro, sizeof(micro), ".%06ld", static_cast<long>(wall.tv_nsec / 1000));
    moment.date = std::string(date) + micro;
    return moment;
}

std::string directory_name() {
    static std::atomic<uint32_t> sequence{0};
    timespec wall{};
    ::clock_gettime(CLOCK_REALTIME, &wall);
    tm local{};
    ::localtime_r(&wall.tv_sec, &local);
    char stamp[32];
    std::strftime(stamp, sizeof(stamp), "%Y%m%d%H%M%S", &local);
    const uint32_t id = sequence.fetch_add(1) + 1;
    // 16 letters from the pid, the time and the sequence number: distinct per process and start.
    uint64_t seed = (static_cast<uint64_t>(::getpid()) << 32) ^ static_cast<uint64_t>(wall.tv_nsec) ^ id;
    std::string letters;
    for (int i = 0; i < 16; ++i) {
        seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
        letters.push_back(static_cast<char>('A' + (seed >> 33) % 26));
    }
    char name[96];
    std::snprintf(name, sizeof(name), "PROF_%06u_%s%03ld_%s", id, stamp,
                  static_cast<long>(wall.tv_nsec / 1000000) % 1000, letters.c_str());
    return name;
}

const char* api_kind_name(msptiActivityKind kind) {
    switch (kind) {
        case MSPTI_ACTIVITY_KIND_ACL_API: return "acl_api";
        case MSPTI_ACTIVITY_KIND_NODE_API: return "node_api";
        case MSPTI_ACTIVITY_KIND_RUNTIME_API: return "runtime_api";
        default: return "api";
    }
}

std::string record_line(const void* data) {
    const auto kind = static_cast<const msptiActivity*>(data)->kind;
    char head[512];
    switch (kind) {
        case MSPTI_ACTIVITY_KIND_KERNEL: {
            const auto* r = static_cast<const msptiActivityKernel*>(data);
            std::snprintf(head, sizeof(head),
                          "{\"kind\":\"kernel\",\"start\":%" PRIu64 ",\"end\":%" PRIu64
                          ",\"device\":%u,\"stream\":%u,"
                          "\"correlation\":%" PRIu64 ",\"type\":",
                          r->start, r->end, r->ds.deviceId, r->ds.streamId, r->correlationId);
            return head + json_string(r->type) + ",\"name\":" + json_string(r->name) + "}\n";
        }
        case MSPTI_ACTIVITY_KIND_API:
        case MSPTI_ACTIVITY_KIND_ACL_API:
        case MSPTI_ACTIVITY_KIND_NODE_API:
        case MSPTI_ACTIVITY_KIND_RUNTIME_API: {
            const auto* r = static_cast<const msptiActivityApi*>(data);
            std::snprintf(head, sizeof(head),
                          "{\"kind\":\"%s\",\"start\":%" PRIu64 ",\"end\":%" PRIu64
                          ",\"pid\":%u,\"tid\":%u,"
                          "\"correlation\":%" PRIu64 ",\"name\":",
                          api_kind_name(kind), r->start, r->end, r->pt.processId, r->pt.threadId, r->correlationId);
            return head + json_string(r->name) + "}\n";
        }
        case MSPTI_ACTIVITY_KIND_MEMCPY: {
            const auto* r = static_cast<const msptiActivityMemcpy*>(data);
            std::snprintf(head, sizeof(head),
                          "{\"kind\":\"memcpy\",\"start\":%" PRIu64 ",\"end\":%" PRIu64
                          ",\"device\":%u,\"stream\":%u,"
                          "\"correlation\":%" PRIu64 ",\"copy_kind\":%d,\"bytes\":%" PRIu64 ",\"async\":%u}\n",
                          r->start, r->end, r->deviceId, r->streamId, r->correlationId, static_cast<int>(r->copyKind),
                          r->bytes, static_cast<unsigned>(r->isAsync));
            return head;
        }
        case MSPTI_ACTIVITY_KIND_MEMSET: {
            const auto* r = static_cast<const msptiActivityMemset*>(data);
            std::snprintf(head, sizeof(head),
                          "{\"kind\":\"memset\",\"start\":%" PRIu64 ",\"end\":%" PRIu64
                          ",\"device\":%u,\"stream\":%u,"
                          "\"correlation\":%" PRIu64 ",\"value\":%u,\"bytes\":%" PRIu64 ",\"async\":%u}\n",
                          r->start, r->end, r->deviceId, r->streamId, r->correlationId, r->value, r->bytes,
                          static_cast<unsigned>(r->isAsync));
            return head;
        }
        case MSPTI_ACTIVITY_KIND_MEMORY: {
            const auto* r = static_cast<const msptiActivityMemory*>(data);
            std::snprintf(head, sizeof(head),
                          "{\"kind\":\"memory\",\"start\":%" PRIu64 ",\"end\":%" PRIu64
                          ",\"device\":%u,\"stream\":%u,"
                          "\"correlation\":%" PRIu64 ",\"operation\":%d,\"memory_kind\":%d,\"address\":%" PRIu64
                          ",\"bytes\":%" PRIu64 ",\"pid\":%u}\n",
                          r->start, r->end, r->deviceId, r->streamId, r->correlationId,
                          static_cast<int>(r->memoryOperationType), static_cast<int>(r->memoryKind), r->address,
                          r->bytes, r->processId);
            return head;
        }
        case MSPTI_ACTIVITY_KIND_HCCL: {
            const auto* r = static_cast<const msptiActivityHccl*>(data);
            std::snprintf(head, sizeof(head),
                          "{\"kind\":\"hccl\",\"start\":%" PRIu64 ",\"end\":%" PRIu64
                          ",\"device\":%u,\"stream\":%u,"
                          "\"bandwidth\":%.6f,\"name\":",
                          r->start, r->end, r->ds.deviceId, r->ds.streamId, r->bandWidth);
            return head + json_string(r->name) + ",\"comm\":" + json_string(r->commName) + "}\n";
        }
        case MSPTI_ACTIVITY_KIND_COMMUNICATION: {
            const auto* r = static_cast<const msptiActivityCommunication*>(data);
            std::snprintf(head, sizeof(head),
                          "{\"kind\":\"communication\",\"start\":%" PRIu64 ",\"end\":%" PRIu64
                          ",\"device\":%u,"
                          "\"stream\":%u,\"correlation\":%" PRIu64 ",\"data_type\":%d,\"count\":%" PRIu64 ",\"alg\":",
                          r->start, r->end, r->ds.deviceId, r->ds.streamId, r->correlationId,
                          static_cast<int>(r->dataType), r->count);
            return head + json_string(r->algType) + ",\"name\":" + json_string(r->name) +
                   ",\"comm\":" + json_string(r->commName) + "}\n";
        }
        default: return {};
    }
}

}  // namespace

bool ProfDir::create(const std::string& parent, const std::vector<uint32_t>& devices, uint64_t data_types,
                     uint32_t aicore_metrics, std::string* error) {
    path_ = parent + "/" + directory_name();
    devices_ = devices;
    if (!make_dir(path_, error) || !make_dir(path_ + "/host", error) || !make_dir(path_ + "/host/data", error)) {
        return false;
    }
    for (uint32_t device : devices_) {
        if (!make_dir(path_ + "/device_" + std::to_string(device), error)) return false;
    }
    write_times("start");
    if (!write_device_info(error)) return false;
    std::unique_ptr<std::FILE, FileCloser> collection(std::fopen((path_ + "/host/data/collection.json").c_str(), "w"));
    if (collection == nullptr) {
        *error = "cannot write " + path_ + "/host/data/collection.json: " + std::strerror(errno);
        return false;
    }
    std::string device_list;
    for (uint32_t device : devices_) device_list += (device_list.empty() ? "" : ",") + std::to_string(device);
    std::fprintf(collection.get(),
                 "{\"format\":\"npu-sim msprof raw 1\",\"pid\":%d,\"devices\":[%s],\"data_types\":%" PRIu64
                 ",\"aicore_metrics\":%u}\n",
                 static_cast<int>(::getpid()), device_list.c_str(), data_types, aicore_metrics);
    records_.reset(std::fopen((path_ + "/host/data/mspti_records.jsonl").c_str(), "w"));
    if (records_ == nullptr) {
        *error = "cannot write " + path_ + "/host/data/mspti_records.jsonl: " + std::strerror(errno);
        return false;
    }
    return true;
}

void ProfDir::write_record(const void* record) {
    const std::string line = record_line(record);
    if (line.empty()) return;
    std::lock_guard<std::mutex> lock(mutex_);
    if (records_ == nullptr) return;
    std::fwrite(line.data(), 1, line.size(), records_.get());
    ++written_;
}

void ProfDir::write_kernel_task(const void* kernel_record, uint32_t task_id, uint64_t start_count, uint64_t end_count,
                                uint32_t block_dim) {
    const auto* r = static_cast<const msptiActivityKernel*>(kernel_record);
    char line[352];
    const int n = std::snprintf(
        line, sizeof(line),
        "{\"kind\":\"kernel_task\",\"start\":%" PRIu64 ",\"end\":%" PRIu64
        ",\"device\":%u,\"stream\":%u,\"correlation\":%" PRIu64 ",\"task\":%u,\"start_count\":%" PRIu64
        ",\"end_count\":%" PRIu64 ",\"block_dim\":%u}\n",
        r->start, r->end, r->ds.deviceId, r->ds.streamId, r->correlationId, task_id, start_count, end_count, block_dim);
    std::lock_guard<std::mutex> lock(mutex_);
    if (records_ == nullptr || n <= 0) return;
    std::fwrite(line, 1, static_cast<size_t>(n), records_.get());
    ++written_;
}

void ProfDir::write_node_info(uint32_t thread_id, uint64_t time_ns, uint32_t block_dim, uint32_t task_type) {
    char line[192];
    const int n = std::snprintf(line, sizeof(line),
                                "{\"kind\":\"node_info\",\"start\":%" PRIu64 ",\"end\":%" PRIu64
                                ",\"tid\":%u,\"block_dim\":%u,\"task_type\":%u}\n",
                                time_ns, time_ns, thread_id, block_dim, task_type);
    std::lock_guard<std::mutex> lock(mutex_);
    if (records_ == nullptr || n <= 0) return;
    std::fwrite(line, 1, static_cast<size_t>(n), records_.get());
    ++written_;
}

void ProfDir::write_memory_in_use(uint32_t device, uint64_t time_ns, uint64_t bytes) {
    char line[192];
    const int n = std::snprintf(line, sizeof(line),
                                "{\"kind\":\"memory_in_use\",\"start\":%" PRIu64 ",\"end\":%" PRIu64
                                ",\"device\":%u,\"bytes\":%" PRIu64 "}\n",
                                time_ns, time_ns, device, bytes);
    std::lock_guard<std::mutex> lock(mutex_);
    if (records_ == nullptr || n <= 0) return;
    std::fwrite(line, 1, static_cast<size_t>(n), records_.get());
    ++written_;
}

void ProfDir::finish() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        records_.reset();
    }
    write_times("end");
}

bool ProfDir::write_device_info(std::string* error) const {
    // device_<n>/info.json.<n>: the device's SoC as CANN's collection describes it (the keys msprof's
    // analysis reads: platform_version, the chip type its NPU_INFO names; DeviceInfo's core counts and
    // frequencies in MHz, hwts_frequency the device counter's). Values from the simulated SoC.
    for (uint32_t device : devices_) {
        const Device* dev = Platform::instance().device(device);
        if (dev == nullptr) continue;
        const SocSpec& soc = dev->soc();
        const std::string file = path_ + "/device_" + std::to_string(device) + "/info.json." + std::to_string(device);
        std::unique_ptr<std::FILE, FileCloser> out(std::fopen(file.c_str(), "w"));
        if (out == nullptr) {
            *error = "cannot write " + file + ": " + std::strerror(errno);
            return false;
        }
        std::fprintf(
            out.get(),
            "{\"jobInfo\": \"NA\", \"devices\": \"%u\", \"DeviceInfo\": [{\"id\": %u, \"ai_cpu_core_num\": %u, "
            "\"ai_core_num\": %u, \"aiv_num\": %u, \"hwts_frequency\": \"%" PRId64
            "\", \"aic_frequency\": \"%u\", \"aiv_frequency\": \"%u\"}], \"platform_version\": \"%u\", "
            "\"pid\": \"%d\"}\n",
            device, device, soc.aicpu, soc.aic, soc.aiv, soc.dev_osc_khz / 1000, soc.cube_mhz, soc.cube_mhz,
            soc.chip_type, static_cast<int>(::getpid()));
    }
    return true;
}

void ProfDir::write_times(const std::string& name) const {
    const Moment moment = now_moment();
    const bool start = name == "start";
    char text[256];
    std::snprintf(text, sizeof(text),
                  "{\"collectionDate%s\": \"%s\", \"collectionTime%s\": \"%" PRIu64
                  "\", \"clockMonotonicRaw\": \"%" PRIu64 "\"}\n",
                  start ? "Begin" : "End", moment.date.c_str(), start ? "Begin" : "End", moment.wall_us,
                  moment.clock_ns);
    std::vector<std::string> files{path_ + "/host/" + name + "_info"};
    for (uint32_t device : devices_) {
        files.push_back(path_ + "/device_" + std::to_string(device) + "/" + name + "_info." + std::to_string(device));
    }
    for (const std::string& file : files) {
        std::unique_ptr<std::FILE, FileCloser> out(std::fopen(file.c_str(), "w"));
        if (out != nullptr) std::fputs(text, out.get());
    }
}

}  // namespace npusim::msprof
