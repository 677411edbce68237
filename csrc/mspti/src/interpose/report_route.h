// Kernels CANN cannot report to msPTI. When msPTI's registration of CANN's report callbacks fails,
// CANN refuses the command that switches a device's task reports on, registered no task type names
// when it started them, or never reported a device the application opened, no task track of a
// kernel launched there reaches msPTI (or none is recognised as a kernel's), so its KERNEL record can be neither made nor counted on the
// consumer side. msPTI knows it at that moment: it then redirects its interposed launch functions
// to counting ones (CannFunction::Redirect), which count every successful launch on an affected
// device as a dropped KERNEL record (reason COLLECTION_FAILED) while KERNEL is enabled, and restores
// them once the route works again. The ordinary launch path is unchanged: it loads the real
// function's pointer anyway. Launches that bypass the interposer (dlsym of libascendcl, ctypes)
// are not counted. A task track CANN fails to report by itself (MsprofReportCompactInfo failing for
// one launch) is noticed by the interposed launch it belongs to, which returns successfully with no
// track reported inside it: CountUntrackedLaunch counts that KERNEL record (docs/reliability.md).
#pragma once

#include <cstdint>

#include "cann/cann_api.h"
#include "cann/library_loader.h"

namespace mspti::interpose::report_route {

// Registration of the report callbacks failed (every device) or succeeded again.
void SetRegistrationFailed(bool failed);
// The START command for a device's task reports failed, or succeeded.
void SetDeviceCommandFailed(uint32_t device, bool failed);
// CANN registered no task type names by the time a START succeeded (MsprofRegTypeInfo failing
// inside CANN): no task track is recognised as a kernel's.
void SetTypeNamesMissing(bool missing);
// aclrtSetDevice succeeded while subscribed but CANN never reported the device open
// (MsprofNotifySetDevice failing inside CANN): its collection never starts (true); the report
// came (false).
void SetDeviceUnnotified(uint32_t device, bool unnotified);
// Unsubscribe: nothing is owed any more, so nothing is counted.
void Reset();
// fork(), in the child: a new lock (the decisions stand: the child shares the parent's CANN).
void ChildAfterFork();

// Whether a launch on the calling thread's current device reaches msPTI through no report.
bool CurrentDeviceUnreported();
// The same for a known device (the HCCL and COMMUNICATION records of its collectives are counted).
bool DeviceUnreported(uint32_t device);
// Counts one KERNEL record as dropped (COLLECTION_FAILED) when KERNEL is enabled.
void CountUnreportedLaunch();
// An interposed launch succeeded but CANN reported no task track inside it: counts the KERNEL
// record it would have given (COLLECTION_FAILED) when KERNEL is enabled and the launch's device is
// collecting, unless the counting stand-in has counted it already (a broken route).
void CountUntrackedLaunch();

// The counting stand-in for the real function behind `Real`.
template <typename Fn>
struct Counting;
template <typename R, typename... A>
struct Counting<R (*)(A...)> {
    template <const seam::CannFunction<R (*)(A...)>& Real>
    static R Call(A... args) {
        const R result = Real.original()(args...);
        if (result == 0 && CurrentDeviceUnreported()) CountUnreportedLaunch();
        return result;
    }
};

// Installs (true) or removes the counting launch functions (acl_launch_wrappers.cpp).
void RedirectLaunches(bool on);

}  // namespace mspti::interpose::report_route
