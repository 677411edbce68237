/* Cube utilisation and the kernel's blocks (docs/msprof.md, "AI Core metrics"): aclprofInit(argv[1]), a
 * config for device 0 with TASK_TIME and PipeUtilization, aclprofStart; two aclnnMatmul operators on fp16
 * matrices, a big one (1024 x 64 times 64 x 1024: more output tiles than the chip has cube cores, so its
 * kernel runs on every cube core) and a small one (256 x 64 times 64 x 512: 4 output tiles, 4 blocks), and
 * the cube kernel MatMulV2_test launched alone with 7 blocks (aclrtLaunchKernel); a synchronisation,
 * aclprofStop, aclprofFinalize. */
#include <stdio.h>
#include <string.h>

#include "acl/acl.h"
#include "acl/acl_prof.h"
#include "aclnnop/aclnn_matmul.h"

#define CHECK(call)                                                  \
    do {                                                             \
        const int rc_ = (int)(call);                                 \
        if (rc_ != 0) {                                              \
            printf("FAIL line %d: %s = %d\n", __LINE__, #call, rc_); \
            return 1;                                                \
        }                                                            \
    } while (0)

static aclTensor* matrix(int64_t rows, int64_t cols, void* dev) {
    const int64_t dims[2] = {rows, cols};
    const int64_t strides[2] = {cols, 1};
    const int64_t storage[1] = {rows * cols};
    return aclCreateTensor(dims, 2, ACL_FLOAT16, strides, 0, ACL_FORMAT_ND, storage, 1, dev);
}

/* out (m x n) = a (m x k) times b (k x n), each in its own part of `dev`. */
static int matmul(int64_t m, int64_t k, int64_t n, char* dev, aclrtStream stream) {
    aclTensor* a = matrix(m, k, dev);
    aclTensor* b = matrix(k, n, dev + m * k * 2);
    aclTensor* out = matrix(m, n, dev + (m * k + k * n) * 2);
    uint64_t ws = 0;
    aclOpExecutor* ex = NULL;
    CHECK(aclnnMatmulGetWorkspaceSize(a, b, out, 0, &ws, &ex));
    void* workspace = NULL;
    if (ws > 0) CHECK(aclrtMalloc(&workspace, ws, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclnnMatmul(workspace, ws, ex, stream));
    CHECK(aclrtSynchronizeStream(stream));
    if (workspace != NULL) CHECK(aclrtFree(workspace));
    CHECK(aclDestroyTensor(a));
    CHECK(aclDestroyTensor(b));
    CHECK(aclDestroyTensor(out));
    return 0;
}

int main(int argc, char** argv) {
    if (argc != 2) {
        printf("usage: acl_msprof_cube_blocks OUTPUT_DIR\n");
        return 2;
    }
    const char* dir = argv[1];
    static const unsigned char image[] = {1, 2, 3};
    uint32_t devices[1] = {0};
    aclrtStream s = NULL;
    aclrtBinHandle bin = NULL;
    aclrtFuncHandle bare = NULL;
    void* dev = NULL;
    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    CHECK(aclrtCreateStream(&s));
    CHECK(aclrtBinaryLoadFromData(image, sizeof image, NULL, &bin));
    CHECK(aclrtBinaryGetFunction(bin, "MatMulV2_test", &bare));
    CHECK(aclrtMalloc(&dev, 8u << 20, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclprofInit(dir, strlen(dir)));
    aclprofConfig* config =
        aclprofCreateConfig(devices, 1, ACL_AICORE_PIPE_UTILIZATION, NULL, ACL_PROF_ACL_API | ACL_PROF_TASK_TIME);
    if (config == NULL) {
        printf("FAIL: aclprofCreateConfig returned NULL\n");
        return 1;
    }
    CHECK(aclprofStart(config));
    CHECK(matmul(1024, 64, 1024, (char*)dev, s));
    CHECK(matmul(256, 64, 512, (char*)dev, s));
    CHECK(aclrtLaunchKernel(bare, 7, NULL, 0, s));
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
