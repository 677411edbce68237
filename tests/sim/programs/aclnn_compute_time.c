/* An aclnnAdd large enough that computing its result on the CPU takes milliseconds, timed by msPTI in
 * the wall clock: prints the host time of the aclnnAdd call, when its kernel started relative to the
 * call, and the kernel's duration. The simulator computes a result after submitting its kernels, so
 * neither the start nor the duration should include the computation. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "acl/acl.h"
#include "aclnnop/aclnn_add.h"
#include "mspti/mspti.h"

#define CHECK(call)                                                                 \
    do {                                                                            \
        int rc_ = (int)(call);                                                      \
        if (rc_ != 0) {                                                             \
            fprintf(stderr, "%s failed with %d (line %d)\n", #call, rc_, __LINE__); \
            return 1;                                                               \
        }                                                                           \
    } while (0)

enum { kBufferBytes = 1 << 20 };
static uint64_t g_start, g_end;
static int g_kernels;

static void request(uint8_t** buffer, size_t* size, size_t* max_records) {
    *buffer = aligned_alloc(8, kBufferBytes);
    *size = *buffer != NULL ? kBufferBytes : 0;
    *max_records = 0;
}

static void complete(uint8_t* buffer, size_t size, size_t valid) {
    msptiActivity* record = NULL;
    (void)size;
    while (msptiActivityGetNextRecord(buffer, valid, &record) == MSPTI_SUCCESS) {
        if (record->kind == MSPTI_ACTIVITY_KIND_KERNEL) {
            const msptiActivityKernel* kernel = (const msptiActivityKernel*)record;
            g_start = kernel->start;
            g_end = kernel->end;
            ++g_kernels;
        }
    }
    free(buffer);
}

int main(void) {
    const int64_t elements = 4 * 1024 * 1024;
    const int64_t shape[1] = {elements};
    const int64_t strides[1] = {1};
    const size_t bytes = (size_t)elements * sizeof(float);
    msptiSubscriberHandle subscriber = NULL;
    CHECK(msptiSubscribe(&subscriber, NULL, NULL));
    CHECK(msptiActivityRegisterCallbacks(request, complete));
    CHECK(msptiActivityEnable(MSPTI_ACTIVITY_KIND_KERNEL));
    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    aclrtStream stream = NULL;
    CHECK(aclrtCreateStream(&stream));
    void* device[3];
    aclTensor* tensor[3];
    for (int i = 0; i < 3; ++i) {
        CHECK(aclrtMalloc(&device[i], bytes, ACL_MEM_MALLOC_HUGE_FIRST));
        CHECK(aclrtMemset(device[i], bytes, 0, bytes));
        tensor[i] = aclCreateTensor(shape, 1, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, shape, 1, device[i]);
    }
    float one = 1.0f;
    aclScalar* alpha = aclCreateScalar(&one, ACL_FLOAT);
    uint64_t workspace_size = 0;
    aclOpExecutor* executor = NULL;
    CHECK(aclnnAddGetWorkspaceSize(tensor[0], tensor[1], alpha, tensor[2], &workspace_size, &executor));
    void* workspace = NULL;
    if (workspace_size > 0) CHECK(aclrtMalloc(&workspace, workspace_size, ACL_MEM_MALLOC_HUGE_FIRST));
    uint64_t before = 0, after = 0;
    CHECK(msptiGetTimestamp(&before));
    CHECK(aclnnAdd(workspace, workspace_size, executor, stream));
    CHECK(msptiGetTimestamp(&after));
    CHECK(aclrtSynchronizeStream(stream));
    CHECK(msptiActivityFlushAll(1));
    printf("call_ns %llu start_offset_ns %lld kernel_ns %llu kernels %d\n", (unsigned long long)(after - before),
           (long long)(g_start - before), (unsigned long long)(g_end - g_start), g_kernels);
    CHECK(msptiUnsubscribe(subscriber));
    return 0;
}
