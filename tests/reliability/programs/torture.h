/*
 * Shared by the lifecycle torture programs: a thread-safe collector that counts delivered
 * records per kind and checks the buffer contract, optional misbehaviour inside the buffer
 * callbacks, a small workload on the simulated runtime, and the output protocol:
 *   E <text>       a failed check (the test requires none)
 *   S k=v ...      figures of a scenario
 * The msPTI functions are reached through a table, so the same code runs with libmspti linked
 * (or preloaded) and with libmspti dlopen'ed.
 */
#ifndef RELIABILITY_TORTURE_H
#define RELIABILITY_TORTURE_H

#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <acl/acl.h>

#include "mspti/mspti.h"
#include "mspti/mspti_ext.h"
#include "mstx/ms_tools_ext.h"

#define KINDS MSPTI_ACTIVITY_KIND_COUNT

/* ---- the msPTI functions in use ---- */
typedef struct {
    msptiResult (*subscribe)(msptiSubscriberHandle*, msptiCallbackFunc, void*);
    msptiResult (*unsubscribe)(msptiSubscriberHandle);
    msptiResult (*register_callbacks)(msptiBuffersCallbackRequestFunc, msptiBuffersCallbackCompleteFunc);
    msptiResult (*enable)(msptiActivityKind);
    msptiResult (*disable)(msptiActivityKind);
    bool (*is_enabled)(msptiActivityKind);
    msptiResult (*flush_all)(uint32_t);
    msptiResult (*flush_period)(uint32_t);
    msptiResult (*next_record)(uint8_t*, size_t, msptiActivity**);
    msptiResult (*dropped)(msptiActivityKind, uint64_t*);
} MsptiTable;

static MsptiTable g_mspti;

static inline void use_linked_mspti(void) {
    g_mspti.subscribe = msptiSubscribe;
    g_mspti.unsubscribe = msptiUnsubscribe;
    g_mspti.register_callbacks = msptiActivityRegisterCallbacks;
    g_mspti.enable = msptiActivityEnable;
    g_mspti.disable = msptiActivityDisable;
    g_mspti.is_enabled = msptiActivityIsEnabled;
    g_mspti.flush_all = msptiActivityFlushAll;
    g_mspti.flush_period = msptiActivityFlushPeriod;
    g_mspti.next_record = msptiActivityGetNextRecord;
    g_mspti.dropped = msptiActivityGetDroppedRecords;
}

/* ---- checks ---- */
static unsigned long g_failures;

static inline void fail(const char* fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    printf("E ");
    vprintf(fmt, ap);
    printf("\n");
    fflush(stdout);
    va_end(ap);
    __atomic_add_fetch(&g_failures, 1, __ATOMIC_RELAXED);
}

/* A progress line ("P what=n"): the test's hang detector counts only the time between two of them, so
 * that a run slowed down by a loaded machine is not taken for a stuck one. */
static inline void progress(const char* what, long n) {
    printf("P %s=%ld\n", what, n);
    fflush(stdout);
}

#define EXPECT_RESULT(call, want)                                                                       \
    do {                                                                                                \
        const msptiResult got_ = (call);                                                                \
        if (got_ != (want))                                                                             \
            fail("%s:%d: %s returned %d, documented %d", __FILE__, __LINE__, #call, got_, (int)(want)); \
    } while (0)

#define CHECK(cond)                                                              \
    do {                                                                         \
        if (!(cond)) fail("%s:%d: check failed: %s", __FILE__, __LINE__, #cond); \
    } while (0)

/* ---- the collector ---- */
typedef struct {
    pthread_mutex_t lock;
    size_t buffer_size;
    uint64_t delivered[KINDS];
    uint64_t requests, completes, declined;
    int decline;              /* RequestFunc hands out no buffer */
    int flush_in_complete;    /* CompleteFunc calls msptiActivityFlushAll */
    int mark_in_request;      /* RequestFunc emits an mstx marker */
    uint64_t flush_in_complete_calls;
    uint64_t marks_in_request;
    const char* tool;         /* which tool owns the callbacks (two-tool scenario) */
} Collector;

static Collector g_tool_a = {PTHREAD_MUTEX_INITIALIZER, 64 * 1024, {0}, 0, 0, 0, 0, 0, 0, 0, 0, "A"};
static Collector g_tool_b = {PTHREAD_MUTEX_INITIALIZER, 64 * 1024, {0}, 0, 0, 0, 0, 0, 0, 0, 0, "B"};

static inline void collector_request(Collector* c, uint8_t** buffer, size_t* size, size_t* max_records) {
    *max_records = 0;
    int mark = 0;
    pthread_mutex_lock(&c->lock);
    c->requests++;
    mark = c->mark_in_request;
    if (c->decline) {
        c->declined++;
        *buffer = NULL;
        *size = 0;
    } else {
        *size = c->buffer_size;
        *buffer = (uint8_t*)malloc(*size);
    }
    pthread_mutex_unlock(&c->lock);
    if (mark) {
        mstxMarkA("inside-request", NULL);
        __atomic_add_fetch(&c->marks_in_request, 1, __ATOMIC_RELAXED);
    }
}

static inline void collector_complete(Collector* c, uint8_t* buffer, size_t size, size_t valid) {
    if (buffer == NULL) {
        fail("tool %s: CompleteFunc got a NULL buffer", c->tool);
        return;
    }
    if (valid > size) fail("tool %s: validSize %zu > size %zu", c->tool, valid, size);
    uint64_t counts[KINDS] = {0};
    msptiActivity* r = NULL;
    msptiResult rc;
    while ((rc = g_mspti.next_record(buffer, valid, &r)) == MSPTI_SUCCESS) {
        if (r->kind > 0 && r->kind < KINDS) counts[r->kind]++;
    }
    if (rc != MSPTI_ERROR_MAX_LIMIT_REACHED) fail("tool %s: iteration ended with %d", c->tool, rc);
    free(buffer);
    pthread_mutex_lock(&c->lock);
    c->completes++;
    for (int k = 0; k < KINDS; ++k) c->delivered[k] += counts[k];
    const int flush = c->flush_in_complete;
    pthread_mutex_unlock(&c->lock);
    if (flush) {
        /* Documented: returns MSPTI_SUCCESS without waiting (docs/mspti-deviations.md §1). */
        EXPECT_RESULT(g_mspti.flush_all(1), MSPTI_SUCCESS);
        __atomic_add_fetch(&c->flush_in_complete_calls, 1, __ATOMIC_RELAXED);
    }
}

#define TORTURE_UNUSED __attribute__((unused))
static TORTURE_UNUSED void request_a(uint8_t** b, size_t* s, size_t* m) { collector_request(&g_tool_a, b, s, m); }
static TORTURE_UNUSED void complete_a(uint8_t* b, size_t s, size_t v) { collector_complete(&g_tool_a, b, s, v); }
static TORTURE_UNUSED void request_b(uint8_t** b, size_t* s, size_t* m) { collector_request(&g_tool_b, b, s, m); }
static TORTURE_UNUSED void complete_b(uint8_t* b, size_t s, size_t v) { collector_complete(&g_tool_b, b, s, v); }

static inline uint64_t delivered(Collector* c, int kind) {
    pthread_mutex_lock(&c->lock);
    const uint64_t n = c->delivered[kind];
    pthread_mutex_unlock(&c->lock);
    return n;
}

static inline uint64_t dropped(int kind) {
    uint64_t n = 0;
    EXPECT_RESULT(g_mspti.dropped((msptiActivityKind)kind, &n), MSPTI_SUCCESS);
    return n;
}

/* delivered (both tools) + dropped for `kind`. */
static inline uint64_t accounted(int kind) {
    return delivered(&g_tool_a, kind) + delivered(&g_tool_b, kind) + dropped(kind);
}

/* ---- the workload ---- */
static aclrtStream g_stream;
static aclrtFuncHandle g_kernel;

static inline void runtime_init(void) {
    if (aclInit(NULL) != ACL_SUCCESS) fail("aclInit failed");
    if (aclrtSetDevice(0) != ACL_SUCCESS) fail("aclrtSetDevice failed");
    if (aclrtCreateStream(&g_stream) != ACL_SUCCESS) fail("aclrtCreateStream failed");
    static const char image[] = "torture kernels";
    aclrtBinHandle bin = NULL;
    if (aclrtBinaryLoadFromData(image, sizeof image, NULL, &bin) != ACL_SUCCESS ||
        aclrtBinaryGetFunction(bin, "torture_kernel", &g_kernel) != ACL_SUCCESS)
        fail("kernel load failed");
}

static inline void launch(int n) {
    uint64_t args[2] = {0, 0};
    for (int i = 0; i < n; ++i) {
        if (aclrtLaunchKernel(g_kernel, 1, args, sizeof args, g_stream) != ACL_SUCCESS) fail("launch failed");
    }
}

/* n allocations and releases: 2n MEMORY records when MEMORY is on and msPTI interposes. */
static inline void alloc_free(int n) {
    for (int i = 0; i < n; ++i) {
        void* p = NULL;
        if (aclrtMalloc(&p, 256, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS || aclrtFree(p) != ACL_SUCCESS)
            fail("aclrtMalloc/aclrtFree failed");
    }
}

static inline void marks(int n, const char* text) {
    for (int i = 0; i < n; ++i) mstxMarkA(text, NULL);
}

static inline void sync_stream(void) {
    if (aclrtSynchronizeStream(g_stream) != ACL_SUCCESS) fail("aclrtSynchronizeStream failed");
}

#endif /* RELIABILITY_TORTURE_H */
