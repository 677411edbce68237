#include "activity/kinds.h"

#include "common/no_destructor.h"

namespace mspti::activity {

size_t RecordSize(int64_t kind) {
    switch (kind) {
        case MSPTI_ACTIVITY_KIND_MARKER: return sizeof(msptiActivityMarker);
        case MSPTI_ACTIVITY_KIND_KERNEL: return sizeof(msptiActivityKernel);
        case MSPTI_ACTIVITY_KIND_API:
        case MSPTI_ACTIVITY_KIND_ACL_API:
        case MSPTI_ACTIVITY_KIND_NODE_API:
        case MSPTI_ACTIVITY_KIND_RUNTIME_API: return sizeof(msptiActivityApi);
        case MSPTI_ACTIVITY_KIND_HCCL: return sizeof(msptiActivityHccl);
        case MSPTI_ACTIVITY_KIND_MEMORY: return sizeof(msptiActivityMemory);
        case MSPTI_ACTIVITY_KIND_MEMSET: return sizeof(msptiActivityMemset);
        case MSPTI_ACTIVITY_KIND_MEMCPY: return sizeof(msptiActivityMemcpy);
        case MSPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION: return sizeof(msptiActivityExternalCorrelation);
        case MSPTI_ACTIVITY_KIND_COMMUNICATION: return sizeof(msptiActivityCommunication);
        default: return 0;
    }
}

KindSwitches& Kinds() {
    static NoDestructor<KindSwitches> switches;
    return switches.get();
}

}  // namespace mspti::activity
