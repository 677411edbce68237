/*
 * MEMORY, MEMCPY, MEMSET and EXTERNAL_CORRELATION from the interposed aclrt* memory functions
 * on the simulated runtime, with runtime callbacks logged (their correlation ids must match).
 */
#include <acl/acl.h>

#include "callback_log.h"

static void* other_thread(void* arg) {
    (void)arg;
    CHECK_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    CHECK_EQ(msptiActivityPushExternalCorrelationId(MSPTI_EXTERNAL_CORRELATION_KIND_CUSTOM1, 7), MSPTI_SUCCESS);
    void* p = NULL;
    CHECK_EQ(aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    CHECK_EQ(aclrtFree(p), ACL_SUCCESS);
    uint64_t last = 0;
    CHECK_EQ(msptiActivityPopExternalCorrelationId(MSPTI_EXTERNAL_CORRELATION_KIND_CUSTOM1, &last), MSPTI_SUCCESS);
    CHECK_EQ(last, 7);
    printf("P thread_ptr=%" PRIu64 " thread_tid=%ld\n", (uint64_t)(uintptr_t)p, (long)syscall(SYS_gettid));
    return NULL;
}

int main(void) {
    CHECK_EQ(aclInit(NULL), ACL_SUCCESS);
    msptiSubscriberHandle sub = NULL;
    CHECK_EQ(msptiSubscribe(&sub, callback_log, (void*)0x1234), MSPTI_SUCCESS);
    CHECK_EQ(msptiEnableDomain(1, sub, MSPTI_CB_DOMAIN_RUNTIME), MSPTI_SUCCESS);
    CHECK(collector_register());
    const msptiActivityKind kinds[] = {MSPTI_ACTIVITY_KIND_MEMORY, MSPTI_ACTIVITY_KIND_MEMCPY,
                                       MSPTI_ACTIVITY_KIND_MEMSET, MSPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION};
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; ++i) CHECK_EQ(msptiActivityEnable(kinds[i]), MSPTI_SUCCESS);

    CHECK_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    aclrtStream stream = NULL;
    CHECK_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    int32_t stream_id = -1;
    CHECK_EQ(aclrtStreamGetId(stream, &stream_id), ACL_SUCCESS);

    uint64_t t0 = 0, t1 = 0;
    msptiGetTimestamp(&t0);
    CHECK_EQ(msptiActivityPushExternalCorrelationId(MSPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, 42), MSPTI_SUCCESS);
    void* dev[3] = {NULL, NULL, NULL};
    float host[64];
    for (int i = 0; i < 64; ++i) host[i] = (float)i;
    for (int i = 0; i < 3; ++i) {
        CHECK_EQ(aclrtMalloc(&dev[i], 256, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
        CHECK_EQ(aclrtMemcpy(dev[i], 256, host, 256, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    }
    CHECK_EQ(aclrtMemset(dev[0], 256, 7, 128), ACL_SUCCESS);
    CHECK_EQ(aclrtMemsetAsync(dev[1], 256, 9, 64, stream), ACL_SUCCESS);
    CHECK_EQ(aclrtMemcpyAsync(host, 256, dev[2], 256, ACL_MEMCPY_DEVICE_TO_HOST, stream), ACL_SUCCESS);
    CHECK_EQ(aclrtMemcpy2d(dev[1], 64, dev[0], 64, 32, 4, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_SUCCESS);
    CHECK_EQ(aclrtMemcpy(host, 256, host + 32, 64, ACL_MEMCPY_HOST_TO_HOST), ACL_SUCCESS);
    CHECK_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    uint64_t last = 0;
    CHECK_EQ(msptiActivityPopExternalCorrelationId(MSPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, &last), MSPTI_SUCCESS);
    CHECK_EQ(last, 42);

    /* Calls without records (but with callbacks and ids). */
    void* pinned = NULL;
    CHECK_EQ(aclrtMallocHost(&pinned, 128), ACL_SUCCESS);
    CHECK_EQ(aclrtFreeHost(pinned), ACL_SUCCESS);
    size_t free_mem = 0, total_mem = 0;
    CHECK_EQ(aclrtGetMemInfo(ACL_HBM_MEM, &free_mem, &total_mem), ACL_SUCCESS);
    /* A failing call: no record, but callbacks see its error. */
    CHECK(aclrtMemcpy(dev[0], 8, host, 256, ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS);

    for (int i = 0; i < 3; ++i) CHECK_EQ(aclrtFree(dev[i]), ACL_SUCCESS);
    msptiGetTimestamp(&t1);

    pthread_t t;
    pthread_create(&t, NULL, other_thread, NULL);
    pthread_join(t, NULL);

    CHECK_EQ(msptiActivityFlushAll(1), MSPTI_SUCCESS);
    printf("P pid=%d tid=%ld stream=%d t0=%" PRIu64 " t1=%" PRIu64 " d0=%" PRIu64 " d1=%" PRIu64 " d2=%" PRIu64 "\n",
           (int)getpid(), (long)syscall(SYS_gettid), stream_id, t0, t1, (uint64_t)(uintptr_t)dev[0],
           (uint64_t)(uintptr_t)dev[1], (uint64_t)(uintptr_t)dev[2]);
    collector_summary();
    CHECK_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
    CHECK_EQ(msptiUnsubscribe(sub), MSPTI_SUCCESS);
    return 0;
}
