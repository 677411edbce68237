// The PROF_* directory one aclprofStart..aclprofStop collection writes, in the layout CANN's
// msprof and torch_npu look for:
//
//   PROF_<6-digit id>_<YYYYMMDDhhmmssmmm>_<16 letters>/
//     host/start_info, host/end_info        collection begin/end: wall time (us) and the host
//                                           clock (ns) read at the same moment, as CANN writes them
//     host/data/mspti_records.jsonl         our raw data: one JSON object per msPTI record (and,
//                                           with task time, each kernel's task id and blockDim)
//     device_<id>/data/ffts_profile.data.<id>.slice_0, device_<id>/sample.json   AI Core metrics
//                                           (pmu_channel.h)
//     device_<id>/start_info.<id>, end_info.<id>   the same times, one folder per profiled device
//     device_<id>/info.json.<id>            the device's SoC: chip type, core counts, frequencies
//
// The raw data file's format (docs/msprof.md) is ours; the toolkit's msprof command reads it.
#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace npusim::msprof {

struct FileCloser {
    void operator()(std::FILE* file) const { std::fclose(file); }
};

class ProfDir {
public:
    // Creates the directory under `parent`; false with `error` set when it cannot.
    bool create(const std::string& parent, const std::vector<uint32_t>& devices, uint64_t data_types,
                uint32_t aicore_metrics, std::string* error);
    // Appends one msPTI record (any kind; kinds we do not export are skipped).
    void write_record(const void* record);
    // Appends the task a KERNEL record was matched on (its stream's task id and device counts): the
    // key that joins the kernel to its AI Core PMU records; and the blockDim its task track reported
    // (0: none), the kernel's Block Num.
    void write_kernel_task(const void* kernel_record, uint32_t task_id, uint64_t start_count, uint64_t end_count,
                           uint32_t block_dim);
    // Appends a node basic info: the reporting thread, the node launch's end (msPTI's clock), the
    // blockDim of its kernel and msprof's task type (Block Num, joined by the export).
    void write_node_info(uint32_t thread_id, uint64_t time_ns, uint32_t block_dim, uint32_t task_type);
    // Appends the device memory the process holds on `device` at `time_ns` (msPTI's clock): the
    // samples npu_mem starts and ends with (task memory).
    void write_memory_in_use(uint32_t device, uint64_t time_ns, uint64_t bytes);
    // Writes the end times and closes the raw data file.
    void finish();
    const std::string& path() const { return path_; }

private:
    void write_times(const std::string& name) const;
    bool write_device_info(std::string* error) const;

    std::mutex mutex_;
    std::string path_;
    std::vector<uint32_t> devices_;
    std::unique_ptr<std::FILE, FileCloser> records_;
    uint64_t written_ = 0;
};

}  // namespace npusim::msprof
