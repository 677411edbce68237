/*
 * Kernel launches through the interposed aclrt* functions on the simulated runtime:
 * KERNEL records (type, name, device, stream, times), API-family records, callbacks
 * with their correlation ids, 1:N correlation.
 * argv[1] = launches, argv[2] = launch variant (0 aclrtLaunchKernel, 1 V2, 2 WithHostArgs, 3 WithConfig),
 * argv[3] = 1 to subscribe before the device opens, 0 after, argv[4] = bit mask of the kinds to enable
 * (default KERNEL, API, ACL_API, NODE_API, RUNTIME_API), argv[5] = buffers: "normal", "small" (512 B),
 * "decline2" (the first two requests declined), "null" (all declined), "tiny" (16 B).
 */
#include <acl/acl.h>

#include "callback_log.h"

static aclrtFuncHandle load_function(const char* name) {
    static const char image[] = "simulated kernel image";
    aclrtBinHandle bin = NULL;
    aclrtFuncHandle fn = NULL;
    CHECK_EQ(aclrtBinaryLoadFromData(image, sizeof image, NULL, &bin), ACL_SUCCESS);
    CHECK_EQ(aclrtBinaryGetFunction(bin, name, &fn), ACL_SUCCESS);
    return fn;
}

int main(int argc, char** argv) {
    const int launches = argc > 1 ? atoi(argv[1]) : 4;
    const int variant = argc > 2 ? atoi(argv[2]) : 0;
    const int subscribe_first = argc > 3 ? atoi(argv[3]) : 1;
    const unsigned long mask = argc > 4
                                   ? strtoul(argv[4], NULL, 0)
                                   : (1UL << MSPTI_ACTIVITY_KIND_KERNEL) | (1UL << MSPTI_ACTIVITY_KIND_API) |
                                         (1UL << MSPTI_ACTIVITY_KIND_ACL_API) | (1UL << MSPTI_ACTIVITY_KIND_NODE_API) |
                                         (1UL << MSPTI_ACTIVITY_KIND_RUNTIME_API);

    const char* buffers = argc > 5 ? argv[5] : "normal";
    if (strcmp(buffers, "small") == 0) g_collector.buffer_size = 512;
    if (strcmp(buffers, "decline2") == 0) g_collector.decline_remaining = 2;
    if (strcmp(buffers, "null") == 0) g_collector.decline_all = 1;
    if (strcmp(buffers, "tiny") == 0) g_collector.buffer_size = 16;

    CHECK_EQ(aclInit(NULL), ACL_SUCCESS);
    msptiSubscriberHandle sub = NULL;
    if (subscribe_first) {
        CHECK_EQ(msptiSubscribe(&sub, callback_log, (void*)0x1234), MSPTI_SUCCESS);
        CHECK_EQ(msptiEnableDomain(1, sub, MSPTI_CB_DOMAIN_RUNTIME), MSPTI_SUCCESS);
    }
    CHECK(collector_register());
    for (int k = 1; k < MSPTI_ACTIVITY_KIND_COUNT; ++k) {
        if (mask & (1UL << k)) CHECK_EQ(msptiActivityEnable((msptiActivityKind)k), MSPTI_SUCCESS);
    }

    CHECK_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    if (!subscribe_first) {
        /* The device opened before msPTI subscribed: libprofapi replays it. */
        CHECK_EQ(msptiSubscribe(&sub, callback_log, (void*)0x1234), MSPTI_SUCCESS);
        CHECK_EQ(msptiEnableDomain(1, sub, MSPTI_CB_DOMAIN_RUNTIME), MSPTI_SUCCESS);
    }
    aclrtStream stream = NULL;
    CHECK_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    int32_t stream_id = -1;
    CHECK_EQ(aclrtStreamGetId(stream, &stream_id), ACL_SUCCESS);
    aclrtFuncHandle fn = load_function("add_custom");

    uint64_t args[4] = {0};
    uint64_t t0 = 0;
    msptiGetTimestamp(&t0);
    for (int i = 0; i < launches; ++i) {
        aclError rc = ACL_SUCCESS;
        switch (variant) {
            case 1: rc = aclrtLaunchKernelV2(fn, 8, args, sizeof args, NULL, stream); break;
            case 2: rc = aclrtLaunchKernelWithHostArgs(fn, 8, stream, NULL, args, sizeof args, NULL, 0); break;
            case 3: {
                aclrtArgsHandle handle = NULL;
                aclrtParamHandle param = NULL;
                CHECK_EQ(aclrtKernelArgsInit(fn, &handle), ACL_SUCCESS);
                CHECK_EQ(aclrtKernelArgsAppend(handle, args, sizeof args, &param), ACL_SUCCESS);
                CHECK_EQ(aclrtKernelArgsFinalize(handle), ACL_SUCCESS);
                rc = aclrtLaunchKernelWithConfig(fn, 8, stream, NULL, handle, NULL);
                break;
            }
            default: rc = aclrtLaunchKernel(fn, 8, args, sizeof args, stream); break;
        }
        CHECK_EQ(rc, ACL_SUCCESS);
    }
    CHECK_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    uint64_t t1 = 0;
    msptiGetTimestamp(&t1);
    /* FlushAll drains the device channels: no Disable needed first. */
    CHECK_EQ(msptiActivityFlushAll(1), MSPTI_SUCCESS);
    uint64_t dropped_kernels = 0;
    msptiActivityGetDroppedRecords(MSPTI_ACTIVITY_KIND_KERNEL, &dropped_kernels);
    printf("P pid=%d stream=%d t0=%" PRIu64 " t1=%" PRIu64 " dropped_kernels=%" PRIu64 "\n", (int)getpid(), stream_id,
           t0, t1, dropped_kernels);
    collector_summary();

    CHECK_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
    CHECK_EQ(aclrtResetDevice(0), ACL_SUCCESS);
    CHECK_EQ(msptiUnsubscribe(sub), MSPTI_SUCCESS);
    CHECK_EQ(msptiActivityFlushAll(1), MSPTI_SUCCESS);
    collector_summary();
    return 0;
}
