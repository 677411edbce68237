// MsprofReportApi / Event / CompactInfo / AdditionalInfo: the per-launch report path.
//
// Each report goes synchronously, on the reporting thread, to the profiler
// callback of its kind, and the callback's result is returned. With no callback
// the report is counted as not collected (real CANN would buffer it for msprof).
// The path takes no lock, allocates nothing and makes no system call: a fault
// check (one relaxed load while no plan is installed and no call counts are
// asked for), one acquire load of the callback, and the call.
#include <array>

#include "callback_table.h"
#include "core/fault_plan.h"
#include "profapi_internal.h"
#include "striped_counter.h"

namespace npusim::profapi {

namespace {

// Constant-initialised (all zero) with a trivial destructor: usable at any time, even during exit.
std::array<StripedCounter, kReportKindCount> g_uncollected;

int32_t uncollected(ReportKind kind) {
    g_uncollected[static_cast<size_t>(kind)].add();
    return PROFAPI_SUCCESS;
}

}  // namespace

uint64_t uncollected_reports(ReportKind kind) {
    const auto index = static_cast<size_t>(kind);
    return index < kReportKindCount ? g_uncollected[index].total() : 0;
}

void reset_uncollected_reports() {
    for (StripedCounter& c : g_uncollected) c.reset();
}

namespace {

// The levels whose API reports are counted one by one; any other level goes to the last slot.
constexpr std::array<uint16_t, 4> kCountedLevels = {MSPROF_REPORT_RUNTIME_LEVEL, MSPROF_REPORT_HCCL_NODE_LEVEL,
                                                    MSPROF_REPORT_NODE_LEVEL, MSPROF_REPORT_ACL_LEVEL};
std::array<StripedCounter, kCountedLevels.size() + 1> g_api_made;
std::array<StripedCounter, kCountedLevels.size() + 1> g_api_delivered;

size_t level_slot(uint16_t level) {
    for (size_t i = 0; i < kCountedLevels.size(); ++i) {
        if (kCountedLevels[i] == level) return i;
    }
    return kCountedLevels.size();
}

void count_api_report(uint16_t level, bool delivered) {
    const size_t slot = level_slot(level);
    if (delivered) {
        g_api_delivered[slot].add();
    } else {
        g_api_made[slot].add();
    }
}

}  // namespace

ApiReportCounts api_report_counts(uint16_t level) {
    const size_t slot = level == 0 ? kCountedLevels.size() : level_slot(level);
    return {g_api_made[slot].total(), g_api_delivered[slot].total()};
}

void reset_api_report_counts() {
    for (StripedCounter& c : g_api_made) c.reset();
    for (StripedCounter& c : g_api_delivered) c.reset();
}

}  // namespace npusim::profapi

using npusim::profapi::callbacks;
using npusim::profapi::ReportKind;

// The API and compact reports come on every traced launch: their exported functions check the fault
// points' one word and jump straight to the callback (no frame), and evaluate a fault point out of
// line, in the `...Faulted` functions, only while one may fire.
namespace {

inline int32_t DeliverApi(uint32_t agingFlag, const MsprofApi* api) {
    if (api == nullptr) return PROFAPI_ERROR;
    auto callback = callbacks().get<ProfReportApiCFunc>(PROFILE_REPORT_API_C_CALLBACK);
    if (callback == nullptr) return npusim::profapi::uncollected(ReportKind::Api);
    return callback(agingFlag, api);
}

// The slow path also counts the reports by level (profapi_internal.h, api_report_counts).
[[gnu::noinline, gnu::cold]] int32_t ReportApiFaulted(uint32_t agingFlag, const MsprofApi* api) {
    if (api != nullptr) npusim::profapi::count_api_report(api->level, false);
    NPUSIM_FAULT_RETURN_ARGS("MsprofReportApi", int32_t, agingFlag, api);
    if (api != nullptr && callbacks().get<ProfReportApiCFunc>(PROFILE_REPORT_API_C_CALLBACK) != nullptr) {
        npusim::profapi::count_api_report(api->level, true);
    }
    return DeliverApi(agingFlag, api);
}

inline int32_t DeliverCompact(uint32_t agingFlag, const void* data, uint32_t length) {
    if (data == nullptr || length != sizeof(MsprofCompactInfo)) return PROFAPI_ERROR;
    auto callback = callbacks().get<ProfReportCompactFunc>(PROFILE_REPORT_COMPACT_CALLBACK);
    if (callback == nullptr) return npusim::profapi::uncollected(ReportKind::Compact);
    return callback(agingFlag, data, length);
}

[[gnu::noinline, gnu::cold]] int32_t ReportCompactFaulted(uint32_t agingFlag, const void* data, uint32_t length) {
    NPUSIM_FAULT_RETURN_ARGS("MsprofReportCompactInfo", int32_t, agingFlag, data, length);
    return DeliverCompact(agingFlag, data, length);
}

}  // namespace

NPUSIM_C_EXPORT int32_t MsprofReportApi(uint32_t agingFlag, const MsprofApi* api) {
    if (__builtin_expect(!npusim::fault_points_idle(), 0)) return ReportApiFaulted(agingFlag, api);
    return DeliverApi(agingFlag, api);
}

NPUSIM_C_EXPORT int32_t MsprofReportEvent(uint32_t agingFlag, const MsprofEvent* event) {
    NPUSIM_FAULT_RETURN_ARGS("MsprofReportEvent", int32_t, agingFlag, event);
    if (event == nullptr) return PROFAPI_ERROR;
    auto callback = callbacks().get<ProfReportEventCFunc>(PROFILE_REPORT_EVENT_C_CALLBACK);
    if (callback == nullptr) return npusim::profapi::uncollected(ReportKind::Event);
    return callback(agingFlag, event);
}

NPUSIM_C_EXPORT int32_t MsprofReportCompactInfo(uint32_t agingFlag, const void* data, uint32_t length) {
    if (__builtin_expect(!npusim::fault_points_idle(), 0)) return ReportCompactFaulted(agingFlag, data, length);
    return DeliverCompact(agingFlag, data, length);
}

NPUSIM_C_EXPORT int32_t MsprofReportAdditionalInfo(uint32_t agingFlag, const void* data, uint32_t length) {
    NPUSIM_FAULT_RETURN_ARGS("MsprofReportAdditionalInfo", int32_t, agingFlag, data, length);
    if (data == nullptr || length != sizeof(MsprofAdditionalInfo)) return PROFAPI_ERROR;
    auto callback = callbacks().get<ProfReportAdditionalFunc>(PROFILE_REPORT_ADDITIONAL_CALLBACK);
    if (callback == nullptr) return npusim::profapi::uncollected(ReportKind::Additional);
    return callback(agingFlag, data, length);
}
