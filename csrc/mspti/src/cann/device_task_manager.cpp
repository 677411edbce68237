#include "cann/device_task_manager.h"

#include <cstring>

#include "activity/kinds.h"
#include "activity/overhead.h"
#include "common/log.h"
#include "common/no_destructor.h"
#include "interpose/report_route.h"
#include "cann/cann_api.h"
#include "device/channel_reader.h"
#include "device/device_data.h"
#include "cann/name_cache.h"
#include "seam/device_log.h"
#include "device/device_registry.h"
#include "device/device_time.h"

namespace mspti::seam {
namespace {

using activity::Enabled;

// profSwitch bits each kind needs from CANN's host side.
uint64_t DesiredBits() {
    uint64_t bits = 0;
    // Asynchronous copies and fills are stream tasks timed like kernels (reports/copy_tasks.h).
    if (Enabled(MSPTI_ACTIVITY_KIND_KERNEL) || Enabled(MSPTI_ACTIVITY_KIND_MEMCPY) ||
        Enabled(MSPTI_ACTIVITY_KIND_MEMSET)) {
        bits |= PROF_TASK_TIME_MASK | PROF_RUNTIME_TRACE_MASK;
    }
    if (Enabled(MSPTI_ACTIVITY_KIND_API) || Enabled(MSPTI_ACTIVITY_KIND_ACL_API) ||
        Enabled(MSPTI_ACTIVITY_KIND_NODE_API)) {
        bits |= PROF_ACL_API_MASK | PROF_TASK_TIME_MASK;
    }
    if (Enabled(MSPTI_ACTIVITY_KIND_COMMUNICATION)) {
        bits |= PROF_ACL_API_MASK | PROF_RUNTIME_TRACE_MASK | PROF_TASK_TIME_MASK | PROF_HCCL_TRACE_MASK;
    }
    if (Enabled(MSPTI_ACTIVITY_KIND_RUNTIME_API)) bits |= PROF_RUNTIME_API_MASK;
    return bits;
}

bool WantTsFw() {
    return Enabled(MSPTI_ACTIVITY_KIND_MARKER) || Enabled(MSPTI_ACTIVITY_KIND_HCCL) ||
           Enabled(MSPTI_ACTIVITY_KIND_COMMUNICATION);
}

bool UsesStars(msptiActivityKind k) {
    return k == MSPTI_ACTIVITY_KIND_KERNEL || k == MSPTI_ACTIVITY_KIND_COMMUNICATION ||
           k == MSPTI_ACTIVITY_KIND_MEMCPY || k == MSPTI_ACTIVITY_KIND_MEMSET;
}

bool WantStars() {
    return Enabled(MSPTI_ACTIVITY_KIND_KERNEL) || Enabled(MSPTI_ACTIVITY_KIND_COMMUNICATION) ||
           Enabled(MSPTI_ACTIVITY_KIND_MEMCPY) || Enabled(MSPTI_ACTIVITY_KIND_MEMSET);
}

bool UsesTsFw(msptiActivityKind k) {
    return k == MSPTI_ACTIVITY_KIND_MARKER || k == MSPTI_ACTIVITY_KIND_HCCL || k == MSPTI_ACTIVITY_KIND_COMMUNICATION;
}

bool SupportedChip(uint32_t chip) {
    return chip == SEAM_CHIP_TYPE_910B || chip == SEAM_CHIP_TYPE_310B || chip == SEAM_CHIP_TYPE_950;
}

// The manager's operations on this thread (BusyOnThisThread): counted before a lock is taken and
// after it is released, so that a signal arriving in between finds the thread busy.
thread_local int t_busy = 0;

struct Busy {
    Busy() { ++t_busy; }
    ~Busy() { --t_busy; }
    Busy(const Busy&) = delete;
    Busy& operator=(const Busy&) = delete;
};

// The manager's lock, taken while the thread counts as busy.
class BusyLock {
public:
    explicit BusyLock(std::recursive_mutex& mutex) : lock_(mutex) {}

private:
    Busy busy_;  // first in, last out
    std::lock_guard<std::recursive_mutex> lock_;
};

}  // namespace

bool DeviceTaskManager::BusyOnThisThread() { return t_busy != 0; }

DeviceTaskManager& DeviceTaskManager::Instance() {
    static NoDestructor<DeviceTaskManager> manager;
    return manager.get();
}

void DeviceTaskManager::OnDeviceState(uint32_t device, bool open) {
    if (device >= devices::kMaxDevices) return;
    BusyLock lock(mutex_);
    Device& d = devices_[device];
    d.open = open;
    if (open) interpose::report_route::SetDeviceUnnotified(device, false);
    if (!open) d.probed = false;  // probe (and sync the clock) again when it reopens
    Reconcile(device);
}

void DeviceTaskManager::OnDeviceSet(uint32_t device) {
    if (device >= devices::kMaxDevices) return;
    BusyLock lock(mutex_);
    if (!subscribed_) return;
    auto it = devices_.find(device);
    if (it == devices_.end() || !it->second.open) interpose::report_route::SetDeviceUnnotified(device, true);
}

void DeviceTaskManager::OnSubscribe() {
    BusyLock lock(mutex_);
    subscribed_ = true;
    online_checked_ = false;
    for (auto& entry : devices_) entry.second.probed = false;
    ReconcileAll();
}

void DeviceTaskManager::OnUnsubscribe() {
    {
        BusyLock lock(mutex_);
        subscribed_ = false;
        ReconcileAll();
    }
    // Every channel was drained and stopped on this thread; the reader has nothing left to do.
    ChannelReader::Instance().RetireThread();
}

void DeviceTaskManager::OnKindEnabled() {
    BusyLock lock(mutex_);
    ReconcileAll();
}

bool DeviceTaskManager::CollectionFailed(msptiActivityKind kind) {
    BusyLock lock(mutex_);
    for (const auto& [id, d] : devices_) {
        if (!d.open) continue;
        if (UsesTsFw(kind) && devices::TsFwFailed(id)) return true;
        if (UsesStars(kind) && devices::StarsFailed(id)) return true;
    }
    return false;
}

void DeviceTaskManager::DrainKind(msptiActivityKind kind) {
    BusyLock lock(mutex_);
    for (const auto& [id, d] : devices_) {
        if (UsesTsFw(kind) && d.tsfw_running) ChannelReader::Instance().Drain(id, PROF_CHANNEL_TS_FW);
        if (UsesStars(kind) && d.stars_running) ChannelReader::Instance().Drain(id, PROF_CHANNEL_STARS_SOC_LOG);
    }
}

void DeviceTaskManager::OnKindDisabled() {
    BusyLock lock(mutex_);
    ReconcileAll();
}

void DeviceTaskManager::DrainAll() {
    Busy busy;
    ChannelReader::Instance().DrainAll();
}

void DeviceTaskManager::ReconcileAll() {
    for (auto& entry : devices_) Reconcile(entry.first);
}

void DeviceTaskManager::Reconcile(uint32_t id) {
    Device& d = devices_[id];
    if (d.busy) {
        d.again = true;
        return;
    }
    d.busy = true;
    do {
        d.again = false;
        const bool want = subscribed_ && d.open;
        if (want && !d.probed) Probe(id, d);
        const bool live = want && d.usable;
        // CANN's host reports are switched on for a listed device, and for every open device when the
        // driver cannot list them (its task tracks then show what cannot be collected).
        const bool online = Online(id) || device_list_failed_;
        const uint64_t bits = want && online ? DesiredBits() : 0;
        const bool tsfw = live && d.has_tsfw && WantTsFw();
        const bool stars = live && d.has_stars && WantStars();

        // Stop what is no longer wanted: CANN's reports first, then the channels (drained on the way).
        if ((d.bits & ~bits) != 0) {
            // A STOP may end the device's whole switch (CANN keeps one switch per device), so what
            // is still wanted is started again below.
            SendCommand(id, PROF_COMMANDHANDLE_TYPE_STOP, d.bits & ~bits);
            d.bits = 0;
        }
        if (d.tsfw_running && !tsfw) {
            devices::SetTsFwActive(id, false);
            StopChannel(id, PROF_CHANNEL_TS_FW);
            d.tsfw_running = false;
        }
        if (d.stars_running && !stars) {
            devices::SetStarsActive(id, false);
            StopChannel(id, PROF_CHANNEL_STARS_SOC_LOG);
            d.stars_running = false;
        }
        // Start what is newly wanted: channels first, so no device record of a reported task is missed.
        if (!d.tsfw_running && tsfw && StartChannel(id, d, PROF_CHANNEL_TS_FW)) {
            d.tsfw_running = true;
            devices::SetTsFwActive(id, true);
        }
        if (!d.stars_running && stars && StartChannel(id, d, PROF_CHANNEL_STARS_SOC_LOG)) {
            d.stars_running = true;
            devices::SetStarsActive(id, true);
        }
        if ((bits & ~d.bits) != 0) {
            SendCommand(id, PROF_COMMANDHANDLE_TYPE_START, bits);
            d.bits |= bits;
        }
        // A channel a kind needs that did not start: its device halves can never come.
        const bool tsfw_failed = want && WantTsFw() && !d.tsfw_running;
        const bool stars_failed = want && WantStars() && !d.stars_running;
        devices::SetTsFwFailed(id, tsfw_failed);
        devices::SetStarsFailed(id, stars_failed);
        if ((tsfw_failed || stars_failed) && !d.failure_logged) {
            d.failure_logged = true;
            MSPTI_LOGE(
                "device %u: profiling collection could not start (%s%s%s); its device records (KERNEL, device "
                "MARKER halves, HCCL, COMMUNICATION) are counted as dropped, reason COLLECTION_FAILED. Check "
                "that the driver lists the device (drvGetDevNum/drvGetDevIDs), reports its chip and clock "
                "(halGetDeviceInfo) and profiling channels (prof_drv_get_channels), and that no other profiler "
                "holds them (prof_drv_start)",
                id, stars_failed ? "STARS channel 50" : "", stars_failed && tsfw_failed ? ", " : "",
                tsfw_failed ? "step-trace channel 44" : "");
        }
    } while (d.again);
    d.busy = false;
}

bool DeviceTaskManager::Online(uint32_t id) {
    if (!online_checked_) {
        online_checked_ = true;
        online_mask_ = 0;
        auto get_num = cann::drvGetDevNum.get();
        auto get_ids = cann::drvGetDevIDs.get();
        uint32_t num = 0;
        if (get_num == nullptr || get_ids == nullptr || get_num(&num) != DRV_ERROR_NONE) {
            MSPTI_LOGE("cannot list devices: no device data will be collected");
            device_list_failed_ = true;
        } else {
            device_list_failed_ = false;
            uint32_t ids[devices::kMaxDevices] = {};
            if (num > devices::kMaxDevices) num = devices::kMaxDevices;
            if (num > 0 && get_ids(ids, num) != DRV_ERROR_NONE) {
                MSPTI_LOGE("cannot list device ids: no device data will be collected");
                device_list_failed_ = true;
            } else if (num > 0) {
                // Only the ids the driver listed are online.
                for (uint32_t i = 0; i < num; ++i) {
                    if (ids[i] < devices::kMaxDevices) online_mask_ |= uint64_t{1} << ids[i];
                }
            }
        }
    }
    return id < devices::kMaxDevices && (online_mask_ & (uint64_t{1} << id)) != 0;
}

void DeviceTaskManager::Probe(uint32_t id, Device& d) {
    d.probed = true;
    d.usable = false;
    if (!Online(id)) {
        MSPTI_LOGW("device %u is not online", id);
        return;
    }
    int64_t version = 0;
    auto info = cann::halGetDeviceInfo.get();
    if (info == nullptr || info(id, MODULE_TYPE_SYSTEM, INFO_TYPE_VERSION, &version) != DRV_ERROR_NONE) {
        MSPTI_LOGE("device %u: VERSION unavailable, no device data", id);
        return;
    }
    d.chip = static_cast<uint32_t>((version >> 8) & 0xFF);
    if (!SupportedChip(d.chip)) {
        MSPTI_LOGW("device %u: chip type %u not supported, no device data", id, d.chip);
        return;
    }
    devices::SetChip(id, d.chip);
    auto get_channels = cann::prof_drv_get_channels.get();
    channel_list_t list;
    std::memset(&list, 0, sizeof list);
    if (get_channels == nullptr || get_channels(id, &list) != 0 || list.channel_num == 0 ||
        list.channel_num > PROF_CHANNEL_NUM_MAX) {
        MSPTI_LOGE("device %u: no profiling channel list", id);
        return;
    }
    d.has_tsfw = false;
    d.has_stars = false;
    for (uint32_t i = 0; i < list.channel_num; ++i) {
        if (list.channel[i].channel_id == PROF_CHANNEL_TS_FW) d.has_tsfw = true;
        if (list.channel[i].channel_id == PROF_CHANNEL_STARS_SOC_LOG) d.has_stars = true;
    }
    if (!device_time::Sync(id)) return;
    d.usable = true;
}

void DeviceTaskManager::SendCommand(uint32_t id, uint32_t type, uint64_t bits) {
    auto send = cann::profSetProfCommand.get();
    if (send == nullptr) {
        MSPTI_LOGE("profSetProfCommand unavailable: CANN reports stay off");
        return;
    }
    MsprofCommandHandle cmd;
    std::memset(&cmd, 0, sizeof cmd);
    cmd.profSwitch = bits;
    cmd.profSwitchHi = 0;
    cmd.devNums = 1;
    cmd.devIdList[0] = id;
    cmd.modelId = 0xFFFFFFFFU;
    cmd.type = type;
    const int32_t rc = send(&cmd, static_cast<uint32_t>(sizeof cmd));
    if (rc != 0)
        MSPTI_LOGE("profSetProfCommand(type %u, switch 0x%llx) on device %u: %d", type,
                   static_cast<unsigned long long>(bits), id, rc);
    // Task reports that could not be switched on: the kernels launched there are counted instead.
    if (type == PROF_COMMANDHANDLE_TYPE_START && (bits & PROF_TASK_TIME_MASK) != 0) {
        interpose::report_route::SetDeviceCommandFailed(id, rc != 0);
        // CANN registers its task type names when its reports start; without them no track is a kernel's.
        if (rc == 0) {
            interpose::report_route::SetTypeNamesMissing(!NameCache::Instance().HasTypes(MSPROF_REPORT_RUNTIME_LEVEL));
        }
    }
}

bool DeviceTaskManager::StartChannel(uint32_t id, const Device& d, uint32_t channel) {
    const activity::overhead::DeviceScope overhead(id);
    auto start = cann::prof_drv_start.get();
    if (start == nullptr) return false;
    TsTsFwProfileConfig tsfw{};
    tsfw.period = 20;
    tsfw.tsKeypoint = 1;
    tsfw.tsBlockdim = 1;
    StarsSocLogConfig stars{};
    stars.acsqTask = 1;
    stars.fftsThreadTask = 1;
    prof_start_para_t para{};
    para.channel_type = PROF_TS_TYPE;
    para.sample_period = d.chip == SEAM_CHIP_TYPE_950 ? 0 : 20;
    para.real_time = 1;
    if (channel == PROF_CHANNEL_TS_FW) {
        para.user_data = &tsfw;
        para.user_data_size = sizeof tsfw;
    } else {
        para.user_data = &stars;
        para.user_data_size = sizeof stars;
    }
    const int rc = start(id, channel, &para);
    if (rc != PROF_OK && rc != PROF_STARTED_ALREADY) {
        MSPTI_LOGE("prof_drv_start(%u, %u): %d", id, channel, rc);
        return false;
    }
    ChannelReader::Instance().Add(id, channel);
    return true;
}

void DeviceTaskManager::StopChannel(uint32_t id, uint32_t channel) {
    const activity::overhead::DeviceScope overhead(id);
    ChannelReader& reader = ChannelReader::Instance();
    reader.Drain(id, channel);
    auto stop = cann::prof_stop.get();
    if (stop != nullptr) {
        const int rc = stop(id, channel);
        if (rc != PROF_OK && rc != PROF_STOPPED_ALREADY) MSPTI_LOGW("prof_stop(%u, %u): %d", id, channel, rc);
        // A stopped channel hands over the logs of work the device had not finished at the first
        // drain (the device completes what it was given): read them before letting go.
        reader.Drain(id, channel);
    }
    reader.Remove(id, channel);
    std::lock_guard<std::mutex> lock(DeviceData::Instance().mutex());
    DeviceData::Instance().DropDeviceLocked(id, channel == PROF_CHANNEL_STARS_SOC_LOG, channel == PROF_CHANNEL_TS_FW);
}

}  // namespace mspti::seam
