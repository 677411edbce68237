#include "markers/prof_trace.h"

#include "common/log.h"
#include "cann/cann_api.h"
#include "seam/device_log.h"

namespace mspti::markers {

bool ProfTrace(uint64_t id, uint64_t flag, void* stream) {
    auto trace = seam::cann::aclrtProfTrace.get();
    if (trace == nullptr) return false;
    ProfTraceUserData data{};
    data.indexId = id;
    data.modelId = flag;
    data.tagId = kMarkerTag;
    const aclError rc = trace(&data, static_cast<int32_t>(sizeof data), stream);
    if (rc != ACL_SUCCESS) {
        MSPTI_LOGW("aclrtProfTrace(marker %llu) failed: %d", static_cast<unsigned long long>(id), rc);
        return false;
    }
    return true;
}

}  // namespace mspti::markers
