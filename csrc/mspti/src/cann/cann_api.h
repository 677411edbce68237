// Every CANN function msPTI calls, by library, resolved lazily through the
// loader. The types come from the seam and ACL declarations, so a signature
// mismatch is a compile error. A null get() means "not available": every caller
// handles that without failing the application's call.
#pragma once

#include <acl/acl_rt.h>

#include "seam/hal.h"
#include "cann/library_loader.h"
#include "seam/profapi.h"

namespace mspti::seam::cann {

#define MSPTI_CANN_FN(lib, fn) \
    inline CannFunction<decltype(&::fn)> fn { CannLibrary::lib, #fn }

// libprofapi
MSPTI_CANN_FN(kProfapi, MsprofRegisterProfileCallback);
MSPTI_CANN_FN(kProfapi, profSetProfCommand);
MSPTI_CANN_FN(kProfapi, ProfRegisterMstxFunc);
MSPTI_CANN_FN(kProfapi, ProfEnableMstxFunc);
MSPTI_CANN_FN(kProfapi, MsprofSysCycleTime);

// libascend_hal
MSPTI_CANN_FN(kHal, drvGetDevNum);
MSPTI_CANN_FN(kHal, drvGetDevIDs);
MSPTI_CANN_FN(kHal, halGetDeviceInfo);
MSPTI_CANN_FN(kHal, halGetAPIVersion);
MSPTI_CANN_FN(kHal, prof_drv_get_channels);
MSPTI_CANN_FN(kHal, prof_drv_start);
MSPTI_CANN_FN(kHal, prof_stop);
MSPTI_CANN_FN(kHal, prof_channel_poll);
MSPTI_CANN_FN(kHal, prof_channel_read);
MSPTI_CANN_FN(kHal, halProfDataFlush);

// libascendcl helpers (the interposed functions resolve their own real targets)
MSPTI_CANN_FN(kAcl, aclrtGetDevice);
MSPTI_CANN_FN(kAcl, aclrtStreamGetId);
MSPTI_CANN_FN(kAcl, aclrtProfTrace);

#undef MSPTI_CANN_FN

}  // namespace mspti::seam::cann
