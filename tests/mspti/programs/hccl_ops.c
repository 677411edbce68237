/*
 * Every interposed HCCL operation once (the library behind them is fake_hccl.c): HCCL records with
 * device times and bandwidth, HCCL-domain callbacks, hidden markers that never show as MARKER.
 */
#include <acl/acl.h>

#include "callback_log.h"
#include "hccl/hccl.h"

int main(void) {
    CHECK_EQ(aclInit(NULL), ACL_SUCCESS);
    msptiSubscriberHandle sub = NULL;
    CHECK_EQ(msptiSubscribe(&sub, callback_log, (void*)0x1234), MSPTI_SUCCESS);
    CHECK_EQ(msptiEnableDomain(1, sub, MSPTI_CB_DOMAIN_HCCL), MSPTI_SUCCESS);
    CHECK(collector_register());
    CHECK_EQ(msptiActivityEnable(MSPTI_ACTIVITY_KIND_HCCL), MSPTI_SUCCESS);
    CHECK_EQ(msptiActivityEnable(MSPTI_ACTIVITY_KIND_MARKER), MSPTI_SUCCESS);
    CHECK_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    aclrtStream stream = NULL;
    CHECK_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    HcclComm comm = (HcclComm)0x1;
    char buf[64];
    uint64_t counts[4] = {10, 20, 30, 40};   /* sum 100 */
    uint64_t rcounts[4] = {5, 5, 5, 5};      /* sum 20 */
    uint64_t displs[4] = {0, 0, 0, 0};
    HcclSendRecvItem items[2] = {{HCCL_SEND, buf, 8, HCCL_DATA_TYPE_INT64, 1},
                                 {HCCL_RECV, buf, 16, HCCL_DATA_TYPE_FP16, 2}};

    CHECK_EQ(HcclAllReduce(buf, buf, 1000, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, stream), HCCL_SUCCESS);
    CHECK_EQ(HcclBroadcast(buf, 1000, HCCL_DATA_TYPE_INT8, 0, comm, stream), HCCL_SUCCESS);
    CHECK_EQ(HcclAllGather(buf, buf, 100, HCCL_DATA_TYPE_FP16, comm, stream), HCCL_SUCCESS);
    CHECK_EQ(HcclReduceScatter(buf, buf, 100, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, stream), HCCL_SUCCESS);
    CHECK_EQ(HcclReduce(buf, buf, 100, HCCL_DATA_TYPE_INT64, HCCL_REDUCE_MAX, 0, comm, stream), HCCL_SUCCESS);
    CHECK_EQ(HcclAlltoAll(buf, 10, HCCL_DATA_TYPE_INT32, buf, 10, HCCL_DATA_TYPE_INT32, comm, stream), HCCL_SUCCESS);
    CHECK_EQ(HcclAlltoAllV(buf, counts, displs, HCCL_DATA_TYPE_FP32, buf, rcounts, displs, HCCL_DATA_TYPE_FP32, comm,
                           stream),
             HCCL_SUCCESS);
    CHECK_EQ(HcclBarrier(comm, stream), HCCL_SUCCESS);
    CHECK_EQ(HcclScatter(buf, buf, 50, HCCL_DATA_TYPE_BFP16, 0, comm, stream), HCCL_SUCCESS);
    CHECK_EQ(HcclSend(buf, 64, HCCL_DATA_TYPE_UINT8, 1, comm, stream), HCCL_SUCCESS);
    CHECK_EQ(HcclRecv(buf, 64, HCCL_DATA_TYPE_UINT16, 1, comm, stream), HCCL_SUCCESS);
    CHECK_EQ(HcclBatchSendRecv(items, 2, comm, stream), HCCL_SUCCESS);
    CHECK_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    CHECK_EQ(msptiActivityFlushAll(1), MSPTI_SUCCESS);
    int32_t stream_id = -1;
    CHECK_EQ(aclrtStreamGetId(stream, &stream_id), ACL_SUCCESS);
    printf("P stream=%d\n", stream_id);
    collector_summary();
    CHECK_EQ(msptiUnsubscribe(sub), MSPTI_SUCCESS);
    return 0;
}
