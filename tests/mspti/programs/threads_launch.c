/*
 * 8 threads launching kernels and copying memory through the interposed runtime while other
 * threads switch kinds on and off and flush. At the end: every KERNEL and MEMCPY record made while
 * its kind was on is delivered or counted as dropped, correlation ids are unique.
 */
#include <acl/acl.h>
#include <signal.h>
#include <unistd.h>

#include "collector.h"

#define WORKERS 8
#define LAUNCHES 300

static aclrtFuncHandle g_fn;
static int g_stop = 0; /* accessed with __atomic builtins */

static void* launcher(void* arg) {
    (void)arg;
    CHECK_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    aclrtStream stream = NULL;
    CHECK_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    uint64_t args[2] = {0, 0};
    char host[64] = {0};
    void* dev = NULL;
    CHECK_EQ(aclrtMalloc(&dev, sizeof host, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    for (int i = 0; i < LAUNCHES; ++i) {
        CHECK_EQ(aclrtLaunchKernel(g_fn, 1, args, sizeof args, stream), ACL_SUCCESS);
        CHECK_EQ(aclrtMemcpy(dev, sizeof host, host, sizeof host, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
        if (i % 50 == 0) CHECK_EQ(msptiActivityFlushAll(0), MSPTI_SUCCESS);
    }
    CHECK_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    CHECK_EQ(aclrtFree(dev), ACL_SUCCESS);
    CHECK_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
    return NULL;
}

static void* toggler(void* arg) {
    (void)arg;
    while (!__atomic_load_n(&g_stop, __ATOMIC_ACQUIRE)) {
        CHECK_EQ(msptiActivityEnable(MSPTI_ACTIVITY_KIND_RUNTIME_API), MSPTI_SUCCESS);
        CHECK_EQ(msptiActivityDisable(MSPTI_ACTIVITY_KIND_RUNTIME_API), MSPTI_SUCCESS);
        CHECK_EQ(msptiActivityEnable(MSPTI_ACTIVITY_KIND_MARKER), MSPTI_SUCCESS);
        CHECK_EQ(msptiActivityDisable(MSPTI_ACTIVITY_KIND_MARKER), MSPTI_SUCCESS);
        CHECK_EQ(msptiActivityFlushAll(1), MSPTI_SUCCESS);
        usleep(1000);
    }
    return NULL;
}

int main(void) {
    alarm(150);
    g_collector.buffer_size = 2048;
    g_collector.quiet = 1;
    CHECK_EQ(aclInit(NULL), ACL_SUCCESS);
    msptiSubscriberHandle sub = NULL;
    CHECK_EQ(msptiSubscribe(&sub, NULL, NULL), MSPTI_SUCCESS);
    CHECK(collector_register());
    CHECK_EQ(msptiActivityEnable(MSPTI_ACTIVITY_KIND_KERNEL), MSPTI_SUCCESS);
    CHECK_EQ(msptiActivityEnable(MSPTI_ACTIVITY_KIND_MEMCPY), MSPTI_SUCCESS);
    CHECK_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    static const char image[] = "image";
    aclrtBinHandle bin = NULL;
    CHECK_EQ(aclrtBinaryLoadFromData(image, sizeof image, NULL, &bin), ACL_SUCCESS);
    CHECK_EQ(aclrtBinaryGetFunction(bin, "threaded_kernel", &g_fn), ACL_SUCCESS);

    pthread_t toggle;
    pthread_create(&toggle, NULL, toggler, NULL);
    pthread_t t[WORKERS];
    for (int i = 0; i < WORKERS; ++i) pthread_create(&t[i], NULL, launcher, NULL);
    for (int i = 0; i < WORKERS; ++i) pthread_join(t[i], NULL);
    __atomic_store_n(&g_stop, 1, __ATOMIC_RELEASE);
    pthread_join(toggle, NULL);
    CHECK_EQ(msptiActivityFlushAll(1), MSPTI_SUCCESS);
    uint64_t dropped_kernel = 0, dropped_memcpy = 0;
    msptiActivityGetDroppedRecords(MSPTI_ACTIVITY_KIND_KERNEL, &dropped_kernel);
    msptiActivityGetDroppedRecords(MSPTI_ACTIVITY_KIND_MEMCPY, &dropped_memcpy);
    pthread_mutex_lock(&g_collector.lock);
    printf("P produced=%d kernels=%lu memcpys=%lu dropped_kernel=%" PRIu64 " dropped_memcpy=%" PRIu64 "\n",
           WORKERS * LAUNCHES, g_collector.records_by_kind[MSPTI_ACTIVITY_KIND_KERNEL],
           g_collector.records_by_kind[MSPTI_ACTIVITY_KIND_MEMCPY], dropped_kernel, dropped_memcpy);
    pthread_mutex_unlock(&g_collector.lock);
    collector_summary();
    CHECK_EQ(msptiUnsubscribe(sub), MSPTI_SUCCESS);
    return 0;
}
