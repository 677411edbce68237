/*
 * Collectives that fail on the device: HcclCommInitAll over two devices from one thread.
 *   mismatch  the ranks' all-reduce counts differ: both synchronisations fail (507049)
 *   timeout   only rank 0 calls its all-reduce (HCCL_EXEC_TIMEOUT=1): its synchronisation fails (507048)
 * Then one good all-reduce pair. HCCL and COMMUNICATION records are collected; every record the
 * failed operations produced is either delivered or counted as dropped, by reason.
 */
#include <acl/acl.h>

#include <string.h>

#include "collector.h"
#include "hccl/hccl.h"

#define COUNT 256

static void print_drops(void) {
    const msptiActivityKind kinds[2] = {MSPTI_ACTIVITY_KIND_HCCL, MSPTI_ACTIVITY_KIND_COMMUNICATION};
    const char* names[2] = {"hccl", "communication"};
    for (int k = 0; k < 2; ++k) {
        for (int reason = 1; reason < MSPTI_DROP_REASON_COUNT; ++reason) {
            uint64_t n = 0;
            CHECK_EQ(msptiActivityGetDroppedRecordsByReason(kinds[k], (msptiDropReason)reason, &n), MSPTI_SUCCESS);
            printf("P dropped_%s_%d=%" PRIu64 "\n", names[k], reason, n);
        }
    }
}

int main(int argc, char** argv) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    const int timeout = argc > 1 && strcmp(argv[1], "timeout") == 0;
    CHECK_EQ(aclInit(NULL), ACL_SUCCESS);
    msptiSubscriberHandle sub = NULL;
    CHECK_EQ(msptiSubscribe(&sub, NULL, NULL), MSPTI_SUCCESS);
    CHECK(collector_register());
    CHECK_EQ(msptiActivityEnable(MSPTI_ACTIVITY_KIND_HCCL), MSPTI_SUCCESS);
    CHECK_EQ(msptiActivityEnable(MSPTI_ACTIVITY_KIND_COMMUNICATION), MSPTI_SUCCESS);
    int32_t devices[2] = {0, 1};
    HcclComm comms[2] = {NULL, NULL};
    CHECK_EQ(HcclCommInitAll(2, devices, comms), HCCL_SUCCESS);
    aclrtStream streams[2] = {NULL, NULL};
    void* buf[2] = {NULL, NULL};
    for (int r = 0; r < 2; ++r) {
        CHECK_EQ(aclrtSetDevice(r), ACL_SUCCESS);
        CHECK_EQ(aclrtCreateStream(&streams[r]), ACL_SUCCESS);
        CHECK_EQ(aclrtMalloc(&buf[r], COUNT * 4, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    }
    const int callers = timeout ? 1 : 2;
    for (int r = 0; r < callers; ++r) {
        CHECK_EQ(aclrtSetDevice(r), ACL_SUCCESS);
        CHECK_EQ(HcclAllReduce(buf[r], buf[r], COUNT - (uint64_t)r, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comms[r],
                               streams[r]),
                 HCCL_SUCCESS);
    }
    for (int r = 0; r < callers; ++r) {
        CHECK_EQ(aclrtSetDevice(r), ACL_SUCCESS);
        printf("P sync%d=%d\n", r, (int)aclrtSynchronizeStream(streams[r]));
    }
    CHECK_EQ(msptiActivityFlushAll(1), MSPTI_SUCCESS);
    printf("P failed_flushed=1\n");
    print_drops();
    if (timeout) {
        /* Rank 1's part of the failed pair would be matched with rank 0's next call: skip it. */
        printf("P good=skipped\n");
    } else {
        for (int r = 0; r < 2; ++r) {
            CHECK_EQ(aclrtSetDevice(r), ACL_SUCCESS);
            CHECK_EQ(HcclAllReduce(buf[r], buf[r], COUNT, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comms[r], streams[r]),
                     HCCL_SUCCESS);
        }
        for (int r = 0; r < 2; ++r) {
            CHECK_EQ(aclrtSetDevice(r), ACL_SUCCESS);
            CHECK_EQ(aclrtSynchronizeStream(streams[r]), ACL_SUCCESS);
        }
    }
    CHECK_EQ(msptiActivityFlushAll(1), MSPTI_SUCCESS);
    collector_summary();
    CHECK_EQ(msptiUnsubscribe(sub), MSPTI_SUCCESS);
    return 0;
}
