/*
 * A stand-in libhccl.so for the HCCL tests while the simulator's HCCL is not available: each
 * collective puts one short kernel on the stream (so the operation takes device time between the
 * hidden start and end markers msPTI places around it) and returns success. The communicator
 * is named "fake_comm_0" and has 4 ranks.
 */
#include <acl/acl.h>
#include <string.h>

#include "hccl/hccl.h"
#include "hccl/hccl_comm.h"

#define EXPORT __attribute__((visibility("default")))

static HcclResult device_work(aclrtStream stream) {
    static aclrtFuncHandle fn = NULL;
    if (fn == NULL) {
        static const char image[] = "hccl kernels";
        aclrtBinHandle bin = NULL;
        if (aclrtBinaryLoadFromData(image, sizeof image, NULL, &bin) != ACL_SUCCESS) return HCCL_E_RUNTIME;
        if (aclrtBinaryGetFunction(bin, "hccl_fake_kernel", &fn) != ACL_SUCCESS) return HCCL_E_RUNTIME;
    }
    unsigned long long args[2] = {0, 0};
    return aclrtLaunchKernel(fn, 1, args, sizeof args, stream) == ACL_SUCCESS ? HCCL_SUCCESS : HCCL_E_RUNTIME;
}

EXPORT HcclResult HcclGetCommName(HcclComm comm, char* commName) {
    (void)comm;
    strcpy(commName, "fake_comm_0");
    return HCCL_SUCCESS;
}
EXPORT HcclResult HcclGetRankSize(HcclComm comm, uint32_t* rankSize) {
    (void)comm;
    *rankSize = 4;
    return HCCL_SUCCESS;
}
EXPORT HcclResult HcclAllReduce(void* s, void* r, uint64_t c, HcclDataType t, HcclReduceOp o, HcclComm m,
                                aclrtStream st) {
    (void)s, (void)r, (void)c, (void)t, (void)o, (void)m;
    return device_work(st);
}
EXPORT HcclResult HcclBroadcast(void* b, uint64_t c, HcclDataType t, uint32_t root, HcclComm m, aclrtStream st) {
    (void)b, (void)c, (void)t, (void)root, (void)m;
    return device_work(st);
}
EXPORT HcclResult HcclAllGather(void* s, void* r, uint64_t c, HcclDataType t, HcclComm m, aclrtStream st) {
    (void)s, (void)r, (void)c, (void)t, (void)m;
    return device_work(st);
}
EXPORT HcclResult HcclReduceScatter(void* s, void* r, uint64_t c, HcclDataType t, HcclReduceOp o, HcclComm m,
                                    aclrtStream st) {
    (void)s, (void)r, (void)c, (void)t, (void)o, (void)m;
    return device_work(st);
}
EXPORT HcclResult HcclReduce(void* s, void* r, uint64_t c, HcclDataType t, HcclReduceOp o, uint32_t root, HcclComm m,
                             aclrtStream st) {
    (void)s, (void)r, (void)c, (void)t, (void)o, (void)root, (void)m;
    return device_work(st);
}
EXPORT HcclResult HcclAlltoAll(const void* s, uint64_t sc, HcclDataType st_, const void* r, uint64_t rc,
                               HcclDataType rt, HcclComm m, aclrtStream st) {
    (void)s, (void)sc, (void)st_, (void)r, (void)rc, (void)rt, (void)m;
    return device_work(st);
}
EXPORT HcclResult HcclAlltoAllV(const void* s, const void* sc, const void* sd, HcclDataType stp, const void* r,
                                const void* rc, const void* rd, HcclDataType rtp, HcclComm m, aclrtStream st) {
    (void)s, (void)sc, (void)sd, (void)stp, (void)r, (void)rc, (void)rd, (void)rtp, (void)m;
    return device_work(st);
}
EXPORT HcclResult HcclBarrier(HcclComm m, aclrtStream st) {
    (void)m;
    return device_work(st);
}
EXPORT HcclResult HcclScatter(void* s, void* r, uint64_t c, HcclDataType t, uint32_t root, HcclComm m, aclrtStream st) {
    (void)s, (void)r, (void)c, (void)t, (void)root, (void)m;
    return device_work(st);
}
EXPORT HcclResult HcclSend(void* b, uint64_t c, HcclDataType t, uint32_t peer, HcclComm m, aclrtStream st) {
    (void)b, (void)c, (void)t, (void)peer, (void)m;
    return device_work(st);
}
EXPORT HcclResult HcclRecv(void* b, uint64_t c, HcclDataType t, uint32_t peer, HcclComm m, aclrtStream st) {
    (void)b, (void)c, (void)t, (void)peer, (void)m;
    return device_work(st);
}
EXPORT HcclResult HcclBatchSendRecv(HcclSendRecvItem* items, uint32_t n, HcclComm m, aclrtStream st) {
    (void)items, (void)n, (void)m;
    return device_work(st);
}
