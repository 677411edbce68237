/* mstx marks and ranges with a stream: host records plus device records from the step-trace channel. */
#include <acl/acl.h>

#include "collector.h"
#include "mstx/ms_tools_ext.h"

int main(int argc, char** argv) {
    const int disable_instead_of_flush = argc > 1 && atoi(argv[1]) == 1;
    CHECK_EQ(aclInit(NULL), ACL_SUCCESS);
    msptiSubscriberHandle sub = NULL;
    CHECK_EQ(msptiSubscribe(&sub, NULL, NULL), MSPTI_SUCCESS);
    CHECK(collector_register());
    CHECK_EQ(msptiActivityEnable(MSPTI_ACTIVITY_KIND_MARKER), MSPTI_SUCCESS);
    CHECK_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    aclrtStream stream = NULL;
    CHECK_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    int32_t stream_id = -1;
    CHECK_EQ(aclrtStreamGetId(stream, &stream_id), ACL_SUCCESS);

    mstxMarkA("device-mark", stream);
    mstxRangeId r = mstxRangeStartA("device-range", stream);
    mstxMarkA("host-only", NULL);
    mstxRangeEnd(r);
    mstxDomainHandle_t d = mstxDomainCreateA("dom");
    mstxRangeId r2 = mstxDomainRangeStartA(d, "domain-range", stream);
    mstxDomainRangeEnd(d, r2);
    CHECK_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    if (disable_instead_of_flush) {
        /* Disable drains the kind's channel before switching off. */
        CHECK_EQ(msptiActivityDisable(MSPTI_ACTIVITY_KIND_MARKER), MSPTI_SUCCESS);
    }
    CHECK_EQ(msptiActivityFlushAll(1), MSPTI_SUCCESS);
    printf("P stream=%d\n", stream_id);
    collector_summary();
    CHECK_EQ(msptiUnsubscribe(sub), MSPTI_SUCCESS);
    CHECK_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
    CHECK_EQ(aclrtResetDevice(0), ACL_SUCCESS);
    return 0;
}
