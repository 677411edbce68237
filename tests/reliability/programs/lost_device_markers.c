/*
 * Device markers and kernels whose device records are lost or corrupted on the way (run with a
 * fault plan on prof_channel_read): every record must be delivered or counted as dropped once
 * FlushAll returns for work whose stream was synchronised before it, and again after Unsubscribe.
 *
 * argv[1] = rounds; each round launches 5 kernels and makes 5 mstxMarkA(msg, stream) marks on one
 * stream, then synchronises it: argv[2] = how (stream: aclrtSynchronizeStream, the default; timeout:
 * aclrtSynchronizeStreamWithTimeout; device: aclrtSynchronizeDevice; event: aclrtRecordEvent on the
 * stream, then aclrtSynchronizeEvent). Then FlushAll(1), a report (phase=flushed), Unsubscribe, FlushAll and
 * a report (phase=unsubscribed). A report: "S phase=<p> launched=<kernels> marks=<device marks>
 * kernel_delivered=.. kernel_dropped=.. device_marker_delivered=.. host_marker_delivered=..
 * marker_dropped=.. lost_halves=<dropped for DEVICE_HALF_LOST, all kinds>".
 */
#include <acl/acl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mspti/mspti.h"
#include "mspti/mspti_ext.h"
#include "mstx/ms_tools_ext.h"

static uint64_t g_kernels, g_device_markers, g_host_markers; /* written by CompleteFunc */

static void request(uint8_t** buffer, size_t* size, size_t* max_records) {
    *size = 1 << 16;
    *buffer = (uint8_t*)malloc(*size);
    *max_records = 0;
}

static void complete(uint8_t* buffer, size_t size, size_t valid) {
    (void)size;
    msptiActivity* r = NULL;
    while (msptiActivityGetNextRecord(buffer, valid, &r) == MSPTI_SUCCESS) {
        if (r->kind == MSPTI_ACTIVITY_KIND_KERNEL) __atomic_add_fetch(&g_kernels, 1, __ATOMIC_RELAXED);
        if (r->kind == MSPTI_ACTIVITY_KIND_MARKER) {
            const msptiActivityMarker* m = (const msptiActivityMarker*)r;
            uint64_t* counter =
                m->sourceKind == MSPTI_ACTIVITY_SOURCE_KIND_DEVICE ? &g_device_markers : &g_host_markers;
            __atomic_add_fetch(counter, 1, __ATOMIC_RELAXED);
        }
    }
    free(buffer);
}

static uint64_t dropped(msptiActivityKind kind) {
    uint64_t n = 0;
    msptiActivityGetDroppedRecords(kind, &n);
    return n;
}

static void report(const char* phase, int launched, int marks) {
    uint64_t lost = 0;
    msptiActivityGetDroppedRecordsByReason(MSPTI_ACTIVITY_KIND_INVALID, MSPTI_DROP_REASON_DEVICE_HALF_LOST, &lost);
    printf("S phase=%s launched=%d marks=%d kernel_delivered=%" PRIu64 " kernel_dropped=%" PRIu64
           " device_marker_delivered=%" PRIu64 " host_marker_delivered=%" PRIu64 " marker_dropped=%" PRIu64
           " lost_halves=%" PRIu64 "\n",
           phase, launched, marks, __atomic_load_n(&g_kernels, __ATOMIC_RELAXED), dropped(MSPTI_ACTIVITY_KIND_KERNEL),
           __atomic_load_n(&g_device_markers, __ATOMIC_RELAXED), __atomic_load_n(&g_host_markers, __ATOMIC_RELAXED),
           dropped(MSPTI_ACTIVITY_KIND_MARKER), lost);
    fflush(stdout);
}

/* The synchronisation that ends a round; 0 when it succeeded. */
static int synchronise(const char* how, aclrtStream stream, aclrtEvent event) {
    if (strcmp(how, "timeout") == 0) return aclrtSynchronizeStreamWithTimeout(stream, 10000);
    if (strcmp(how, "device") == 0) return aclrtSynchronizeDevice();
    if (strcmp(how, "event") == 0) {
        const int recorded = aclrtRecordEvent(event, stream);
        return recorded != ACL_SUCCESS ? recorded : aclrtSynchronizeEvent(event);
    }
    return aclrtSynchronizeStream(stream);
}

int main(int argc, char** argv) {
    const int rounds = argc > 1 ? atoi(argv[1]) : 10;
    const char* how = argc > 2 ? argv[2] : "stream";
    if (aclInit(NULL) != ACL_SUCCESS || msptiActivityRegisterCallbacks(request, complete) != MSPTI_SUCCESS) return 2;
    msptiSubscriberHandle subscriber = NULL;
    if (msptiSubscribe(&subscriber, NULL, NULL) != MSPTI_SUCCESS) return 3;
    if (msptiActivityEnable(MSPTI_ACTIVITY_KIND_KERNEL) != MSPTI_SUCCESS ||
        msptiActivityEnable(MSPTI_ACTIVITY_KIND_MARKER) != MSPTI_SUCCESS)
        return 4;
    aclrtStream stream = NULL;
    static const char image[] = "kernels";
    aclrtBinHandle bin = NULL;
    aclrtFuncHandle fn = NULL;
    if (aclrtSetDevice(0) != ACL_SUCCESS || aclrtCreateStream(&stream) != ACL_SUCCESS ||
        aclrtBinaryLoadFromData(image, sizeof image, NULL, &bin) != ACL_SUCCESS ||
        aclrtBinaryGetFunction(bin, "lost_kernel", &fn) != ACL_SUCCESS)
        return 5;
    aclrtEvent event = NULL;
    if (aclrtCreateEvent(&event) != ACL_SUCCESS) return 6;
    uint64_t args[2] = {0, 0};
    int launched = 0;
    int marks = 0;
    for (int i = 0; i < rounds; ++i) {
        for (int k = 0; k < 5; ++k) {
            launched += aclrtLaunchKernel(fn, 1, args, sizeof args, stream) == ACL_SUCCESS;
            mstxMarkA("device mark", stream);
            ++marks;
        }
        if (synchronise(how, stream, event) != ACL_SUCCESS) {
            fprintf(stderr, "synchronisation (%s) failed\n", how);
            return 7;
        }
    }
    msptiActivityFlushAll(1);
    report("flushed", launched, marks);
    msptiUnsubscribe(subscriber);
    msptiActivityFlushAll(1);
    report("unsubscribed", launched, marks);
    return 0;
}
