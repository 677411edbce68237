// hccl_client: an HCCL program written the way CANN's HCCL examples are. It includes hccl/hccl.h and
// nothing of the runtime's (CANN's hccl.h brings acl/acl.h), runs one rank per device on its own
// thread from one root info, all-reduces each rank's 0..7 and checks every rank got the sums.
// Built by the Makefile beside it (g++ -lhccl -lascendcl, as the examples' Makefiles do).
#include "hccl/hccl.h"

#include <cstdio>
#include <memory>
#include <thread>
#include <vector>

namespace {

constexpr uint64_t kCount = 8;

int rank_main(const HcclRootInfo* root, uint32_t rank, uint32_t ranks, bool* ok) {
    *ok = false;
    if (aclrtSetDevice(static_cast<int32_t>(rank)) != ACL_SUCCESS) return 1;
    const size_t bytes = kCount * sizeof(float);
    void* send = nullptr;
    void* recv = nullptr;
    if (aclrtMalloc(&send, bytes, ACL_MEM_MALLOC_HUGE_ONLY) != ACL_SUCCESS) return 1;
    if (aclrtMalloc(&recv, bytes, ACL_MEM_MALLOC_HUGE_ONLY) != ACL_SUCCESS) return 1;
    std::vector<float> host(kCount);
    for (uint64_t i = 0; i < kCount; ++i) host[i] = static_cast<float>(i);
    if (aclrtMemcpy(send, bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS) return 1;
    HcclComm comm = nullptr;
    if (HcclCommInitRootInfo(ranks, root, rank, &comm) != HCCL_SUCCESS) return 1;
    aclrtStream stream = nullptr;
    if (aclrtCreateStream(&stream) != ACL_SUCCESS) return 1;
    if (HcclAllReduce(send, recv, kCount, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, stream) != HCCL_SUCCESS) return 1;
    if (aclrtSynchronizeStream(stream) != ACL_SUCCESS) return 1;
    aclrtStreamStatus status = ACL_STREAM_STATUS_RESERVED;
    if (aclrtStreamQuery(stream, &status) != ACL_SUCCESS || status != ACL_STREAM_STATUS_COMPLETE) return 1;
    if (aclrtMemcpy(host.data(), bytes, recv, bytes, ACL_MEMCPY_DEVICE_TO_HOST) != ACL_SUCCESS) return 1;
    bool right = true;
    for (uint64_t i = 0; i < kCount; ++i) right = right && host[i] == static_cast<float>(i * ranks);
    (void)HcclCommDestroy(comm);
    (void)aclrtDestroyStream(stream);
    (void)aclrtFree(send);
    (void)aclrtFree(recv);
    (void)aclrtResetDeviceForce(static_cast<int32_t>(rank));
    *ok = right;
    return 0;
}

}  // namespace

int main() {
    if (aclInit(nullptr) != ACL_SUCCESS) return 1;
    uint32_t devices = 0;
    if (aclrtGetDeviceCount(&devices) != ACL_SUCCESS || devices == 0) return 1;
    if (aclrtSetDevice(0) != ACL_SUCCESS) return 1;
    HcclRootInfo root;
    if (HcclGetRootInfo(&root) != HCCL_SUCCESS) return 1;
    std::vector<std::thread> threads;
    std::unique_ptr<bool[]> ok(new bool[devices]());
    for (uint32_t rank = 0; rank < devices; ++rank)
        threads.emplace_back([&, rank] { (void)rank_main(&root, rank, devices, &ok[rank]); });
    for (std::thread& t : threads) t.join();
    unsigned right = 0;
    for (uint32_t rank = 0; rank < devices; ++rank) right += ok[rank] ? 1 : 0;
    std::printf("all-reduce over %u ranks: %u right\n", devices, right);
    (void)aclrtResetDeviceForce(0);
    (void)aclFinalize();
    if (right != devices) return 1;
    std::printf("hccl_client: OK\n");
    return 0;
}
