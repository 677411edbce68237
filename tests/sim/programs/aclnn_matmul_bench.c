/* One MatMul on the simulated NPU, timed with device events.
 *
 *   aclnn_matmul_bench M K N
 * Computes (M x K) x (K x N) in float16 with aclnnMatmul on a fresh stream. Two intervals are
 * measured with aclrtEventElapsedTime: two back-to-back events (the stream's fixed cost between
 * events) and events around the MatMul launch; their difference is the kernel's device time.
 * Prints one JSON line. */
#include <stdio.h>
#include <stdlib.h>

#include "acl/acl.h"
#include "aclnnop/aclnn_matmul.h"

#define CHECK(call)                                         \
    do {                                                    \
        int rc_ = (call);                                   \
        if (rc_ != 0) {                                     \
            fprintf(stderr, "%s failed: %d\n", #call, rc_); \
            return 1;                                       \
        }                                                   \
    } while (0)

static aclTensor* matrix(int64_t rows, int64_t cols, void** dev) {
    const int64_t dims[2] = {rows, cols}, strides[2] = {cols, 1}, storage[1] = {rows * cols};
    const size_t bytes = (size_t)(rows * cols) * 2;
    if (aclrtMalloc(dev, bytes, ACL_MEM_MALLOC_HUGE_FIRST) != 0) return NULL;
    if (aclrtMemset(*dev, bytes, 0, bytes) != 0) return NULL;
    return aclCreateTensor(dims, 2, ACL_FLOAT16, strides, 0, ACL_FORMAT_ND, storage, 1, *dev);
}

int main(int argc, char** argv) {
    const int64_t m = argc > 3 ? atoll(argv[1]) : 1, k = argc > 3 ? atoll(argv[2]) : 4096,
                  n = argc > 3 ? atoll(argv[3]) : 11008;
    aclrtStream stream = NULL;
    aclrtEvent ev[4];
    void *da = NULL, *db = NULL, *dc = NULL, *ws = NULL;
    uint64_t ws_size = 0;
    aclOpExecutor* executor = NULL;
    float empty_ms = 0, kernel_ms = 0;
    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    CHECK(aclrtCreateStream(&stream));
    for (int i = 0; i < 4; ++i) CHECK(aclrtCreateEvent(&ev[i]));
    aclTensor *a = matrix(m, k, &da), *b = matrix(k, n, &db), *c = matrix(m, n, &dc);
    if (a == NULL || b == NULL || c == NULL) return 1;
    CHECK(aclnnMatmulGetWorkspaceSize(a, b, c, 1, &ws_size, &executor));
    if (ws_size > 0) CHECK(aclrtMalloc(&ws, ws_size, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtSynchronizeStream(stream));
    CHECK(aclrtRecordEvent(ev[0], stream));
    CHECK(aclrtRecordEvent(ev[1], stream));
    CHECK(aclrtRecordEvent(ev[2], stream));
    CHECK(aclnnMatmul(ws, ws_size, executor, stream));
    CHECK(aclrtRecordEvent(ev[3], stream));
    CHECK(aclrtSynchronizeStream(stream));
    CHECK(aclrtEventElapsedTime(&empty_ms, ev[0], ev[1]));
    CHECK(aclrtEventElapsedTime(&kernel_ms, ev[2], ev[3]));
    printf("{\"soc\": \"%s\", \"m\": %lld, \"k\": %lld, \"n\": %lld, \"empty_ms\": %.9g, \"with_kernel_ms\": %.9g}\n",
           aclrtGetSocName(), (long long)m, (long long)k, (long long)n, empty_ms, kernel_ms);
    aclDestroyTensor(a), aclDestroyTensor(b), aclDestroyTensor(c);
    aclrtFree(da), aclrtFree(db), aclrtFree(dc);
    if (ws) aclrtFree(ws);
    for (int i = 0; i < 4; ++i) aclrtDestroyEvent(ev[i]);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}
