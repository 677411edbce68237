/*
 * Drives the CANN report seam directly, without interposition (the real runtime comes before
 * msPTI in the link order): kernels launched through the real runtime, API reports the program
 * makes itself through libprofapi (node launches, an emulated communication operator), and a
 * report whose name CANN never registered.
 */
#include <acl/acl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "collector.h"
#include "seam/profapi.h"

static uint32_t tid(void) { return (uint32_t)syscall(SYS_gettid); }

static void report_api(uint16_t level, uint32_t type, uint64_t begin, uint64_t end, uint64_t item) {
    struct MsprofApi api;
    memset(&api, 0, sizeof api);
    api.magicNumber = MSPROF_REPORT_DATA_MAGIC_NUM;
    api.level = level;
    api.type = type;
    api.threadId = tid();
    api.beginTime = begin;
    api.endTime = end;
    api.itemId = item;
    CHECK_EQ(MsprofReportApi(1, &api), 0);
}

static void report_op_info(uint8_t data_type, uint64_t count, const char* alg, const char* group) {
    struct MsprofCompactInfo info;
    memset(&info, 0, sizeof info);
    info.magicNumber = MSPROF_REPORT_DATA_MAGIC_NUM;
    info.level = MSPROF_REPORT_NODE_LEVEL;
    info.type = MSPROF_REPORT_NODE_HCCL_OP_INFO_TYPE;
    info.threadId = tid();
    info.dataLen = sizeof(struct MsprofHcclOpInfo);
    info.timeStamp = MsprofSysCycleTime();
    info.data.hcclopInfo.dataType = data_type;
    info.data.hcclopInfo.count = count;
    info.data.hcclopInfo.algType = MsprofGetHashId(alg, strlen(alg));
    info.data.hcclopInfo.groupName = MsprofGetHashId(group, strlen(group));
    CHECK_EQ(MsprofReportCompactInfo(1, &info, sizeof info), 0);
}

int main(void) {
    CHECK_EQ(aclInit(NULL), ACL_SUCCESS);
    msptiSubscriberHandle sub = NULL;
    CHECK_EQ(msptiSubscribe(&sub, NULL, NULL), MSPTI_SUCCESS);
    CHECK(collector_register());
    const msptiActivityKind kinds[] = {MSPTI_ACTIVITY_KIND_KERNEL,      MSPTI_ACTIVITY_KIND_API,
                                       MSPTI_ACTIVITY_KIND_ACL_API,     MSPTI_ACTIVITY_KIND_NODE_API,
                                       MSPTI_ACTIVITY_KIND_RUNTIME_API, MSPTI_ACTIVITY_KIND_COMMUNICATION};
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; ++i) CHECK_EQ(msptiActivityEnable(kinds[i]), MSPTI_SUCCESS);
    /* Interposition is not needed for these kinds, and is not in effect here. */
    CHECK_EQ(msptiActivityEnable(MSPTI_ACTIVITY_KIND_MEMORY), MSPTI_ERROR_WITHOUT_LD_PRELOAD);

    CHECK_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    aclrtStream stream = NULL;
    CHECK_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    static const char image[] = "image";
    aclrtBinHandle bin = NULL;
    aclrtFuncHandle fn = NULL;
    CHECK_EQ(aclrtBinaryLoadFromData(image, sizeof image, NULL, &bin), ACL_SUCCESS);
    CHECK_EQ(aclrtBinaryGetFunction(bin, "vec_add", &fn), ACL_SUCCESS);
    uint64_t args[2] = {0, 0};

    /* 1. Plain launches through the real runtime. */
    for (int i = 0; i < 3; ++i) CHECK_EQ(aclrtLaunchKernel(fn, 4, args, sizeof args, stream), ACL_SUCCESS);

    /* 2. A node-level launch (as an operator library reports it) around one kernel launch. */
    const char* node = "my_op_node";
    const uint64_t node_id = MsprofGetHashId(node, strlen(node));
    uint64_t t0 = MsprofSysCycleTime();
    CHECK_EQ(aclrtLaunchKernel(fn, 4, args, sizeof args, stream), ACL_SUCCESS);
    uint64_t t1 = MsprofSysCycleTime();
    report_api(MSPROF_REPORT_NODE_LEVEL, MSPROF_REPORT_NODE_LAUNCH_TYPE, t0, t1, node_id);

    /* 3. A communication operator: two tasks, each a task track inside a level-5500 API, the op
     *    info, then the node launch that contains them. */
    const char* op = "hcom_allReduce_";
    const uint64_t op_id = MsprofGetHashId(op, strlen(op));
    const uint64_t op_begin = MsprofSysCycleTime();
    for (int task = 0; task < 2; ++task) {
        const uint64_t b = MsprofSysCycleTime();
        CHECK_EQ(aclrtLaunchKernel(fn, 4, args, sizeof args, stream), ACL_SUCCESS);
        const uint64_t e = MsprofSysCycleTime();
        report_api(MSPROF_REPORT_HCCL_NODE_LEVEL, MSPROF_REPORT_HCCL_MASTER_TYPE, b, e, op_id);
    }
    report_op_info(4 /* FP32 */, 1024, "RING-NHR", "group_name_0");
    const uint64_t op_end = MsprofSysCycleTime();
    report_api(MSPROF_REPORT_NODE_LEVEL, MSPROF_REPORT_NODE_LAUNCH_TYPE, op_begin, op_end, op_id);

    /* 3b. The same, but the device has run each task (and msPTI has read its device records) before
     *     the level-5500 API that names it as communication arrives. */
    const char* op2 = "hcom_allGather_";
    const uint64_t op2_id = MsprofGetHashId(op2, strlen(op2));
    const uint64_t op2_begin = MsprofSysCycleTime();
    for (int task = 0; task < 2; ++task) {
        const uint64_t b = MsprofSysCycleTime();
        CHECK_EQ(aclrtLaunchKernel(fn, 4, args, sizeof args, stream), ACL_SUCCESS);
        CHECK_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
        CHECK_EQ(msptiActivityFlushAll(1), MSPTI_SUCCESS);
        const uint64_t e = MsprofSysCycleTime();
        report_api(MSPROF_REPORT_HCCL_NODE_LEVEL, MSPROF_REPORT_HCCL_MASTER_TYPE, b, e, op2_id);
    }
    report_op_info(3 /* FP16 */, 64, "MESH", "group_name_1");
    report_api(MSPROF_REPORT_NODE_LEVEL, MSPROF_REPORT_NODE_LAUNCH_TYPE, op2_begin, MsprofSysCycleTime(), op2_id);

    /* 4. A report whose type name CANN never registered: no record, counted as dropped. */
    const uint64_t u = MsprofSysCycleTime();
    report_api(MSPROF_REPORT_ACL_LEVEL, 0x0BEEF0, u, u + 1, 0);

    CHECK_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    CHECK_EQ(msptiActivityFlushAll(1), MSPTI_SUCCESS);
    int32_t stream_id = -1;
    CHECK_EQ(aclrtStreamGetId(stream, &stream_id), ACL_SUCCESS);
    uint64_t dropped_acl = 0;
    msptiActivityGetDroppedRecords(MSPTI_ACTIVITY_KIND_ACL_API, &dropped_acl);
    printf("P stream=%d tid=%u dropped_acl=%" PRIu64 "\n", stream_id, tid(), dropped_acl);
    collector_summary();
    CHECK_EQ(msptiUnsubscribe(sub), MSPTI_SUCCESS);
    return 0;
}
