/* Host time of ACL calls by API family and of an aclnn operator's two phases, on the virtual clock.
 * Each figure is the span between two events recorded on an idle stream around the calls (device ns,
 * so the host time between the two submissions); the work the calls queue runs on another stream.
 * Prints "key=value" lines: record (nothing between the events), launch (one aclrtLaunchKernel),
 * memcpy_async (one aclrtMemcpyAsync), workspace (aclnnAddGetWorkspaceSize) and run (aclnnAdd). */
#include <stdint.h>
#include <stdio.h>

#include "acl/acl.h"
#include "aclnnop/aclnn_add.h"

#define CHECK(call)                                                                 \
    do {                                                                            \
        int rc_ = (int)(call);                                                      \
        if (rc_ != 0) {                                                             \
            fprintf(stderr, "%s failed with %d (line %d)\n", #call, rc_, __LINE__); \
            return 1;                                                               \
        }                                                                           \
    } while (0)

static aclrtEvent g_a, g_b;

static int begin(aclrtStream s) { return (int)aclrtRecordEvent(g_a, s); }

static int end(aclrtStream s, const char* label) {
    uint64_t a = 0, b = 0;
    CHECK(aclrtRecordEvent(g_b, s));
    CHECK(aclrtSynchronizeStream(s));
    CHECK(aclrtEventGetTimestamp(g_a, &a));
    CHECK(aclrtEventGetTimestamp(g_b, &b));
    printf("%s=%llu\n", label, (unsigned long long)(b - a));
    return 0;
}

int main(void) {
    static const unsigned char image[] = {1, 2, 3, 4};
    enum { kElements = 1024 };
    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    aclrtStream marks = NULL, work = NULL;
    CHECK(aclrtCreateStream(&marks));
    CHECK(aclrtCreateStream(&work));
    CHECK(aclrtCreateEvent(&g_a));
    CHECK(aclrtCreateEvent(&g_b));
    aclrtBinHandle bin = NULL;
    aclrtFuncHandle fn = NULL;
    CHECK(aclrtBinaryLoadFromData(image, sizeof image, NULL, &bin));
    CHECK(aclrtBinaryGetFunction(bin, "empty_kernel", &fn));
    void* device[3] = {NULL, NULL, NULL};
    aclTensor* tensor[3];
    const int64_t shape[1] = {kElements}, strides[1] = {1};
    for (int i = 0; i < 3; ++i) {
        CHECK(aclrtMalloc(&device[i], kElements * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST));
        tensor[i] = aclCreateTensor(shape, 1, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, shape, 1, device[i]);
    }
    float one = 1.0f;
    aclScalar* alpha = aclCreateScalar(&one, ACL_FLOAT);
    static float host[kElements];
    uint64_t ws = 0;
    aclOpExecutor* ex = NULL;
    /* Warm-up: the operator's binary loads on its first launch. */
    CHECK(aclnnAddGetWorkspaceSize(tensor[0], tensor[1], alpha, tensor[2], &ws, &ex));
    CHECK(aclnnAdd(NULL, 0, ex, work));
    CHECK(aclrtSynchronizeStream(work));

    CHECK(begin(marks));
    CHECK(end(marks, "record"));
    CHECK(begin(marks));
    CHECK(aclrtLaunchKernel(fn, 1, NULL, 0, work));
    CHECK(end(marks, "launch"));
    CHECK(begin(marks));
    CHECK(aclrtMemcpyAsync(device[0], sizeof host, host, sizeof host, ACL_MEMCPY_HOST_TO_DEVICE, work));
    CHECK(end(marks, "memcpy_async"));
    CHECK(begin(marks));
    CHECK(aclnnAddGetWorkspaceSize(tensor[0], tensor[1], alpha, tensor[2], &ws, &ex));
    CHECK(end(marks, "workspace"));
    CHECK(begin(marks));
    CHECK(aclnnAdd(NULL, 0, ex, work));
    CHECK(end(marks, "run"));
    CHECK(aclrtSynchronizeStream(work));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    return 0;
}
