/*
 * The sample workload of CANN's msPTI tests (aclnnAdd on {4,2} float tensors), profiled with the
 * Activity API: KERNEL, API, MEMORY, MEMCPY, plus launch callbacks.
 */
#include <acl/acl.h>
#include <aclnnop/aclnn_add.h>

#include "callback_log.h"

int main(void) {
    CHECK_EQ(aclInit(NULL), ACL_SUCCESS);
    CHECK_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    aclrtStream stream = NULL;
    CHECK_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);

    msptiSubscriberHandle sub = NULL;
    CHECK_EQ(msptiSubscribe(&sub, callback_log, (void*)0x1234), MSPTI_SUCCESS);
    CHECK_EQ(msptiEnableCallback(1, sub, MSPTI_CB_DOMAIN_RUNTIME, MSPTI_CBID_RUNTIME_LAUNCH), MSPTI_SUCCESS);
    CHECK(collector_register());
    const msptiActivityKind kinds[] = {MSPTI_ACTIVITY_KIND_KERNEL, MSPTI_ACTIVITY_KIND_API, MSPTI_ACTIVITY_KIND_MEMCPY,
                                       MSPTI_ACTIVITY_KIND_MEMORY, MSPTI_ACTIVITY_KIND_MEMSET};
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; ++i) CHECK_EQ(msptiActivityEnable(kinds[i]), MSPTI_SUCCESS);

    const int64_t shape[2] = {4, 2};
    const int64_t strides[2] = {2, 1};
    float self_host[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    float other_host[8] = {1, 1, 1, 2, 2, 2, 3, 3};
    float out_host[8] = {0};
    float* hosts[3] = {self_host, other_host, out_host};
    void* dev[3] = {NULL, NULL, NULL};
    aclTensor* tensors[3] = {NULL, NULL, NULL};
    for (int i = 0; i < 3; ++i) {
        CHECK_EQ(aclrtMalloc(&dev[i], 32, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
        CHECK_EQ(aclrtMemcpy(dev[i], 32, hosts[i], 32, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
        tensors[i] = aclCreateTensor(shape, 2, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, shape, 2, dev[i]);
        CHECK(tensors[i] != NULL);
    }
    float alpha_value = 1.2f;
    aclScalar* alpha = aclCreateScalar(&alpha_value, ACL_FLOAT);
    uint64_t workspace_size = 0;
    aclOpExecutor* executor = NULL;
    CHECK_EQ(aclnnAddGetWorkspaceSize(tensors[0], tensors[1], alpha, tensors[2], &workspace_size, &executor), 0);
    void* workspace = NULL;
    if (workspace_size > 0) CHECK_EQ(aclrtMalloc(&workspace, workspace_size, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    CHECK_EQ(aclnnAdd(workspace, workspace_size, executor, stream), 0);
    CHECK_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    CHECK_EQ(aclrtMemcpy(out_host, 32, dev[2], 32, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    for (int i = 0; i < 8; ++i) printf("P result%d=%.1f\n", i, out_host[i]);
    for (int i = 0; i < 3; ++i) aclDestroyTensor(tensors[i]);
    aclDestroyScalar(alpha);
    for (int i = 0; i < 3; ++i) CHECK_EQ(aclrtFree(dev[i]), ACL_SUCCESS);
    if (workspace != NULL) CHECK_EQ(aclrtFree(workspace), ACL_SUCCESS);
    printf("P workspace=%" PRIu64 "\n", workspace_size);

    CHECK_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
    CHECK_EQ(aclrtResetDevice(0), ACL_SUCCESS);
    CHECK_EQ(msptiUnsubscribe(sub), MSPTI_SUCCESS);
    CHECK_EQ(msptiActivityFlushAll(1), MSPTI_SUCCESS);
    return 0;
}
