// The Activity API (mspti_activity.h).
#include <mutex>

#include "device/kernel_matcher.h"
#include "activity/buffer_manager.h"
#include "activity/external_correlation.h"
#include "activity/kinds.h"
#include "activity/record_iterator.h"
#include "api/lifecycle.h"
#include "callback/subscriber.h"
#include "common/log.h"
#include "common/no_destructor.h"
#include "interpose/preload_check.h"
#include "markers/domains.h"
#include "mspti/mspti_activity.h"
#include "cann/device_task_manager.h"
#include "reports/node_info.h"

namespace {

using namespace mspti;

// Enable and Disable change switches and device collection together.
std::mutex& SwitchMutex() {
    static NoDestructor<std::mutex> mutex;
    return mutex.get();
}

bool InterpositionAvailable(msptiActivityKind kind) {
    return kind == MSPTI_ACTIVITY_KIND_HCCL ? interpose::CollectivesInterposed() : interpose::RuntimeInterposed();
}

msptiResult SetMarkerDomain(const char* name, bool enabled) {
    if (name == nullptr || name[0] == '\0' || !markers::ValidName(name)) return MSPTI_ERROR_INVALID_PARAMETER;
    return markers::SetDomainEnabled(name, enabled);
}

// msptiActivityEnable; `reported` kinds are enabled without the interposer (their records come from
// CANN's reports).
msptiResult EnableKind(msptiActivityKind kind, bool reported) {
    if (!activity::IsValidKind(kind)) return MSPTI_ERROR_INVALID_PARAMETER;
    try {
        if (!reported && activity::NeedsInterposition(kind) && !InterpositionAvailable(kind)) {
            return MSPTI_ERROR_WITHOUT_LD_PRELOAD;
        }
        lifecycle::EnsureExitFlush();
        std::lock_guard<std::mutex> lock(SwitchMutex());
        activity::Kinds().Set(kind, true);
        seam::DeviceTaskManager::Instance().OnKindEnabled();
        // The kind stays enabled (host records, other devices); the caller learns that device records
        // of an open device cannot come (they are counted as dropped, reason COLLECTION_FAILED).
        if (seam::DeviceTaskManager::Instance().CollectionFailed(kind)) return MSPTI_ERROR_DEVICE_OFFLINE;
        return MSPTI_SUCCESS;
    } catch (...) {
        return MSPTI_ERROR_INNER;
    }
}

}  // namespace

extern "C" {

MSPTI_API msptiResult msptiActivityRegisterCallbacks(msptiBuffersCallbackRequestFunc funcBufferRequested,
                                                     msptiBuffersCallbackCompleteFunc funcBufferCompleted) {
    try {
        lifecycle::EnsureExitFlush();
        return activity::BufferManager::Instance().RegisterCallbacks(funcBufferRequested, funcBufferCompleted);
    } catch (...) {
        return MSPTI_ERROR_INNER;
    }
}

MSPTI_API msptiResult msptiActivityEnable(msptiActivityKind kind) { return EnableKind(kind, false); }

// Not msPTI's API (not in its headers, not named mspti*): the simulated CANN's libmsprofiler, which
// collects through msPTI (docs/msprof.md), enables the kinds with it. CANN's profiler collects the
// runtime's copies and fills from the runtime's own task reports, without msPTI's interposer; msPTI
// builds MEMCPY and MEMSET records from those reports too (ACT-MEMCPY-05/06/07), so for libmsprofiler
// they need no preload. MEMORY and HCCL, which only the interposer gives, still do.
MSPTI_API msptiResult npusim_mspti_enable_for_msprof(msptiActivityKind kind);
MSPTI_API msptiResult npusim_mspti_enable_for_msprof(msptiActivityKind kind) {
    return EnableKind(kind, kind == MSPTI_ACTIVITY_KIND_MEMCPY || kind == MSPTI_ACTIVITY_KIND_MEMSET);
}

// Not msPTI's API either: libmsprofiler, collecting AI Core metrics, is told the task id (and the
// device counts) each KERNEL record was matched on, the key of msprof's join of a task's PMU records
// (docs/msprof.md, "AI Core metrics"). NULL stops it.
MSPTI_API void npusim_mspti_observe_kernel_tasks(seam::KernelTaskObserver observer);
MSPTI_API void npusim_mspti_observe_kernel_tasks(seam::KernelTaskObserver observer) {
    seam::SetKernelTaskObserver(observer);
}

// Not msPTI's API either: libmsprofiler is told each node basic info CANN reports (the blockDim a
// node launch's kernel ran with, op_summary's Block Num; docs/msprof.md). NULL stops it.
MSPTI_API void npusim_mspti_observe_node_info(seam::NodeInfoObserver observer);
MSPTI_API void npusim_mspti_observe_node_info(seam::NodeInfoObserver observer) { seam::SetNodeInfoObserver(observer); }

MSPTI_API msptiResult msptiActivityDisable(msptiActivityKind kind) {
    if (!activity::IsValidKind(kind)) return MSPTI_ERROR_INVALID_PARAMETER;
    try {
        std::lock_guard<std::mutex> lock(SwitchMutex());
        if (!activity::Kinds().IsEnabled(kind)) return MSPTI_SUCCESS;
        // Records of work that already ran on the device are collected before the switch goes off.
        if (!activity::BufferManager::InClientCallback()) seam::DeviceTaskManager::Instance().DrainKind(kind);
        activity::Kinds().Set(kind, false);
        seam::DeviceTaskManager::Instance().OnKindDisabled();
        return MSPTI_SUCCESS;
    } catch (...) {
        return MSPTI_ERROR_INNER;
    }
}

MSPTI_API bool msptiActivityIsEnabled(msptiActivityKind kind) { return activity::Kinds().IsEnabled(kind); }

MSPTI_API msptiResult msptiActivityEnableMarkerDomain(const char* name) {
    try {
        return SetMarkerDomain(name, true);
    } catch (...) {
        return MSPTI_ERROR_INNER;
    }
}

MSPTI_API msptiResult msptiActivityDisableMarkerDomain(const char* name) {
    try {
        return SetMarkerDomain(name, false);
    } catch (...) {
        return MSPTI_ERROR_INNER;
    }
}

MSPTI_API msptiResult msptiActivityGetNextRecord(uint8_t* buffer, size_t validBufferSizeBytes, msptiActivity** record) {
    return activity::NextRecord(buffer, validBufferSizeBytes, record);
}

MSPTI_API msptiResult msptiActivityFlushAll(uint32_t /*flag*/) {
    try {
        lifecycle::FlushAll();
        return MSPTI_SUCCESS;
    } catch (...) {
        return MSPTI_ERROR_INNER;
    }
}

MSPTI_API msptiResult msptiActivityFlushPeriod(uint32_t time) {
    try {
        lifecycle::EnsureExitFlush();
        activity::BufferManager::Instance().SetFlushPeriod(time);
        return MSPTI_SUCCESS;
    } catch (...) {
        return MSPTI_ERROR_INNER;
    }
}

MSPTI_API msptiResult msptiActivityPushExternalCorrelationId(msptiExternalCorrelationKind kind, uint64_t id) {
    try {
        return activity::PushExternalCorrelationId(kind, id);
    } catch (...) {
        return MSPTI_ERROR_INNER;
    }
}

MSPTI_API msptiResult msptiActivityPopExternalCorrelationId(msptiExternalCorrelationKind kind, uint64_t* lastId) {
    try {
        return activity::PopExternalCorrelationId(kind, lastId);
    } catch (...) {
        return MSPTI_ERROR_INNER;
    }
}

}  // extern "C"
