#include "api/lifecycle.h"

#include <cstdlib>
#include <mutex>

#include "activity/buffer_manager.h"
#include "callback/subscriber.h"
#include "common/host_clock.h"
#include "common/log.h"
#include "seam/device_task_manager.h"
#include "seam/profapi_injection.h"

namespace mspti::lifecycle {
namespace {

void AtExit() {
    try {
        // Device data of finished work is drained and collection stopped while CANN is still
        // alive; then every buffer goes back to the client.
        if (callback::Subscriber::Instance().Subscribed() && !activity::BufferManager::InClientCallback()) {
            seam::DeviceTaskManager::Instance().OnUnsubscribe();
        }
        activity::BufferManager::Instance().Flush(true);
    } catch (...) {
    }
}

__attribute__((constructor)) void OnLoad() {
    try {
        host_clock::Resync();
        seam::profapi::OnLoad();
    } catch (...) {
    }
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
