// Starts and stops CANN's data collection per device, following what the
// enabled activity kinds need:
//  - the profSwitch bits of CANN's host-side reports (START/STOP commands via
//    profSetProfCommand), only the bits some enabled kind still needs;
//  - the driver channels (44 step traces, 50 STARS logs), reference-counted
//    per device and channel by the kinds that read them.
// A device is known once CANN reports it open (profapi callback 16; libprofapi
// replays devices opened before msPTI subscribed). Nothing is collected
// without a subscriber. Disabling a kind drains its channels first, so the
// records of work that already ran are not lost.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>

#include "mspti/mspti_activity.h"

namespace mspti::seam {

class DeviceTaskManager {
public:
    static DeviceTaskManager& Instance();

    void OnDeviceState(uint32_t device, bool open);
    // The application's aclrtSetDevice(device) succeeded (interposed): a device CANN never reported
    // open while msPTI is subscribed has its launches counted (interpose/report_route.h).
    void OnDeviceSet(uint32_t device);
    void OnSubscribe();
    // Drains every channel, stops collection on every device.
    void OnUnsubscribe();
    // Call after the kind's switch changed (enable) / before and after it changes (disable).
    void OnKindEnabled();
    // Whether an open device's collection that `kind` needs could not start (known now).
    bool CollectionFailed(msptiActivityKind kind);
    void DrainKind(msptiActivityKind kind);
    void OnKindDisabled();
    // Drains every running channel (FlushAll).
    void DrainAll();
    // True while this thread is inside one of the manager's operations, where it may hold the
    // manager's and the channels' locks: an exit() from a signal handler that interrupted it must
    // not drain or stop the channels again (the exit flush would wait for its own locks).
    static bool BusyOnThisThread();

    DeviceTaskManager() = default;
    DeviceTaskManager(const DeviceTaskManager&) = delete;
    DeviceTaskManager& operator=(const DeviceTaskManager&) = delete;

private:
    struct Device {
        bool open = false;
        bool probed = false;
        bool usable = false;  // online, with a supported chip and the channel list read
        bool has_tsfw = false;
        bool has_stars = false;
        uint32_t chip = 0;
        uint64_t bits = 0;  // profSwitch bits started
        bool tsfw_running = false;
        bool stars_running = false;
        bool failure_logged = false;  // "collection could not start" was logged for this device
        bool busy = false;   // being reconciled (CANN may call back into msPTI meanwhile)
        bool again = false;  // reconcile once more when done
    };
    void Reconcile(uint32_t id);
    void ReconcileAll();
    void Probe(uint32_t id, Device& d);
    bool Online(uint32_t id);
    void SendCommand(uint32_t id, uint32_t type, uint64_t bits);
    bool StartChannel(uint32_t id, const Device& d, uint32_t channel);
    void StopChannel(uint32_t id, uint32_t channel);

    std::recursive_mutex mutex_;
    bool subscribed_ = false;
    bool online_checked_ = false;
    uint64_t online_mask_ = 0;
    bool device_list_failed_ = false;  // drvGetDevNum/drvGetDevIDs failed at the last check
    std::map<uint32_t, Device> devices_;
};

}  // namespace mspti::seam
