/*
 * Subscription and switch lifecycle on the simulated runtime:
 *  - a launch made while KERNEL is off gives no record even if KERNEL is on when it runs;
 *  - Disable(MARKER) stops marks at once;
 *  - unsubscribe keeps the switches, FlushAll after it still delivers;
 *  - a second subscribe/workload cycle collects again (device known from the first cycle);
 *  - without a subscriber, interposed kinds (MEMORY) still record, CANN-sourced ones do not.
 * Phases are separated by "P phase=N" lines; each record line follows the phase it belongs to.
 */
#include <acl/acl.h>

#include "callback_log.h"
#include "mstx/ms_tools_ext.h"

static aclrtFuncHandle g_fn;
static aclrtStream g_stream;
static uint64_t g_args[2];

static void launch(int n) {
    for (int i = 0; i < n; ++i) CHECK_EQ(aclrtLaunchKernel(g_fn, 2, g_args, sizeof g_args, g_stream), ACL_SUCCESS);
}

static void phase(int n) {
    CHECK_EQ(msptiActivityFlushAll(1), MSPTI_SUCCESS);
    printf("P phase=%d\n", n);
    fflush(stdout);
}

int main(void) {
    CHECK_EQ(aclInit(NULL), ACL_SUCCESS);
    CHECK(collector_register());
    /* Phase 0: no subscriber. MEMORY (interposed) records, MARKER (routed by a subscriber) does not. */
    CHECK_EQ(msptiActivityEnable(MSPTI_ACTIVITY_KIND_MEMORY), MSPTI_SUCCESS);
    CHECK_EQ(msptiActivityEnable(MSPTI_ACTIVITY_KIND_MARKER), MSPTI_SUCCESS);
    CHECK_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    void* p = NULL;
    CHECK_EQ(aclrtMalloc(&p, 32, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    CHECK_EQ(aclrtFree(p), ACL_SUCCESS);
    mstxMarkA("unsubscribed", NULL);
    phase(0);

    CHECK_EQ(aclrtCreateStream(&g_stream), ACL_SUCCESS);
    static const char image[] = "image";
    aclrtBinHandle bin = NULL;
    CHECK_EQ(aclrtBinaryLoadFromData(image, sizeof image, NULL, &bin), ACL_SUCCESS);
    CHECK_EQ(aclrtBinaryGetFunction(bin, "cycle_kernel", &g_fn), ACL_SUCCESS);

    /* Phase 1: first cycle. */
    msptiSubscriberHandle sub = NULL;
    CHECK_EQ(msptiSubscribe(&sub, NULL, NULL), MSPTI_SUCCESS);
    CHECK_EQ(msptiActivityEnable(MSPTI_ACTIVITY_KIND_KERNEL), MSPTI_SUCCESS);
    launch(2);
    mstxMarkA("cycle-1", NULL);
    CHECK_EQ(aclrtSynchronizeStream(g_stream), ACL_SUCCESS);
    phase(1);

    /* Phase 2: a launch with KERNEL off, enabled again before the device ran it. */
    CHECK_EQ(msptiActivityDisable(MSPTI_ACTIVITY_KIND_KERNEL), MSPTI_SUCCESS);
    launch(1);
    CHECK_EQ(msptiActivityEnable(MSPTI_ACTIVITY_KIND_KERNEL), MSPTI_SUCCESS);
    CHECK_EQ(aclrtSynchronizeStream(g_stream), ACL_SUCCESS);
    CHECK_EQ(msptiActivityDisable(MSPTI_ACTIVITY_KIND_MARKER), MSPTI_SUCCESS);
    for (int i = 0; i < 10; ++i) mstxMarkA("after-disable", NULL);
    CHECK_EQ(msptiActivityEnable(MSPTI_ACTIVITY_KIND_MARKER), MSPTI_SUCCESS);
    phase(2);

    /* Phase 3: work, unsubscribe, then flush: nothing lost; switches stay on. */
    launch(3);
    mstxMarkA("before-unsubscribe", NULL);
    CHECK_EQ(aclrtSynchronizeStream(g_stream), ACL_SUCCESS);
    CHECK_EQ(msptiUnsubscribe(sub), MSPTI_SUCCESS);
    CHECK(msptiActivityIsEnabled(MSPTI_ACTIVITY_KIND_KERNEL));
    CHECK(msptiActivityIsEnabled(MSPTI_ACTIVITY_KIND_MARKER));
    phase(3);

    /* Phase 4: unsubscribed: no kernels, no markers. */
    launch(1);
    mstxMarkA("unsubscribed-again", NULL);
    CHECK_EQ(aclrtSynchronizeStream(g_stream), ACL_SUCCESS);
    phase(4);

    /* Phase 5: second cycle, without enabling anything again. */
    CHECK_EQ(msptiSubscribe(&sub, NULL, NULL), MSPTI_SUCCESS);
    launch(2);
    mstxMarkA("cycle-2", NULL);
    CHECK_EQ(aclrtSynchronizeStream(g_stream), ACL_SUCCESS);
    phase(5);

    CHECK_EQ(msptiUnsubscribe(sub), MSPTI_SUCCESS);
    CHECK_EQ(aclrtDestroyStream(g_stream), ACL_SUCCESS);
    CHECK_EQ(aclrtResetDevice(0), ACL_SUCCESS);
    collector_summary();
    return 0;
}
