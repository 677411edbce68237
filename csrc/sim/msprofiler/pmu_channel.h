// AI Core metrics: libmsprofiler's collection of the FFTS profile channel (53).
//
// When a config asks for a metric set (aclprofCreateConfig's aicoreMetrics: PipeUtilization,
// ArithmeticUtilization, Memory, MemoryL0, ResourceConflictRatio, MemoryUB, L2Cache, MemoryAccess),
// aclprofStart programs the set's PMU events on each profiled
// device (prof_drv_start with an FftsProfileConfig, seam/device_log.h) and a reader thread copies
// what the channel delivers, as it arrives, into device_<n>/data/ffts_profile.data.<n>.slice_0 (CANN's
// file name); device_<n>/sample.json names the set and its events, as CANN's does, and which of them the
// device model counts (npu_sim_counted_events). aclprofStop stops the channel and reads the rest.
// Without a metric set the channel is never started, so the device writes no record.
// PipelineExecuteUtilization (not among msprof's task-based calculators) is not collected (one warning).
#pragma once

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl_prof.h"
#include "msprofiler/prof_dir.h"

namespace npusim::msprof {

// The events a metric set programs on the cube and on the vector cores (msprof's numbering), for a
// chip that counts cube and vector cores apart (`split`) or not, the rest 0; returns how many the set
// has, 0 for a set the simulator does not collect (PipelineExecuteUtilization, an unknown value).
size_t pmu_events(aclprofAicoreMetrics metrics, bool split, uint16_t aic[8], uint16_t aiv[8]);

// msprof's name of a metric set (sample.json's ai_core_metrics); "" for none or an unknown value.
const char* metric_set_name(aclprofAicoreMetrics metrics);

class PmuChannel {
public:
    PmuChannel() = default;
    PmuChannel(const PmuChannel&) = delete;
    PmuChannel& operator=(const PmuChannel&) = delete;
    ~PmuChannel() { stop(); }

    // Starts channel 53 on `devices` for `metrics` under `prof_dir` (a PROF_* directory). Returns
    // false with `error` set when the channel cannot be started or its files written; true without
    // starting anything for ACL_AICORE_NONE or a set the model does not count (`warning` set then).
    bool start(const std::string& prof_dir, const std::vector<uint32_t>& devices, aclprofAicoreMetrics metrics,
               std::string* error, std::string* warning);
    // Stops the channel, reads what is left and closes the files. Idempotent.
    void stop();

private:
    struct Sink {
        uint32_t device = 0;
        std::unique_ptr<std::FILE, FileCloser> file;
    };
    void run();
    size_t drain();  // reads every readable byte of every device into its file; the bytes read

    std::vector<Sink> sinks_;
    std::vector<char> buffer_;
    std::atomic<bool> running_{false};
    std::thread reader_;
};

}  // namespace npusim::msprof
