// libacl_tdt_channel: the host-device tensor transfer channels of acl/acl_tdt.h (data queues
// feeding a device-side model). The simulator runs no device-side model, so channels cannot be
// created: acltdtCreateChannel returns NULL and the other calls return
// ACL_ERROR_FEATURE_UNSUPPORTED, each logging once per process. torch_npu links this library (its
// tensorpipe transport) but imports none of its functions.
#include <cstdint>

#include "acl/acl_base.h"
#include "core/fault_plan.h"
#include "core/unsupported.h"

typedef struct acltdtChannelHandle acltdtChannelHandle;
typedef struct acltdtDataset acltdtDataset;

namespace {
constexpr const char* kNoChannels = "no device-side model reads tensor transfer channels";
}  // namespace

extern "C" {

ACL_FUNC_VISIBILITY acltdtChannelHandle* acltdtCreateChannel(uint32_t deviceId, const char* name) {
    if (NPUSIM_FAULT("acltdtCreateChannel").fail) return nullptr;  // returns a handle, not an aclError
    (void)deviceId;
    (void)name;
    NPUSIM_RETURN_UNSUPPORTED(kNoChannels, static_cast<acltdtChannelHandle*>(nullptr));
}

ACL_FUNC_VISIBILITY aclError acltdtDestroyChannel(acltdtChannelHandle* handle) {
    NPUSIM_FAULT_RETURN("acltdtDestroyChannel", aclError);
    if (handle == nullptr) return ACL_ERROR_INVALID_PARAM;
    NPUSIM_RETURN_UNSUPPORTED(kNoChannels, ACL_ERROR_FEATURE_UNSUPPORTED);
}

ACL_FUNC_VISIBILITY aclError acltdtSendTensor(const acltdtChannelHandle* handle, const acltdtDataset* dataset,
                                              int32_t timeout) {
    NPUSIM_FAULT_RETURN("acltdtSendTensor", aclError);
    (void)handle;
    (void)dataset;
    (void)timeout;
    NPUSIM_RETURN_UNSUPPORTED(kNoChannels, ACL_ERROR_FEATURE_UNSUPPORTED);
}

ACL_FUNC_VISIBILITY aclError acltdtReceiveTensor(const acltdtChannelHandle* handle, acltdtDataset* dataset,
                                                 int32_t timeout) {
    NPUSIM_FAULT_RETURN("acltdtReceiveTensor", aclError);
    (void)handle;
    (void)dataset;
    (void)timeout;
    NPUSIM_RETURN_UNSUPPORTED(kNoChannels, ACL_ERROR_FEATURE_UNSUPPORTED);
}

}  // extern "C"
