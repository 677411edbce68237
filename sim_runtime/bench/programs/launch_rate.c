/*
 * Kernel launches per second of host time on the simulator, with and without msPTI.
 *
 *   launch_rate MODE COUNT [CHUNK]
 *   MODE = off     no msPTI calls (run without LD_PRELOAD)
 *          idle    msPTI preloaded, no activity kind enabled
 *          traced  msPTI preloaded, KERNEL + API + RUNTIME_API enabled
 *   CHUNK          synchronise the stream after every CHUNK launches (default: only at the end); with
 *                  NPU_SIM_DEVICE_LOGS=sync this fixes the batches in which msPTI's reader takes the
 *                  device logs (the instruction count, launch_instructions.py)
 * Prints one JSON line: launches, seconds, ns per launch, records delivered and dropped, and the CPU
 * time per launch of the launching thread and of the whole process (all msPTI threads included):
 * on a loaded machine wall time also counts the time other programs held the cores.
 */
#include <alloca.h>
#include <dlfcn.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "acl/acl.h"
#include "bench_kernel.h"
#include "mspti/mspti.h"
#include "mspti/mspti_ext.h"

#define BUFFER_BYTES (8u << 20)
#define POOL 32

static _Alignas(8) uint8_t g_pool[POOL][BUFFER_BYTES];
static atomic_uint g_next;
static atomic_ullong g_records;

typedef msptiResult (*next_record_fn)(uint8_t*, size_t, msptiActivity**);
static next_record_fn g_next_record;

static void request(uint8_t** buffer, size_t* size, size_t* max_records) {
    unsigned i = atomic_fetch_add(&g_next, 1) % POOL;
    *buffer = g_pool[i];
    *size = BUFFER_BYTES;
    *max_records = 0;
}

static void complete(uint8_t* buffer, size_t size, size_t valid) {
    (void)size;
    msptiActivity* rec = NULL;
    unsigned long long n = 0;
    while (g_next_record(buffer, valid, &rec) == MSPTI_SUCCESS) ++n;
    atomic_fetch_add(&g_records, n);
}

// One launch, kept out of line so that callgrind can count the instructions spent inside the call
// (`--toggle-collect=launch_once`): the launching thread's synchronous cost, whatever other threads do.
__attribute__((noinline)) aclError launch_once(aclrtFuncHandle fn, void* args, size_t size, aclrtStream stream) {
    return aclrtLaunchKernel(fn, 8, args, size, stream);
}

static double clock_s(clockid_t id) {
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double now_s(void) { return clock_s(CLOCK_MONOTONIC); }

#define LOOKUP(type, name) ((type)dlsym(RTLD_DEFAULT, name))

static int run(int argc, char** argv);

/* The program's frames start at the same offset in a 4 KiB page whatever the size of the environment
 * and the arguments above them: glibc's copies and fills take alignment-dependent paths, so without
 * this the instruction counts of launch_instructions moved with the environment (529 to 597 inside
 * the launch call, one build, different shells). */
int main(int argc, char** argv) {
    volatile char* pad = alloca(((uintptr_t)__builtin_frame_address(0) & 4095) + 16);
    pad[0] = 0;
    return run(argc, argv);
}

__attribute__((noinline)) static int run(int argc, char** argv) {
    if (argc != 3 && argc != 4) {
        fprintf(stderr, "usage: %s off|idle|traced COUNT [CHUNK]\n", argv[0]);
        return 2;
    }
    const char* mode = argv[1];
    const long count = atol(argv[2]);
    const long chunk = argc == 4 ? atol(argv[3]) : 0;
    const int use_mspti = strcmp(mode, "off") != 0;
    const int traced = strcmp(mode, "traced") == 0;

    msptiSubscriberHandle sub = NULL;
    if (use_mspti) {
        // Touch the buffer pool first: the first write to a fresh page costs a page fault, which
        // belongs to the client's memory, not to the host cost msPTI adds to a launch.
        memset(g_pool, 1, sizeof g_pool);
        g_next_record = LOOKUP(next_record_fn, "msptiActivityGetNextRecord");
        if (g_next_record == NULL) {
            fprintf(stderr, "msPTI is not loaded: run with LD_PRELOAD=libmspti.so\n");
            return 2;
        }
        LOOKUP(msptiResult (*)(msptiSubscriberHandle*, msptiCallbackFunc, void*), "msptiSubscribe")(&sub, NULL, NULL);
        LOOKUP(msptiResult (*)(msptiBuffersCallbackRequestFunc, msptiBuffersCallbackCompleteFunc),
               "msptiActivityRegisterCallbacks")(request, complete);
    }
    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    aclrtStream stream = NULL;
    CHECK(aclrtCreateStream(&stream));
    if (traced) {
        msptiResult (*enable)(msptiActivityKind) = LOOKUP(msptiResult (*)(msptiActivityKind), "msptiActivityEnable");
        enable(MSPTI_ACTIVITY_KIND_KERNEL);
        enable(MSPTI_ACTIVITY_KIND_API);
        enable(MSPTI_ACTIVITY_KIND_RUNTIME_API);
    }
    static const char image[] = "launch-rate-kernel";
    aclrtFuncHandle fn = NULL;
    CHECK(bench_load_kernel(image, sizeof image, &fn));
    uint64_t args[2] = {0, 0};

    for (long i = 0; i < count / 10; ++i) {  // warm up
        CHECK(launch_once(fn, args, sizeof args, stream));
        if (chunk > 0 && (i + 1) % chunk == 0) CHECK(aclrtSynchronizeStream(stream));
    }
    const double t0 = now_s();
    const double thread0 = clock_s(CLOCK_THREAD_CPUTIME_ID);
    const double process0 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
    for (long i = 0; i < count; ++i) {
        CHECK(launch_once(fn, args, sizeof args, stream));
        if (chunk > 0 && (i + 1) % chunk == 0) CHECK(aclrtSynchronizeStream(stream));
    }
    const double seconds = now_s() - t0;
    const double thread_cpu = clock_s(CLOCK_THREAD_CPUTIME_ID) - thread0;
    const double process_cpu = clock_s(CLOCK_PROCESS_CPUTIME_ID) - process0;
    CHECK(aclrtSynchronizeStream(stream));

    unsigned long long dropped = 0;
    int dropped_taken = 1;
    if (use_mspti) {
        LOOKUP(msptiResult (*)(uint32_t), "msptiActivityFlushAll")(1);
        msptiResult (*get_dropped)(msptiActivityKind, uint64_t*) =
            LOOKUP(msptiResult (*)(msptiActivityKind, uint64_t*), "msptiActivityGetDroppedRecords");
        uint64_t d = 0;
        if (get_dropped && get_dropped(MSPTI_ACTIVITY_KIND_INVALID, &d) == MSPTI_SUCCESS) dropped = d;
        else dropped_taken = 0; /* not in this libmspti (mspti_ext.h): printed as null */
        LOOKUP(msptiResult (*)(msptiSubscriberHandle), "msptiUnsubscribe")(sub);
    }
    CHECK(aclrtDestroyStream(stream));
    CHECK(aclrtResetDevice(0));
    printf(
        "{\"mode\": \"%s\", \"launches\": %ld, \"seconds\": %.6f, \"ns_per_launch\": %.1f, "
        "\"thread_cpu_ns_per_launch\": %.1f, \"process_cpu_ns_per_launch\": %.1f, "
        "\"records\": %llu, \"dropped\": ",
        mode, count, seconds, seconds * 1e9 / (double)count, thread_cpu * 1e9 / (double)count,
        process_cpu * 1e9 / (double)count, (unsigned long long)atomic_load(&g_records));
    if (dropped_taken) printf("%llu}\n", dropped);
    else printf("null}\n");
    return 0;
}
