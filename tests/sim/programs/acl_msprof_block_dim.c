/* Block Num from the launch to msprof's op_summary (docs/msprof.md): aclprofInit(argv[1]), a config for
 * device 0 with TASK_TIME, aclprofStart; then two kernel launches with the reports CANN's operator layer
 * makes around them: the kernel launch (kern_alpha with 6 blocks, kern_beta with 11), then the node
 * launch report (MsprofApi, level 10000, type 5) from before the launch to after it, then the node's
 * basic info (MsprofCompactInfo, level 10000, type 0) with the node launch's end as its time and the
 * blockDim; kern_alpha launched alone by each of the runtime's launch forms, without a node (Block Num
 * from the task's track): aclrtLaunchKernel with 7 blocks, aclrtLaunchKernelV2 with 9,
 * aclrtLaunchKernelWithHostArgs with 13 and aclrtLaunchKernelWithConfig with 300; and two operators of
 * the simulator's operator library: aclnnRelu over 3 x 4096 then over 5 x 4096 floats (a vector kernel
 * takes one block per 4096 elements: 3 and 5 blocks). aclprofStop, aclprofFinalize. */
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "acl/acl.h"
#include "acl/acl_prof.h"
#include "aclnnop/aclnn_relu.h"
#include "seam/profapi.h"

#define CHECK(call)                                                  \
    do {                                                             \
        const int rc_ = (int)(call);                                 \
        if (rc_ != 0) {                                              \
            printf("FAIL line %d: %s = %d\n", __LINE__, #call, rc_); \
            return 1;                                                \
        }                                                            \
    } while (0)

static uint64_t hash_of(const char* text) { return MsprofGetHashId(text, strlen(text)); }

static int launch_operator(aclrtFuncHandle fn, uint32_t blocks, const char* node, const char* op_type, aclrtStream s) {
    const uint64_t begin = MsprofSysCycleTime();
    CHECK(aclrtLaunchKernel(fn, blocks, NULL, 0, s));
    const uint64_t end = MsprofSysCycleTime();
    const uint32_t tid = (uint32_t)syscall(SYS_gettid);
    struct MsprofApi api;
    memset(&api, 0, sizeof api);
    api.magicNumber = MSPROF_REPORT_DATA_MAGIC_NUM;
    api.level = MSPROF_REPORT_NODE_LEVEL;
    api.type = MSPROF_REPORT_NODE_LAUNCH_TYPE;
    api.threadId = tid;
    api.beginTime = begin;
    api.endTime = end;
    api.itemId = hash_of(node);
    CHECK(MsprofReportApi(1, &api));
    struct MsprofCompactInfo info;
    memset(&info, 0, sizeof info);
    info.magicNumber = MSPROF_REPORT_DATA_MAGIC_NUM;
    info.level = MSPROF_REPORT_NODE_LEVEL;
    info.type = MSPROF_REPORT_NODE_BASIC_INFO_TYPE;
    info.threadId = tid;
    info.dataLen = sizeof(struct MsprofNodeBasicInfo);
    info.timeStamp = end;
    struct MsprofNodeBasicInfo basic;
    memset(&basic, 0, sizeof basic);
    basic.opName = hash_of(node);
    basic.taskType = 2; /* AI_VECTOR_CORE */
    basic.opType = hash_of(op_type);
    basic.blockDim = blocks;
    memcpy(&info.data.nodeBasicInfo, &basic, sizeof basic);
    CHECK(MsprofReportCompactInfo(1, &info, sizeof info));
    return 0;
}

static int relu(int64_t rows, void* dev, aclrtStream stream) {
    const int64_t dims[2] = {rows, 4096};
    const int64_t strides[2] = {4096, 1};
    const int64_t storage[1] = {rows * 4096};
    aclTensor* x = aclCreateTensor(dims, 2, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, storage, 1, dev);
    aclTensor* y = aclCreateTensor(dims, 2, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, storage, 1, dev);
    uint64_t ws = 0;
    aclOpExecutor* ex = NULL;
    CHECK(aclnnReluGetWorkspaceSize(x, y, &ws, &ex));
    CHECK(aclnnRelu(NULL, 0, ex, stream));
    CHECK(aclDestroyTensor(x));
    CHECK(aclDestroyTensor(y));
    return 0;
}

int main(int argc, char** argv) {
    if (argc != 2) {
        printf("usage: acl_msprof_block_dim OUTPUT_DIR\n");
        return 2;
    }
    const char* dir = argv[1];
    static const unsigned char image[] = {1, 2, 3};
    aclrtStream s = NULL;
    aclrtBinHandle bin = NULL;
    aclrtFuncHandle alpha = NULL, beta = NULL;
    void* dev = NULL;
    uint32_t devices[1] = {0};
    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    CHECK(aclrtCreateStream(&s));
    CHECK(aclrtBinaryLoadFromData(image, sizeof image, NULL, &bin));
    CHECK(aclrtBinaryGetFunction(bin, "kern_alpha", &alpha));
    CHECK(aclrtBinaryGetFunction(bin, "kern_beta", &beta));
    CHECK(aclrtMalloc(&dev, 5 * 4096 * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclprofInit(dir, strlen(dir)));
    aclprofConfig* config = aclprofCreateConfig(devices, 1, ACL_AICORE_NONE, NULL, ACL_PROF_TASK_TIME);
    if (config == NULL) {
        printf("FAIL: aclprofCreateConfig returned NULL\n");
        return 1;
    }
    CHECK(aclprofStart(config));
    CHECK(launch_operator(alpha, 6, "aclnnAlpha_Alpha_KernAlpha", "KernAlpha", s));
    CHECK(launch_operator(beta, 11, "aclnnBeta_Beta_KernBeta", "KernBeta", s));
    CHECK(aclrtLaunchKernel(alpha, 7, NULL, 0, s));
    CHECK(aclrtLaunchKernelV2(alpha, 9, NULL, 0, NULL, s));
    CHECK(aclrtLaunchKernelWithHostArgs(alpha, 13, s, NULL, NULL, 0, NULL, 0));
    aclrtArgsHandle args = NULL;
    CHECK(aclrtKernelArgsInit(alpha, &args));
    CHECK(aclrtKernelArgsFinalize(args));
    CHECK(aclrtLaunchKernelWithConfig(alpha, 300, s, NULL, args, NULL));
    CHECK(relu(3, dev, s));
    CHECK(relu(5, dev, s));
    CHECK(aclrtSynchronizeStream(s));
    CHECK(aclprofStop(config));
    CHECK(aclprofDestroyConfig(config));
    CHECK(aclprofFinalize());
    CHECK(aclrtFree(dev));
    CHECK(aclrtDestroyStream(s));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    printf("done\n");
    return 0;
}
