/*
 * A captured (graph) model executed again and again: two kernels captured on a stream,
 * the model executed argv[1] times. Each execution of each kernel should give one KERNEL
 * record, all executions of a kernel sharing its capture-time correlation id, name and type.
 * Then the model is destroyed and a kernel launched on a new stream, which reuses the model's
 * stream id: that kernel's record is its own, not another execution of the graph.
 * With argv[2] "late", msPTI subscribes only after the capture: the graph's task tracks were
 * reported before it listened, so its executions are work msPTI was never given to record (no
 * record, nothing counted as dropped), while the kernel launched afterwards gets its record.
 */
#include <acl/acl.h>
#include <string.h>

#include "callback_log.h"

static aclrtFuncHandle load_function(aclrtBinHandle bin, const char* name) {
    aclrtFuncHandle fn = NULL;
    CHECK_EQ(aclrtBinaryGetFunction(bin, name, &fn), ACL_SUCCESS);
    return fn;
}

static void subscribe(msptiSubscriberHandle* sub) {
    CHECK_EQ(msptiSubscribe(sub, callback_log, NULL), MSPTI_SUCCESS);
    CHECK_EQ(msptiEnableDomain(1, *sub, MSPTI_CB_DOMAIN_RUNTIME), MSPTI_SUCCESS);
    CHECK(collector_register());
    CHECK_EQ(msptiActivityEnable(MSPTI_ACTIVITY_KIND_KERNEL), MSPTI_SUCCESS);
    CHECK_EQ(msptiActivityEnable(MSPTI_ACTIVITY_KIND_ACL_API), MSPTI_SUCCESS);
}

int main(int argc, char** argv) {
    const int executions = argc > 1 ? atoi(argv[1]) : 3;
    const int late = argc > 2 && strcmp(argv[2], "late") == 0;
    CHECK_EQ(aclInit(NULL), ACL_SUCCESS);
    msptiSubscriberHandle sub = NULL;
    if (!late) subscribe(&sub);
    CHECK_EQ(aclrtSetDevice(0), ACL_SUCCESS);

    static const char image[] = "simulated kernel image";
    aclrtBinHandle bin = NULL;
    CHECK_EQ(aclrtBinaryLoadFromData(image, sizeof image, NULL, &bin), ACL_SUCCESS);
    aclrtFuncHandle add = load_function(bin, "add_custom");
    aclrtFuncHandle mul = load_function(bin, "mul_custom");

    aclrtStream capture = NULL, exec = NULL;
    CHECK_EQ(aclrtCreateStream(&capture), ACL_SUCCESS);
    CHECK_EQ(aclrtCreateStream(&exec), ACL_SUCCESS);
    uint64_t args[2] = {0};
    CHECK_EQ(aclmdlRICaptureBegin(capture, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
    CHECK_EQ(aclrtLaunchKernel(add, 8, args, sizeof args, capture), ACL_SUCCESS);
    CHECK_EQ(aclrtLaunchKernel(mul, 8, args, sizeof args, capture), ACL_SUCCESS);
    aclmdlRI model = NULL;
    CHECK_EQ(aclmdlRICaptureEnd(capture, &model), ACL_SUCCESS);
    if (late) subscribe(&sub);

    uint64_t t0 = 0, t1 = 0;
    msptiGetTimestamp(&t0);
    for (int i = 0; i < executions; ++i) CHECK_EQ(aclmdlRIExecuteAsync(model, exec), ACL_SUCCESS);
    CHECK_EQ(aclrtSynchronizeStream(exec), ACL_SUCCESS);
    msptiGetTimestamp(&t1);

    /* The model is destroyed; a new stream may get its stream's id, and its kernels are its own. */
    CHECK_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
    aclrtStream later = NULL;
    CHECK_EQ(aclrtCreateStream(&later), ACL_SUCCESS);
    int32_t later_id = -1;
    CHECK_EQ(aclrtStreamGetId(later, &later_id), ACL_SUCCESS);
    CHECK_EQ(aclrtLaunchKernel(add, 8, args, sizeof args, later), ACL_SUCCESS);
    CHECK_EQ(aclrtSynchronizeStream(later), ACL_SUCCESS);

    CHECK_EQ(msptiActivityFlushAll(1), MSPTI_SUCCESS);
    uint64_t dropped = 0;
    msptiActivityGetDroppedRecords(MSPTI_ACTIVITY_KIND_KERNEL, &dropped);
    printf("P t0=%" PRIu64 " t1=%" PRIu64 " dropped_kernels=%" PRIu64 " later_stream=%d\n", t0, t1, dropped,
           (int)later_id);
    collector_summary();

    CHECK_EQ(aclrtDestroyStream(later), ACL_SUCCESS);
    CHECK_EQ(aclrtDestroyStream(capture), ACL_SUCCESS);
    CHECK_EQ(aclrtDestroyStream(exec), ACL_SUCCESS);
    CHECK_EQ(aclrtResetDevice(0), ACL_SUCCESS);
    CHECK_EQ(msptiUnsubscribe(sub), MSPTI_SUCCESS);
    /* Unsubscribing stops the channels: what was still waiting to be matched is settled then. */
    uint64_t dropped_at_end = 0;
    msptiActivityGetDroppedRecords(MSPTI_ACTIVITY_KIND_KERNEL, &dropped_at_end);
    printf("P dropped_kernels_at_end=%" PRIu64 "\n", dropped_at_end);
    return 0;
}
