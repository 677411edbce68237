/*
 * Node-level reports (level 10000, type 5) that the program makes itself through libprofapi, the
 * way an operator library reports a node launch after the launch calls it made. With or without
 * interposition (the harness decides), on either clock:
 *   1. node_one:  [t0, t1] around one aclrtLaunchKernel                 -> that launch's id
 *   2. node_two:  [t0, t1] around two aclrtLaunchKernel calls           -> the first launch's id
 *   3. node_none: a launch, then a node report that begins where the launch ended (the same instant
 *      on a virtual clock) and contains only aclrtBinaryGetFunction     -> not the launch's id
 */
#include <acl/acl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "collector.h"
#include "seam/profapi.h"

static uint32_t tid(void) { return (uint32_t)syscall(SYS_gettid); }

static void report_node(const char* name, uint64_t begin, uint64_t end) {
    struct MsprofApi api;
    memset(&api, 0, sizeof api);
    api.magicNumber = MSPROF_REPORT_DATA_MAGIC_NUM;
    api.level = MSPROF_REPORT_NODE_LEVEL;
    api.type = MSPROF_REPORT_NODE_LAUNCH_TYPE;
    api.threadId = tid();
    api.beginTime = begin;
    api.endTime = end;
    api.itemId = MsprofGetHashId(name, strlen(name));
    CHECK_EQ(MsprofReportApi(1, &api), 0);
}

int main(void) {
    CHECK_EQ(aclInit(NULL), ACL_SUCCESS);
    msptiSubscriberHandle sub = NULL;
    CHECK_EQ(msptiSubscribe(&sub, NULL, NULL), MSPTI_SUCCESS);
    CHECK(collector_register());
    const msptiActivityKind kinds[] = {MSPTI_ACTIVITY_KIND_KERNEL, MSPTI_ACTIVITY_KIND_API, MSPTI_ACTIVITY_KIND_ACL_API,
                                       MSPTI_ACTIVITY_KIND_NODE_API, MSPTI_ACTIVITY_KIND_RUNTIME_API};
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; ++i) CHECK_EQ(msptiActivityEnable(kinds[i]), MSPTI_SUCCESS);

    CHECK_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    aclrtStream stream = NULL;
    CHECK_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    static const char image[] = "image";
    aclrtBinHandle bin = NULL;
    aclrtFuncHandle fn = NULL;
    CHECK_EQ(aclrtBinaryLoadFromData(image, sizeof image, NULL, &bin), ACL_SUCCESS);
    CHECK_EQ(aclrtBinaryGetFunction(bin, "vec_add", &fn), ACL_SUCCESS);
    uint64_t args[2] = {0, 0};

    uint64_t t0 = MsprofSysCycleTime();
    CHECK_EQ(aclrtLaunchKernel(fn, 4, args, sizeof args, stream), ACL_SUCCESS);
    report_node("node_one", t0, MsprofSysCycleTime());

    t0 = MsprofSysCycleTime();
    CHECK_EQ(aclrtLaunchKernel(fn, 4, args, sizeof args, stream), ACL_SUCCESS);
    CHECK_EQ(aclrtLaunchKernel(fn, 4, args, sizeof args, stream), ACL_SUCCESS);
    report_node("node_two", t0, MsprofSysCycleTime());

    CHECK_EQ(aclrtLaunchKernel(fn, 4, args, sizeof args, stream), ACL_SUCCESS);
    t0 = MsprofSysCycleTime();
    aclrtFuncHandle again = NULL;
    CHECK_EQ(aclrtBinaryGetFunction(bin, "vec_add", &again), ACL_SUCCESS);
    report_node("node_none", t0, MsprofSysCycleTime());

    CHECK_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    CHECK_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
    CHECK_EQ(aclrtResetDevice(0), ACL_SUCCESS);
    CHECK_EQ(msptiUnsubscribe(sub), MSPTI_SUCCESS);
    CHECK_EQ(msptiActivityFlushAll(1), MSPTI_SUCCESS);
    collector_summary();
    printf("P tid=%u\n", tid());
    return 0;
}
