// A translation unit that includes hccl/hccl.h and nothing else, as CANN's HCCL examples do: the
// runtime calls come through hccl.h, which includes acl/acl.h. Exits 0 when both units worked.
#include "hccl/hccl.h"

int securec_user(void);  // cann_include_securec.cpp

int main() {
    if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) return 1;
    void* buf = nullptr;
    if (aclrtMalloc(&buf, 64, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return 1;
    // hccl.h's own operations are strong symbols and make libhccl a dependency (the communicator
    // functions of hccl_comm.h are weak, as CANN's are); a call without a communicator is refused.
    const HcclResult refused = HcclAllReduce(buf, buf, 1, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, nullptr, nullptr);
    HcclRootInfo root;
    const HcclResult st = HcclGetRootInfo(&root);
    aclrtStreamStatus status = ACL_STREAM_STATUS_RESERVED;
    const aclError query = aclrtStreamQuery(nullptr, &status);
    if (aclrtFree(buf) != ACL_SUCCESS || aclrtResetDeviceForce(0) != ACL_SUCCESS) return 1;
    (void)aclFinalize();
    if (refused != HCCL_E_PTR || st != HCCL_SUCCESS || query != ACL_SUCCESS || status != ACL_STREAM_STATUS_COMPLETE)
        return 1;
    return securec_user();
}
