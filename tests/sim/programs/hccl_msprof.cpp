// A CANN program with a collective, for msprof's application mode (`msprof --application=PROGRAM`):
// two ranks (threads, devices 0 and 1) each launch kern_comm twice, then all-reduce twice (1024
// FP32) and broadcast once (100 INT8) on their stream, and synchronise. No aclprof call: msprof's
// application mode collects the process from aclInit to its exit. Prints "ranks ok" on success.
#include <cstdio>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "hccl/hccl.h"

namespace {

bool rank_work(uint32_t rank, const HcclRootInfo& root) {
    static const unsigned char image[] = {1, 2, 3};
    if (aclrtSetDevice(static_cast<int32_t>(rank)) != ACL_SUCCESS) return false;
    aclrtStream stream = nullptr;
    aclrtBinHandle bin = nullptr;
    aclrtFuncHandle kernel = nullptr;
    if (aclrtCreateStream(&stream) != ACL_SUCCESS ||
        aclrtBinaryLoadFromData(image, sizeof image, nullptr, &bin) != ACL_SUCCESS ||
        aclrtBinaryGetFunction(bin, "kern_comm", &kernel) != ACL_SUCCESS) {
        return false;
    }
    HcclComm comm = nullptr;
    if (HcclCommInitRootInfo(2, &root, rank, &comm) != HCCL_SUCCESS) return false;
    void* a = nullptr;
    void* b = nullptr;
    bool ok = aclrtMalloc(&a, 4096, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS &&
              aclrtMalloc(&b, 4096, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS;
    for (int i = 0; ok && i < 2; ++i) ok = aclrtLaunchKernel(kernel, 4, nullptr, 0, stream) == ACL_SUCCESS;
    for (int i = 0; ok && i < 2; ++i) {
        ok = HcclAllReduce(a, b, 1024, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, stream) == HCCL_SUCCESS;
    }
    ok = ok && HcclBroadcast(a, 100, HCCL_DATA_TYPE_INT8, 0, comm, stream) == HCCL_SUCCESS;
    ok = ok && aclrtSynchronizeStream(stream) == ACL_SUCCESS;
    aclrtFree(a);
    aclrtFree(b);
    HcclCommDestroy(comm);
    aclrtDestroyStream(stream);
    return ok;
}

}  // namespace

int main() {
    if (aclInit(nullptr) != ACL_SUCCESS) return 2;
    HcclRootInfo root;
    if (HcclGetRootInfo(&root) != HCCL_SUCCESS) return 3;
    std::vector<int> ok(2, 0);
    std::vector<std::thread> ranks;
    for (uint32_t r = 0; r < 2; ++r) ranks.emplace_back([&, r] { ok[r] = rank_work(r, root) ? 1 : 0; });
    for (auto& t : ranks) t.join();
    aclFinalize();
    if (!(ok[0] && ok[1])) return 4;
    std::printf("ranks ok\n");
    return 0;
}
