// HCCL operations seen through msPTI (run with libmspti.so preloaded): two ranks (threads)
// all-reduce and broadcast while COMMUNICATION (kind 9) and HCCL (kind 4) activities are
// enabled. Prints one line per record:
//   COMM NAME ALG COMM DTYPE COUNT DEVICE STREAM START END
//   HCCL NAME COMM DEVICE STREAM START END
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "hccl/hccl.h"
#include "mspti/mspti.h"

namespace {

void request(uint8_t** buffer, size_t* size, size_t* max_records) {
    *size = 1 << 20;
    *buffer = static_cast<uint8_t*>(std::aligned_alloc(8, *size));
    *max_records = 0;
}

void complete(uint8_t* buffer, size_t, size_t valid) {
    msptiActivity* r = nullptr;
    while (msptiActivityGetNextRecord(buffer, valid, &r) == MSPTI_SUCCESS) {
        if (r->kind == MSPTI_ACTIVITY_KIND_COMMUNICATION) {
            const auto* c = reinterpret_cast<const msptiActivityCommunication*>(r);
            std::printf("COMM %s %s %s %d %" PRIu64 " %u %u %" PRIu64 " %" PRIu64 "\n", c->name, c->algType,
                        c->commName, int(c->dataType), c->count, c->ds.deviceId, c->ds.streamId, c->start, c->end);
        } else if (r->kind == MSPTI_ACTIVITY_KIND_HCCL) {
            const auto* h = reinterpret_cast<const msptiActivityHccl*>(r);
            std::printf("HCCL %s %s %u %u %" PRIu64 " %" PRIu64 "\n", h->name, h->commName, h->ds.deviceId,
                        h->ds.streamId, h->start, h->end);
        }
    }
    std::free(buffer);
}

}  // namespace

int main() {
    if (aclInit(nullptr) != ACL_SUCCESS) return 2;
    msptiSubscriberHandle subscriber = nullptr;
    if (msptiSubscribe(&subscriber, nullptr, nullptr) != MSPTI_SUCCESS) return 3;
    msptiActivityRegisterCallbacks(request, complete);
    msptiActivityEnable(MSPTI_ACTIVITY_KIND_COMMUNICATION);
    msptiActivityEnable(MSPTI_ACTIVITY_KIND_HCCL);
    HcclRootInfo root;
    if (HcclGetRootInfo(&root) != HCCL_SUCCESS) return 4;
    std::vector<std::thread> ranks;
    std::vector<int> ok(2, 0);
    for (uint32_t r = 0; r < 2; ++r) {
        ranks.emplace_back([&, r] {
            aclrtSetDevice(int32_t(r));
            aclrtStream stream = nullptr;
            aclrtCreateStream(&stream);
            HcclComm comm = nullptr;
            if (HcclCommInitRootInfo(2, &root, r, &comm) != HCCL_SUCCESS) return;
            void* a = nullptr;
            void* b = nullptr;
            aclrtMalloc(&a, 4096, ACL_MEM_MALLOC_HUGE_FIRST);
            aclrtMalloc(&b, 4096, ACL_MEM_MALLOC_HUGE_FIRST);
            ok[r] = HcclAllReduce(a, b, 1024, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, stream) == HCCL_SUCCESS &&
                    HcclBroadcast(a, 100, HCCL_DATA_TYPE_INT8, 0, comm, stream) == HCCL_SUCCESS;
            aclrtSynchronizeStream(stream);
            aclrtFree(a);
            aclrtFree(b);
            HcclCommDestroy(comm);
            aclrtDestroyStream(stream);
        });
    }
    for (auto& t : ranks) t.join();
    msptiActivityFlushAll(1);
    msptiUnsubscribe(subscriber);
    return ok[0] && ok[1] ? 0 : 5;
}
