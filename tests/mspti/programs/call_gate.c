/*
 * The interposers' gate (common/call_gate.h): while no kind produces records and no callback is
 * enabled, an interposed call only calls the real function; it is observed again as soon as a
 * kind or a callback is switched on, and no longer once both are off or the subscription ended.
 * Each phase launches one kernel and prints "P phase=N" after a flush; the test checks which
 * callbacks and records each phase produced.
 */
#include <acl/acl.h>

#include "callback_log.h"

static aclrtFuncHandle g_fn;
static aclrtStream g_stream;
static uint64_t g_args[2];

static void launch_and_mark(int n) {
    CHECK_EQ(aclrtLaunchKernel(g_fn, 2, g_args, sizeof g_args, g_stream), ACL_SUCCESS);
    CHECK_EQ(aclrtSynchronizeStream(g_stream), ACL_SUCCESS);
    CHECK_EQ(msptiActivityFlushAll(1), MSPTI_SUCCESS);
    printf("P phase=%d\n", n);
    fflush(stdout);
}

int main(void) {
    CHECK_EQ(aclInit(NULL), ACL_SUCCESS);
    CHECK(collector_register());
    CHECK_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    CHECK_EQ(aclrtCreateStream(&g_stream), ACL_SUCCESS);
    static const char image[] = "image";
    aclrtBinHandle bin = NULL;
    CHECK_EQ(aclrtBinaryLoadFromData(image, sizeof image, NULL, &bin), ACL_SUCCESS);
    CHECK_EQ(aclrtBinaryGetFunction(bin, "gate_kernel", &g_fn), ACL_SUCCESS);

    msptiSubscriberHandle sub = NULL;
    CHECK_EQ(msptiSubscribe(&sub, callback_log, (void*)0x1234), MSPTI_SUCCESS);
    /* 0: subscribed, nothing enabled. */
    launch_and_mark(0);
    /* 1: the launch callback on. */
    CHECK_EQ(msptiEnableCallback(1, sub, MSPTI_CB_DOMAIN_RUNTIME, MSPTI_CBID_RUNTIME_LAUNCH), MSPTI_SUCCESS);
    launch_and_mark(1);
    /* 2: the callback off again, RUNTIME_API on. */
    CHECK_EQ(msptiEnableCallback(0, sub, MSPTI_CB_DOMAIN_RUNTIME, MSPTI_CBID_RUNTIME_LAUNCH), MSPTI_SUCCESS);
    CHECK_EQ(msptiActivityEnable(MSPTI_ACTIVITY_KIND_RUNTIME_API), MSPTI_SUCCESS);
    launch_and_mark(2);
    /* 3: everything off. */
    CHECK_EQ(msptiActivityDisable(MSPTI_ACTIVITY_KIND_RUNTIME_API), MSPTI_SUCCESS);
    launch_and_mark(3);
    /* 4: the whole runtime domain on. */
    CHECK_EQ(msptiEnableDomain(1, sub, MSPTI_CB_DOMAIN_RUNTIME), MSPTI_SUCCESS);
    launch_and_mark(4);
    /* 5: unsubscribed with the domain on: the subscription's callbacks end with it. */
    CHECK_EQ(msptiUnsubscribe(sub), MSPTI_SUCCESS);
    launch_and_mark(5);

    CHECK_EQ(aclrtDestroyStream(g_stream), ACL_SUCCESS);
    CHECK_EQ(aclrtResetDevice(0), ACL_SUCCESS);
    collector_summary();
    return 0;
}
