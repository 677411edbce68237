#include "interpose/report_route.h"

#include <atomic>
#include <mutex>
#include <new>

#include "activity/drop_counter.h"
#include "activity/kinds.h"
#include "common/log.h"
#include "common/no_destructor.h"
#include "device/device_registry.h"

namespace mspti::interpose::report_route {
namespace {

struct State {
    std::mutex mutex;  // serialises the decisions (rare: subscribe, commands)
    bool registration_failed = false;
    bool type_names_missing = false;
    uint64_t failed_devices = 0;      // devices 0..63 whose START command failed
    uint64_t unnotified_devices = 0;  // devices 0..63 set by the application, never reported open
    bool redirected = false;
    bool logged = false;
};

State& GetState() {
    static NoDestructor<State> state;
    return state.get();
}

// The calling thread's current device (aclrtGetDevice), -1 when CANN cannot say.
int32_t CurrentDevice() {
    auto get_device = seam::cann::aclrtGetDevice.get();
    int32_t device = -1;
    if (get_device == nullptr || get_device(&device) != 0) return -1;
    return device;
}

// Read by the counting launches only.
std::atomic<bool> g_all{false};
std::atomic<uint64_t> g_devices{0};

void UpdateLocked(State& s) {
    const bool all = s.registration_failed || s.type_names_missing;
    const uint64_t devices = s.failed_devices | s.unnotified_devices;
    g_all.store(all, std::memory_order_release);
    g_devices.store(devices, std::memory_order_release);
    const bool want = all || devices != 0;
    if (want && !s.logged) {
        s.logged = true;
        MSPTI_LOGE(
            "CANN cannot report tasks to msPTI (%s); the KERNEL, HCCL and COMMUNICATION records of the "
            "kernels and collectives launched meanwhile are counted as dropped, reason COLLECTION_FAILED. "
            "Check libprofapi "
            "(MsprofRegisterProfileCallback, profSetProfCommand, MsprofRegTypeInfo, MsprofNotifySetDevice)",
            s.registration_failed   ? "the report callbacks could not be registered"
            : s.type_names_missing  ? "no task type names were registered"
            : s.failed_devices != 0 ? "the command that switches task reports on failed"
                                    : "an open device was never reported");
    }
    if (want != s.redirected) {
        s.redirected = want;
        RedirectLaunches(want);
    }
}

// Applies `change` to the state under its lock, then redirects the launches if that changed the verdict.
template <typename Fn>
void Change(Fn change) {
    State& s = GetState();
    std::lock_guard<std::mutex> lock(s.mutex);
    change(s);
    UpdateLocked(s);
}

// Sets or clears a device's bit of one of the per-device words (devices 0..63; others are ignored).
void ChangeDeviceBit(uint64_t State::* word, uint32_t device, bool on) {
    if (device >= 64) return;
    const uint64_t bit = uint64_t{1} << device;
    Change([&](State& s) { s.*word = on ? (s.*word | bit) : (s.*word & ~bit); });
}

}  // namespace

void SetRegistrationFailed(bool failed) {
    Change([failed](State& s) { s.registration_failed = failed; });
}

void SetDeviceCommandFailed(uint32_t device, bool failed) { ChangeDeviceBit(&State::failed_devices, device, failed); }

void SetTypeNamesMissing(bool missing) {
    Change([missing](State& s) { s.type_names_missing = missing; });
}

void SetDeviceUnnotified(uint32_t device, bool unnotified) {
    ChangeDeviceBit(&State::unnotified_devices, device, unnotified);
}

void Reset() {
    Change([](State& s) {
        s.registration_failed = false;
        s.type_names_missing = false;
        s.failed_devices = 0;
        s.unnotified_devices = 0;
    });
}

void ChildAfterFork() { new (&GetState().mutex) std::mutex(); }

bool CurrentDeviceUnreported() {
    if (g_all.load(std::memory_order_acquire)) return true;
    const uint64_t devices = g_devices.load(std::memory_order_acquire);
    if (devices == 0) return false;
    const int32_t device = CurrentDevice();
    if (device < 0 || device >= 64) return false;
    return (devices >> device) & 1U;
}

bool DeviceUnreported(uint32_t device) {
    if (g_all.load(std::memory_order_acquire)) return true;
    return device < 64 && ((g_devices.load(std::memory_order_acquire) >> device) & 1U) != 0;
}

void CountUnreportedLaunch() {
    if (activity::Enabled(MSPTI_ACTIVITY_KIND_KERNEL)) {
        activity::Drops().Add(MSPTI_ACTIVITY_KIND_KERNEL, MSPTI_DROP_REASON_COLLECTION_FAILED);
    }
}

// Cold: reached only when a track went missing. The conditions are the task-track handler's for
// making a record (reports/report_handlers.cpp): KERNEL on and the device collecting, or its
// collection failed (which that handler counts too).
[[gnu::noinline, gnu::cold]] void CountUntrackedLaunch() {
    if (!activity::Enabled(MSPTI_ACTIVITY_KIND_KERNEL) || CurrentDeviceUnreported()) return;
    const int32_t device = CurrentDevice();
    if (device < 0) return;
    const auto id = static_cast<uint32_t>(device);
    if (!seam::devices::StarsActive(id) && !seam::devices::StarsFailed(id)) return;
    static std::atomic<bool> logged{false};
    if (!logged.exchange(true, std::memory_order_relaxed)) {
        MSPTI_LOGW(
            "a kernel launch on device %d returned without CANN reporting its task; its KERNEL record is "
            "counted as dropped, reason COLLECTION_FAILED (check libprofapi's MsprofReportCompactInfo)",
            device);
    }
    activity::Drops().Add(MSPTI_ACTIVITY_KIND_KERNEL, MSPTI_DROP_REASON_COLLECTION_FAILED);
}

}  // namespace mspti::interpose::report_route
