// HixlProfilingReporter: one API record per call, at ACL level (20000).
//
// Constructed at API entry it takes the start time (only while profiling runs);
// destroyed at exit it reports {begin, end, this thread's id, the API's type id}
// through MsprofReportApi if profiling still runs. The second constructor takes
// a start time recorded earlier (an asynchronous transfer's submission); a start
// time of 0 means profiling was off then, and nothing is reported. A failing
// report is ignored: profiling never changes an API's result.
#pragma once

#include <cstdint>

#include "prof_switch.h"
#include "prof_type_names.h"

namespace hixl {

class HixlProfilingReporter {
public:
    explicit HixlProfilingReporter(HixlProfType api) : api_(api) {
        if (prof::running()) start_time_ = now();
    }
    HixlProfilingReporter(HixlProfType api, uint64_t start_time) : start_time_(start_time), api_(api) {}
    ~HixlProfilingReporter() noexcept {
        if (start_time_ != 0 && prof::running()) report(api_, start_time_, now());
    }
    HixlProfilingReporter(const HixlProfilingReporter&) = delete;
    HixlProfilingReporter& operator=(const HixlProfilingReporter&) = delete;

    // The host timestamp of reports (MsprofSysCycleTime).
    static uint64_t now();

private:
    static void report(HixlProfType api, uint64_t begin, uint64_t end) noexcept;

    uint64_t start_time_ = 0;
    const HixlProfType api_;
};

// Start time for an asynchronous request: now while profiling runs, else 0.
inline uint64_t prof_start_time() { return prof::running() ? HixlProfilingReporter::now() : 0; }

}  // namespace hixl

#define HIXL_API_PROFILING(api_id) const ::hixl::HixlProfilingReporter hixl_profiling_reporter_(api_id)
#define HIXL_API_PROFILING_WITH_TIME(api_id, start_time) \
    const ::hixl::HixlProfilingReporter hixl_profiling_reporter_(api_id, start_time)
