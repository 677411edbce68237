/* Block Num of operator kernels in msprof's op_summary (docs/msprof.md): aclprofInit(argv[1]), a config
 * for device 0 with TASK_TIME, aclprofStart, aclnnRelu over 3 x 4096 then over 5 x 4096 floats (a
 * vector kernel takes one block per 4096 elements: 3 and 5 blocks), aclprofStop, aclprofFinalize. */
#include <stdio.h>
#include <string.h>

#include "acl/acl.h"
#include "acl/acl_prof.h"
#include "aclnnop/aclnn_relu.h"

#define CHECK(call)                                                  \
    do {                                                             \
        const int rc_ = (int)(call);                                 \
        if (rc_ != 0) {                                              \
            printf("FAIL line %d: %s = %d\n", __LINE__, #call, rc_); \
            return 1;                                                \
        }                                                            \
    } while (0)

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
        printf("usage: aclnn_msprof_block_dim OUTPUT_DIR\n");
        return 2;
    }
    const char* dir = argv[1];
    aclrtStream stream = NULL;
    void* dev = NULL;
    uint32_t devices[1] = {0};
    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    CHECK(aclrtCreateStream(&stream));
    CHECK(aclrtMalloc(&dev, 5 * 4096 * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclprofInit(dir, strlen(dir)));
    aclprofConfig* config = aclprofCreateConfig(devices, 1, ACL_AICORE_NONE, NULL, ACL_PROF_TASK_TIME);
    if (config == NULL) {
        printf("FAIL: aclprofCreateConfig returned NULL\n");
        return 1;
    }
    CHECK(aclprofStart(config));
    CHECK(relu(3, dev, stream));
    CHECK(relu(5, dev, stream));
    CHECK(aclrtSynchronizeStream(stream));
    CHECK(aclprofStop(config));
    CHECK(aclprofDestroyConfig(config));
    CHECK(aclprofFinalize());
    CHECK(aclrtFree(dev));
    CHECK(aclrtDestroyStream(stream));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    printf("done\n");
    return 0;
}
