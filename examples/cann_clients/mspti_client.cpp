// mspti_client: an msPTI program written the way CANN's msPTI samples are. Its buffer helpers
// include mspti.h and securec.h and then call malloc, free and memset_s with no C library header of
// their own (CANN's securec.h brings <stdlib.h>, <string.h> and <stdio.h>). Runs aclnnAdd with the
// KERNEL and API activity kinds on and prints the count of each; "mspti_client: OK" when both came.
#include "acl/acl.h"
#include "aclnnop/aclnn_add.h"
#include "mspti.h"
#include "securec.h"

namespace {

constexpr size_t kBufferBytes = 2 * 1024 * 1024;
constexpr size_t kAlign = 8;
unsigned g_kernels = 0;
unsigned g_apis = 0;

void on_request(uint8_t** buffer, size_t* size, size_t* max_records) {
    auto* raw = static_cast<uint8_t*>(malloc(kBufferBytes + kAlign));
    if (raw == nullptr || memset_s(raw, kBufferBytes + kAlign, 0, kBufferBytes + kAlign) != EOK) {
        free(raw);
        *buffer = nullptr;
        *size = 0;
        return;
    }
    // Keep the allocation at the aligned pointer's front so that the completion can free it.
    *buffer = raw + kAlign - reinterpret_cast<uintptr_t>(raw) % kAlign;
    (*buffer)[-1] = static_cast<uint8_t>(*buffer - raw);
    *size = kBufferBytes;
    *max_records = 0;
}

void on_complete(uint8_t* buffer, size_t, size_t valid) {
    msptiActivity* record = nullptr;
    while (msptiActivityGetNextRecord(buffer, valid, &record) == MSPTI_SUCCESS) {
        if (record->kind == MSPTI_ACTIVITY_KIND_KERNEL) ++g_kernels;
        if (record->kind == MSPTI_ACTIVITY_KIND_API) ++g_apis;
    }
    free(buffer - buffer[-1]);
}

aclTensor* tensor_of(void* device, int64_t length) {
    const int64_t shape[1] = {length};
    const int64_t strides[1] = {1};
    return aclCreateTensor(shape, 1, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, shape, 1, device);
}

}  // namespace

int main() {
    msptiSubscriberHandle subscriber = nullptr;
    if (msptiSubscribe(&subscriber, nullptr, nullptr) != MSPTI_SUCCESS ||
        msptiActivityRegisterCallbacks(on_request, on_complete) != MSPTI_SUCCESS ||
        msptiActivityEnable(MSPTI_ACTIVITY_KIND_KERNEL) != MSPTI_SUCCESS ||
        msptiActivityEnable(MSPTI_ACTIVITY_KIND_API) != MSPTI_SUCCESS) {
        printf("mspti_client: msPTI set-up failed\n");
        return 1;
    }
    constexpr int64_t kLength = 64;
    const size_t bytes = kLength * sizeof(float);
    aclrtStream stream = nullptr;
    void* dev[3] = {};
    if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS ||
        aclrtCreateStream(&stream) != ACL_SUCCESS) {
        printf("mspti_client: device set-up failed\n");
        return 1;
    }
    for (void*& p : dev) {
        if (aclrtMalloc(&p, bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return 1;
        if (aclrtMemset(p, bytes, 0, bytes) != ACL_SUCCESS) return 1;
    }
    aclTensor* x = tensor_of(dev[0], kLength);
    aclTensor* y = tensor_of(dev[1], kLength);
    aclTensor* out = tensor_of(dev[2], kLength);
    float one = 1.0f;
    aclScalar* alpha = aclCreateScalar(&one, ACL_FLOAT);
    for (int i = 0; i < 4; ++i) {
        uint64_t workspace = 0;
        aclOpExecutor* executor = nullptr;
        if (aclnnAddGetWorkspaceSize(x, y, alpha, out, &workspace, &executor) != ACL_SUCCESS ||
            aclnnAdd(nullptr, workspace, executor, stream) != ACL_SUCCESS) {
            printf("mspti_client: aclnnAdd failed\n");
            return 1;
        }
    }
    if (aclrtSynchronizeStream(stream) != ACL_SUCCESS) return 1;
    aclDestroyTensor(x);
    aclDestroyTensor(y);
    aclDestroyTensor(out);
    aclDestroyScalar(alpha);
    for (void* p : dev) (void)aclrtFree(p);
    (void)aclrtDestroyStream(stream);
    (void)aclrtResetDevice(0);
    (void)aclFinalize();
    msptiActivityFlushAll(1);
    msptiUnsubscribe(subscriber);
    printf("records: KERNEL %u, API %u\n", g_kernels, g_apis);
    if (g_kernels == 0 || g_apis == 0) {
        printf("mspti_client: a kind brought no record\n");
        return 1;
    }
    printf("mspti_client: OK\n");
    return 0;
}
