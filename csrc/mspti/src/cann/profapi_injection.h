// msPTI's registration with libprofapi:
//  - at load: the type-info and hash-id callbacks (11, 12: CANN does not replay
//    names registered before a collector listens) and the mstx init function
//    for module 2 (msPTI);
//  - at subscribe: the report callbacks (4, 5, 9, 10, 13, 16), mstx routed to
//    msPTI, device collection on;
//  - at unsubscribe: device data drained and collection stopped, report
//    callbacks removed, mstx routed back to msprof.
#pragma once

namespace mspti::seam::profapi {

void OnLoad();
void OnSubscribe();
void OnUnsubscribe();

}  // namespace mspti::seam::profapi
