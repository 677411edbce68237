/*
 * Stream capture and model execution (aclmdlRI*), one scenario per argv[1]; prints
 * "key=value" lines for the test to check.
 *   data N     a captured copy, fill and host function run at each of N executions, on the data of that moment
 *   timing N K K kernels captured, the model executed N times (virtual clock): device ns spans
 *   errors     return codes of the error paths
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"

static int g_failures = 0;

#define OK(call)                                                             \
    do {                                                                     \
        const int rc_ = (int)(call);                                         \
        if (rc_ != ACL_SUCCESS) {                                            \
            printf("FAIL %s:%d: %s = %d\n", __func__, __LINE__, #call, rc_); \
            ++g_failures;                                                    \
        }                                                                    \
    } while (0)

static aclrtFuncHandle function(const char* name) {
    static const unsigned char image[] = {1, 2, 3, 4};
    static aclrtBinHandle bin = NULL;
    aclrtFuncHandle fn = NULL;
    if (bin == NULL) OK(aclrtBinaryLoadFromData(image, sizeof image, NULL, &bin));
    OK(aclrtBinaryGetFunction(bin, name, &fn));
    return fn;
}

static uint64_t stamp(aclrtEvent e) {
    uint64_t t = 0;
    OK(aclrtEventGetTimestamp(e, &t));
    return t;
}

static aclrtEvent mark(aclrtStream s) {
    aclrtEvent e = NULL;
    OK(aclrtCreateEvent(&e));
    OK(aclrtRecordEvent(e, s));
    return e;
}

/* A captured host function that calls the runtime again when an execution runs it. */
struct HostProbe {
    int calls;
    aclrtStream stream;
    int status;
};

static void count_call(void* arg) {
    struct HostProbe* probe = (struct HostProbe*)arg;
    aclmdlRICaptureStatus status = ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED;
    OK(aclmdlRICaptureGetInfo(probe->stream, &status, NULL));
    probe->status = (int)status;
    ++probe->calls;
}

static void scenario_data(int executions) {
    enum { kBytes = 4096 };
    aclrtStream s = NULL;
    OK(aclrtCreateStream(&s));
    void *a = NULL, *b = NULL;
    OK(aclrtMalloc(&a, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    OK(aclrtMalloc(&b, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    OK(aclrtMemset(b, kBytes, 0, kBytes));
    OK(aclrtMemset(a, kBytes, 0x11, kBytes));
    /* Captured: b <- a, then a <- 0x5A. Nothing moves until the model runs. */
    OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    OK(aclrtMemcpyAsync(b, kBytes, a, kBytes, ACL_MEMCPY_DEVICE_TO_DEVICE, s));
    OK(aclrtMemsetAsync(a, kBytes, 0x5A, kBytes, s));
    struct HostProbe probe = {0, s, -1};
    OK(aclrtLaunchHostFunc(s, count_call, &probe));
    aclmdlRI model = NULL;
    OK(aclmdlRICaptureEnd(s, &model));
    printf("host_calls_after_capture=%d\n", probe.calls);
    unsigned char host[kBytes];
    OK(aclrtMemcpy(host, kBytes, b, kBytes, ACL_MEMCPY_DEVICE_TO_HOST));
    printf("b_after_capture=%d\n", host[0]);
    OK(aclrtMemcpy(host, kBytes, a, kBytes, ACL_MEMCPY_DEVICE_TO_HOST));
    printf("a_after_capture=%d\n", host[0]);
    for (int i = 1; i <= executions; ++i) {
        memset(host, i, kBytes);
        OK(aclrtMemcpy(a, kBytes, host, kBytes, ACL_MEMCPY_HOST_TO_DEVICE));
        OK(aclmdlRIExecuteAsync(model, s));
        OK(aclrtSynchronizeStream(s));
        OK(aclrtMemcpy(host, kBytes, b, kBytes, ACL_MEMCPY_DEVICE_TO_HOST));
        int same = 1;
        for (int k = 0; k < kBytes; ++k) same &= host[k] == host[0];
        printf("b_%d=%d\nb_%d_uniform=%d\n", i, host[0], i, same);
        OK(aclrtMemcpy(host, kBytes, a, kBytes, ACL_MEMCPY_DEVICE_TO_HOST));
        printf("a_%d=%d\nhost_calls_%d=%d\nhost_status_%d=%d\n", i, host[0], i, probe.calls, i, probe.status);
    }
    OK(aclmdlRIDestroy(model));
    OK(aclrtFree(a));
    OK(aclrtFree(b));
    OK(aclrtDestroyStream(s));
}

static void scenario_timing(int executions, int kernels) {
    aclrtStream s = NULL, exec = NULL;
    OK(aclrtCreateStream(&s));
    OK(aclrtCreateStream(&exec));
    aclrtFuncHandle fn = function("busy_matmul");
    /* The device runs well ahead of the host, so events on s stamp device time, not host time. */
    for (int i = 0; i < 5; ++i) OK(aclrtLaunchKernel(fn, 20, NULL, 0, s));
    aclrtEvent c0 = mark(s);
    OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    for (int i = 0; i < kernels; ++i) OK(aclrtLaunchKernel(fn, 20, NULL, 0, s));
    aclmdlRI model = NULL;
    OK(aclmdlRICaptureEnd(s, &model));
    aclrtEvent c1 = mark(s);
    OK(aclrtSynchronizeStream(s)); /* the cores are free again */
    aclrtEvent e0 = mark(exec);
    for (int i = 0; i < executions; ++i) OK(aclmdlRIExecuteAsync(model, exec));
    aclrtEvent e1 = mark(exec);
    OK(aclrtSynchronizeStream(exec));
    OK(aclrtSynchronizeStream(s));
    printf("capture_span=%llu\n", (unsigned long long)(stamp(c1) - stamp(c0)));
    printf("execute_span=%llu\n", (unsigned long long)(stamp(e1) - stamp(e0)));
    /* The synchronous form waits for the model itself. */
    OK(aclmdlRIExecute(model, -1));
    OK(aclmdlRIDestroy(model));
    OK(aclrtDestroyStream(s));
    OK(aclrtDestroyStream(exec));
}

static aclrtStream g_thread_stream = NULL;
static int g_thread_rc = 0;

static void* end_elsewhere(void* arg) {
    aclmdlRI model = NULL;
    (void)arg;
    OK(aclrtSetDevice(0));
    g_thread_rc = aclmdlRICaptureEnd(g_thread_stream, &model);
    return NULL;
}

#define RC(key, call) printf("%s=%d\n", key, (int)(call))

/* Another thread's synchronous copies during the main thread's global capture, in two modes. */
static void* copy_elsewhere(void* dev) {
    char host[64] = {0};
    OK(aclrtSetDevice(0));
    RC("other_thread_copy_global", aclrtMemcpy(dev, 64, host, 64, ACL_MEMCPY_HOST_TO_DEVICE));
    aclmdlRICaptureMode mode = ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL;
    OK(aclmdlRICaptureThreadExchangeMode(&mode));
    RC("other_thread_copy_thread_local", aclrtMemcpy(dev, 64, host, 64, ACL_MEMCPY_HOST_TO_DEVICE));
    return NULL;
}

static void scenario_errors(void) {
    aclrtStream s = NULL, other = NULL;
    OK(aclrtCreateStream(&s));
    OK(aclrtCreateStream(&other));
    aclrtFuncHandle fn = function("add_custom");
    aclmdlRI model = NULL;
    aclmdlRICaptureStatus status = ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE;
    RC("begin_default_stream", aclmdlRICaptureBegin(NULL, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    RC("begin_bad_mode", aclmdlRICaptureBegin(s, (aclmdlRICaptureMode)7));
    RC("end_not_capturing", aclmdlRICaptureEnd(s, &model));
    RC("info_null_status", aclmdlRICaptureGetInfo(s, NULL, &model));
    RC("info_idle", aclmdlRICaptureGetInfo(s, &status, &model));
    printf("status_idle=%d\nmodel_idle_null=%d\n", (int)status, model == NULL);

    RC("begin", aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    RC("begin_twice", aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
    RC("launch_captured", aclrtLaunchKernel(fn, 1, NULL, 0, s));
    RC("info_active", aclmdlRICaptureGetInfo(s, &status, &model));
    printf("status_active=%d\nmodel_active_set=%d\n", (int)status, model != NULL);
    RC("execute_while_capturing", aclmdlRIExecuteAsync(model, other));
    RC("destroy_while_capturing", aclmdlRIDestroy(model));
    RC("destroy_capturing_stream", aclrtDestroyStream(s));
    /* Unsafe calls: a global capture forbids a synchronous copy in a global-mode thread. */
    void* dev = NULL;
    OK(aclrtMalloc(&dev, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    char host[64] = {0};
    RC("sync_copy_global", aclrtMemcpy(dev, 64, host, 64, ACL_MEMCPY_HOST_TO_DEVICE));
    RC("memset_global", aclrtMemset(dev, 64, 0, 64));
    /* An asynchronous copy is unsafe only from pageable host memory. */
    RC("async_copy_pageable_global", aclrtMemcpyAsync(dev, 64, host, 64, ACL_MEMCPY_HOST_TO_DEVICE, other));
    void* pinned = NULL;
    OK(aclrtMallocHost(&pinned, 64));
    RC("async_copy_pinned_global", aclrtMemcpyAsync(dev, 64, pinned, 64, ACL_MEMCPY_HOST_TO_DEVICE, other));
    pthread_t copier;
    pthread_create(&copier, NULL, copy_elsewhere, dev);
    pthread_join(copier, NULL);
    aclmdlRICaptureMode mode = ACL_MODEL_RI_CAPTURE_MODE_RELAXED;
    RC("exchange", aclmdlRICaptureThreadExchangeMode(&mode));
    printf("previous_mode=%d\n", (int)mode);
    RC("sync_copy_relaxed", aclrtMemcpy(dev, 64, host, 64, ACL_MEMCPY_HOST_TO_DEVICE));
    RC("exchange_back", aclmdlRICaptureThreadExchangeMode(&mode));
    RC("exchange_null", aclmdlRICaptureThreadExchangeMode(NULL));
    /* Another stream is not affected. */
    RC("launch_other_stream", aclrtLaunchKernel(fn, 1, NULL, 0, other));
    RC("end_null_model", aclmdlRICaptureEnd(s, NULL));
    /* Ending from another thread than the one that began a global capture. */
    g_thread_stream = s;
    pthread_t thread;
    pthread_create(&thread, NULL, end_elsewhere, NULL);
    pthread_join(thread, NULL);
    printf("end_other_thread=%d\n", g_thread_rc);
    RC("end", aclmdlRICaptureEnd(s, &model));
    RC("info_after_end", aclmdlRICaptureGetInfo(s, &status, NULL));
    printf("status_after_end=%d\n", (int)status);
    RC("sync_copy_after_end", aclrtMemcpy(dev, 64, host, 64, ACL_MEMCPY_HOST_TO_DEVICE));
    RC("execute_timeout_zero", aclmdlRIExecute(model, 0));
    RC("execute_timeout_bad", aclmdlRIExecute(model, -2));
    RC("execute", aclmdlRIExecute(model, -1));
    RC("execute_async_null", aclmdlRIExecuteAsync(NULL, s));
    RC("destroy", aclmdlRIDestroy(model));
    RC("destroy_again", aclmdlRIDestroy(model));
    RC("execute_destroyed", aclmdlRIExecuteAsync(model, s));
    RC("destroy_null", aclmdlRIDestroy(NULL));

    /* Synchronising a capturing stream fails and invalidates the capture. */
    RC("begin2", aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    RC("sync_capturing", aclrtSynchronizeStream(s));
    RC("info_invalidated", aclmdlRICaptureGetInfo(s, &status, NULL));
    printf("status_invalidated=%d\n", (int)status);
    RC("launch_invalidated", aclrtLaunchKernel(fn, 1, NULL, 0, s));
    model = (aclmdlRI)0x1;
    RC("end_invalidated", aclmdlRICaptureEnd(s, &model));
    printf("model_invalidated_null=%d\n", model == NULL);
    /* Work the simulator cannot capture (an event record) invalidates too. */
    aclrtEvent ev = NULL;
    OK(aclrtCreateEvent(&ev));
    RC("begin3", aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    RC("record_capturing", aclrtRecordEvent(ev, s));
    RC("info_after_record", aclmdlRICaptureGetInfo(s, &status, NULL));
    printf("status_after_record=%d\n", (int)status);
    RC("end_after_record", aclmdlRICaptureEnd(s, &model));
    OK(aclrtDestroyEvent(ev));
    OK(aclrtSynchronizeStream(other));
    OK(aclrtFreeHost(pinned));
    OK(aclrtFree(dev));
    OK(aclrtDestroyStream(s));
    OK(aclrtDestroyStream(other));
}

int main(int argc, char** argv) {
    if (argc < 2) return 2;
    OK(aclInit(NULL));
    OK(aclrtSetDevice(0));
    if (strcmp(argv[1], "data") == 0) scenario_data(argc > 2 ? atoi(argv[2]) : 3);
    else if (strcmp(argv[1], "timing") == 0) scenario_timing(atoi(argv[2]), atoi(argv[3]));
    else if (strcmp(argv[1], "errors") == 0) scenario_errors();
    else return 2;
    OK(aclrtResetDevice(0));
    OK(aclFinalize());
    return g_failures == 0 ? 0 : 1;
}
