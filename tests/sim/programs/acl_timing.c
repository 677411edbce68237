/*
 * Timeline scenarios for the ACL runtime, one per argv[1]. Each prints
 * "key=value" lines of event timestamps (device ns) and return codes; the
 * test computes what the SoC table predicts and compares. Meant for
 * NPU_SIM_CLOCK=virtual, where every figure is reproducible.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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

static const unsigned char kImage[] = {1, 2, 3, 4};
static aclrtBinHandle g_bin = NULL;

static aclrtFuncHandle function(const char* name) {
    aclrtFuncHandle fn = NULL;
    if (g_bin == NULL) OK(aclrtBinaryLoadFromData(kImage, sizeof kImage, NULL, &g_bin));
    OK(aclrtBinaryGetFunction(g_bin, name, &fn));
    return fn;
}

static aclrtEvent new_event(void) {
    aclrtEvent e = NULL;
    OK(aclrtCreateEvent(&e));
    return e;
}

static uint64_t stamp(aclrtEvent e) {
    uint64_t t = 0;
    OK(aclrtEventGetTimestamp(e, &t));
    return t;
}

/* Records an event on the stream and returns its timestamp after synchronising later. */
static aclrtEvent mark(aclrtStream s) {
    aclrtEvent e = new_event();
    OK(aclrtRecordEvent(e, s));
    return e;
}

/* Puts the device well ahead of the host, so later tasks start at "previous end + gap". */
static void make_busy(aclrtStream s, int kernels) {
    aclrtFuncHandle busy = function("busy_matmul");
    for (int i = 0; i < kernels; ++i) OK(aclrtLaunchKernel(busy, 20, NULL, 0, s));
}

/* kernel NAME BLOCKS ENGINE: the device time of one kernel between two events. ENGINE -1 = none. */
static void scenario_kernel(int argc, char** argv) {
    if (argc < 5) {
        printf("FAIL usage: kernel NAME BLOCKS ENGINE\n");
        ++g_failures;
        return;
    }
    const char* name = argv[2];
    const uint32_t blocks = (uint32_t)strtoul(argv[3], NULL, 0);
    const int engine = atoi(argv[4]);
    aclrtStream s = NULL;
    OK(aclrtCreateStream(&s));
    aclrtFuncHandle fn = function(name);
    make_busy(s, 5);
    aclrtEvent e0 = mark(s);
    if (engine < 0) {
        OK(aclrtLaunchKernel(fn, blocks, NULL, 0, s));
    } else {
        aclrtLaunchKernelAttr attr;
        memset(&attr, 0, sizeof attr);
        attr.id = ACL_RT_LAUNCH_KERNEL_ATTR_ENGINE_TYPE;
        attr.value.engineType = (aclrtEngineType)engine;
        aclrtLaunchKernelCfg cfg = {&attr, 1};
        OK(aclrtLaunchKernelV2(fn, blocks, NULL, 0, &cfg, s));
    }
    aclrtEvent e1 = mark(s);
    OK(aclrtSynchronizeStream(s));
    printf("t0=%llu\nt1=%llu\n", (unsigned long long)stamp(e0), (unsigned long long)stamp(e1));
}

/* Two streams, one kernel each: do they overlap? */
static void scenario_two_streams(int argc, char** argv) {
    const char* name = argc > 2 ? argv[2] : "matmul_kernel";
    const uint32_t blocks = argc > 3 ? (uint32_t)strtoul(argv[3], NULL, 0) : 4;
    aclrtStream s1 = NULL, s2 = NULL;
    OK(aclrtCreateStream(&s1));
    OK(aclrtCreateStream(&s2));
    aclrtFuncHandle fn = function(name);
    OK(aclrtLaunchKernel(fn, blocks, NULL, 0, s1));
    aclrtEvent b1 = mark(s1);
    OK(aclrtLaunchKernel(fn, blocks, NULL, 0, s2));
    aclrtEvent b2 = mark(s2);
    OK(aclrtSynchronizeDevice());
    printf("b1=%llu\nb2=%llu\n", (unsigned long long)stamp(b1), (unsigned long long)stamp(b2));
}

static void host_fn(void* arg) { ++*(int*)arg; }

/* Tasks of every kind on one stream, with an event after each. */
static void scenario_order(void) {
    aclrtStream s = NULL;
    OK(aclrtCreateStream(&s));
    void *d = NULL, *d2 = NULL;
    static unsigned char host[65536];
    OK(aclrtMalloc(&d, sizeof host, ACL_MEM_MALLOC_HUGE_FIRST));
    OK(aclrtMalloc(&d2, sizeof host, ACL_MEM_MALLOC_HUGE_FIRST));
    aclrtFuncHandle k1 = function("matmul_kernel"), k2 = function("relu_kernel"), k3 = function("aicpu_kernel");
    unsigned char trace[18] = {0};
    int calls = 0;
    aclrtEvent ev[12];
    int n = 0;
    ev[n++] = mark(s);
    OK(aclrtLaunchKernel(k1, 20, NULL, 0, s));
    ev[n++] = mark(s);
    OK(aclrtMemcpyAsync(d, sizeof host, host, sizeof host, ACL_MEMCPY_HOST_TO_DEVICE, s));
    ev[n++] = mark(s);
    OK(aclrtLaunchKernel(k2, 40, NULL, 0, s));
    ev[n++] = mark(s);
    OK(aclrtMemsetAsync(d2, sizeof host, 1, sizeof host, s));
    ev[n++] = mark(s);
    OK(aclrtMemcpyAsync(d2, sizeof host, d, sizeof host, ACL_MEMCPY_DEVICE_TO_DEVICE, s));
    ev[n++] = mark(s);
    OK(aclrtLaunchHostFunc(s, host_fn, &calls));
    ev[n++] = mark(s);
    OK(aclrtProfTrace(trace, 18, s));
    ev[n++] = mark(s);
    OK(aclrtLaunchKernel(k3, 1, NULL, 0, s));
    ev[n++] = mark(s);
    OK(aclrtMemcpyAsync(host, sizeof host, d2, sizeof host, ACL_MEMCPY_DEVICE_TO_HOST, s));
    ev[n++] = mark(s);
    OK(aclrtSynchronizeStream(s));
    for (int i = 0; i < n; ++i) printf("ev%d=%llu\n", i, (unsigned long long)stamp(ev[i]));
    OK(aclrtFree(d));
    OK(aclrtFree(d2));
}

/* An event orders a second stream after the first; a third stream is not held back. */
static void scenario_cross_stream(void) {
    aclrtStream s1 = NULL, s2 = NULL, s3 = NULL;
    OK(aclrtCreateStream(&s1));
    OK(aclrtCreateStream(&s2));
    OK(aclrtCreateStream(&s3));
    make_busy(s1, 5);
    aclrtEvent ev = mark(s1);
    OK(aclrtStreamWaitEvent(s2, ev));
    aclrtEvent after = mark(s2);
    aclrtEvent free_running = mark(s3);
    OK(aclrtSynchronizeDevice());
    printf("ev=%llu\nwaiter=%llu\nother=%llu\n", (unsigned long long)stamp(ev), (unsigned long long)stamp(after),
           (unsigned long long)stamp(free_running));
}

/* A stream that needs milliseconds misses a 1 ms synchronisation deadline. */
static void scenario_sync_timeout(void) {
    aclrtStream s = NULL;
    OK(aclrtCreateStream(&s));
    make_busy(s, 120);
    aclrtEvent ev = mark(s);
    printf("timeout_rc=%d\n", (int)aclrtSynchronizeStreamWithTimeout(s, 1));
    aclrtEventRecordedStatus st = ACL_EVENT_RECORDED_STATUS_COMPLETE;
    OK(aclrtQueryEventStatus(ev, &st));
    printf("ready_after_timeout=%d\n", st == ACL_EVENT_RECORDED_STATUS_COMPLETE);
    printf("unlimited_rc=%d\n", (int)aclrtSynchronizeStreamWithTimeout(s, -1));
    OK(aclrtQueryEventStatus(ev, &st));
    printf("ready_after_sync=%d\n", st == ACL_EVENT_RECORDED_STATUS_COMPLETE);
    printf("idle_rc=%d\n", (int)aclrtSynchronizeStreamWithTimeout(s, 1));
}

/* Host-side costs, measured as the gap between events recorded on an idle stream. */
static void scenario_host_cost(void) {
    aclrtStream s = NULL, idle = NULL;
    OK(aclrtCreateStream(&s));
    OK(aclrtCreateStream(&idle));
    const size_t bytes = 1 << 20;
    void *d = NULL, *d2 = NULL;
    unsigned char* host = calloc(bytes, 1);
    OK(aclrtMalloc(&d, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    OK(aclrtMalloc(&d2, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    int32_t dev = 0;
#define MEASURE(label, body)                                            \
    do {                                                                \
        aclrtEvent a_ = mark(s);                                        \
        body;                                                           \
        aclrtEvent b_ = mark(s);                                        \
        OK(aclrtSynchronizeStream(s));                                  \
        printf("%s=%lld\n", label, (long long)(stamp(b_) - stamp(a_))); \
    } while (0)
    MEASURE("nothing", (void)0);
    MEASURE("get_device_x100", for (int i = 0; i < 100; ++i) OK(aclrtGetDevice(&dev)));
    MEASURE("memcpy_h2d", OK(aclrtMemcpy(d, bytes, host, bytes, ACL_MEMCPY_HOST_TO_DEVICE)));
    MEASURE("memcpy_d2h", OK(aclrtMemcpy(host, bytes, d, bytes, ACL_MEMCPY_DEVICE_TO_HOST)));
    MEASURE("memcpy_d2d", OK(aclrtMemcpy(d2, bytes, d, bytes, ACL_MEMCPY_DEVICE_TO_DEVICE)));
    MEASURE("memcpy_h2h", OK(aclrtMemcpy(host, bytes, host + 1, bytes - 1, ACL_MEMCPY_HOST_TO_HOST)));
    MEASURE("memset", OK(aclrtMemset(d, bytes, 3, bytes)));
    MEASURE("sync_idle", OK(aclrtSynchronizeStream(idle)));
#undef MEASURE
    free(host);
    OK(aclrtFree(d));
    OK(aclrtFree(d2));
}

/* Device-side durations of asynchronous copies and fills (device ahead of the host). */
static void scenario_async_cost(void) {
    aclrtStream s = NULL;
    OK(aclrtCreateStream(&s));
    const size_t bytes = 1 << 20;
    void *d = NULL, *d2 = NULL;
    unsigned char* host = calloc(bytes, 1);
    OK(aclrtMalloc(&d, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    OK(aclrtMalloc(&d2, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    make_busy(s, 30);
    aclrtEvent e[5];
    e[0] = mark(s);
    OK(aclrtMemcpyAsync(d, bytes, host, bytes, ACL_MEMCPY_HOST_TO_DEVICE, s));
    e[1] = mark(s);
    OK(aclrtMemcpyAsync(d2, bytes, d, bytes, ACL_MEMCPY_DEVICE_TO_DEVICE, s));
    e[2] = mark(s);
    OK(aclrtMemsetAsync(d, bytes, 0, bytes, s));
    e[3] = mark(s);
    OK(aclrtMemcpyAsync(host, bytes, d2, bytes, ACL_MEMCPY_DEVICE_TO_HOST, s));
    e[4] = mark(s);
    OK(aclrtSynchronizeStream(s));
    printf("h2d=%llu\nd2d=%llu\nmemset=%llu\nd2h=%llu\n", (unsigned long long)(stamp(e[1]) - stamp(e[0])),
           (unsigned long long)(stamp(e[2]) - stamp(e[1])), (unsigned long long)(stamp(e[3]) - stamp(e[2])),
           (unsigned long long)(stamp(e[4]) - stamp(e[3])));
    free(host);
    OK(aclrtFree(d));
    OK(aclrtFree(d2));
}

/* A fixed mixed workload on two streams; its timeline is printed in full. */
static void scenario_workload(void) {
    aclrtStream s1 = NULL, s2 = NULL;
    OK(aclrtCreateStream(&s1));
    OK(aclrtCreateStream(&s2));
    const char* names[] = {"matmul_a", "softmax_b", "add_c", "attention_d", "gelu_e", "aicpu_f"};
    const uint32_t blocks[] = {20, 40, 8, 10, 16, 1};
    static unsigned char host[1 << 16];
    void* d = NULL;
    OK(aclrtMalloc(&d, sizeof host, ACL_MEM_MALLOC_HUGE_FIRST));
    aclrtEvent ev[32];
    int n = 0;
    for (int round = 0; round < 4; ++round) {
        for (int k = 0; k < 6; ++k) {
            aclrtStream s = (k % 2) ? s2 : s1;
            OK(aclrtLaunchKernel(function(names[k]), blocks[k], NULL, 0, s));
        }
        OK(aclrtMemcpyAsync(d, sizeof host, host, sizeof host, ACL_MEMCPY_HOST_TO_DEVICE, s1));
        ev[n++] = mark(s1);
        OK(aclrtStreamWaitEvent(s2, ev[n - 1]));
        ev[n++] = mark(s2);
    }
    OK(aclrtSynchronizeDevice());
    for (int i = 0; i < n; ++i) printf("ev%d=%llu\n", i, (unsigned long long)stamp(ev[i]));
    OK(aclrtFree(d));
}

/* Wall clock: synchronising really waits for the modelled work. */
static void scenario_wall(void) {
    aclrtStream s = NULL;
    OK(aclrtCreateStream(&s));
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC_RAW, &t0);
    make_busy(s, 50);
    aclrtEvent a = mark(s);
    OK(aclrtSynchronizeStream(s));
    clock_gettime(CLOCK_MONOTONIC_RAW, &t1);
    const long long waited = (long long)(t1.tv_sec - t0.tv_sec) * 1000000000LL + (t1.tv_nsec - t0.tv_nsec);
    aclrtEventRecordedStatus st = ACL_EVENT_RECORDED_STATUS_NOT_READY;
    OK(aclrtQueryEventStatus(a, &st));
    printf("wall_ns=%lld\ncomplete=%d\n", waited, st == ACL_EVENT_RECORDED_STATUS_COMPLETE);
}

int main(int argc, char** argv) {
    if (argc < 2) return 2;
    OK(aclInit(NULL));
    OK(aclrtSetDevice(0));
    const char* which = argv[1];
    if (strcmp(which, "kernel") == 0) scenario_kernel(argc, argv);
    else if (strcmp(which, "two_streams") == 0) scenario_two_streams(argc, argv);
    else if (strcmp(which, "order") == 0) scenario_order();
    else if (strcmp(which, "cross_stream") == 0) scenario_cross_stream();
    else if (strcmp(which, "sync_timeout") == 0) scenario_sync_timeout();
    else if (strcmp(which, "host_cost") == 0) scenario_host_cost();
    else if (strcmp(which, "async_cost") == 0) scenario_async_cost();
    else if (strcmp(which, "workload") == 0) scenario_workload();
    else if (strcmp(which, "wall") == 0) scenario_wall();
    else {
        fprintf(stderr, "unknown scenario %s\n", which);
        return 2;
    }
    OK(aclrtResetDevice(0));
    OK(aclFinalize());
    return g_failures == 0 ? 0 : 1;
}
