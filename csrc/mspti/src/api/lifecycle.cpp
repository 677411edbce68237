#include "api/lifecycle.h"

#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <mutex>

#include "activity/buffer_manager.h"
#include "callback/subscriber.h"
#include "common/host_clock.h"
#include "common/log.h"
#include "cann/device_task_manager.h"
#include "cann/profapi_injection.h"

namespace mspti::lifecycle {
namespace {

void AtExit() {
    try {
        // Device data of finished work is drained and collection stopped while CANN is still
        // alive; then every buffer goes back to the client, within the exit flush's limit.
        // Not on a thread a signal handler's exit() interrupted inside the manager (a FlushAll's,
        // Disable's or Unsubscribe's drain): its channel and device-data locks may be this thread's.
        if (callback::Subscriber::Instance().Subscribed() && !activity::BufferManager::InClientCallback() &&
            !seam::DeviceTaskManager::BusyOnThisThread()) {
            seam::DeviceTaskManager::Instance().OnUnsubscribe();
        }
        const uint64_t lost = activity::BufferManager::Instance().FlushAtExit(kExitDeliveryStall);
        if (lost != 0) {
            std::fprintf(stderr,
                         "msPTI: %" PRIu64
                         " activity record%s not delivered at exit: no buffer came back from "
                         "the CompleteFunc for %lld ms\n",
                         lost, lost == 1 ? " was" : "s were", static_cast<long long>(kExitDeliveryStall.count()));
        }
    } catch (...) {}
}

__attribute__((constructor)) void OnLoad() {
    try {
        host_clock::Resync();
        seam::profapi::OnLoad();
    } catch (...) {}
}

}  // namespace

void EnsureExitFlush() {
    static std::once_flag once;
    std::call_once(once, [] {
        if (std::atexit(&AtExit) != 0) MSPTI_LOGW("cannot register the exit flush");
    });
}

void FlushAll() {
    if (callback::Subscriber::Instance().Subscribed() && !activity::BufferManager::InClientCallback()) {
        seam::DeviceTaskManager::Instance().DrainAll();
    }
    activity::BufferManager::Instance().Flush(true);
}

}  // namespace mspti::lifecycle
