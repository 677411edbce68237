/*
 * Device collection that cannot start (run with a fault plan such as
 * NPU_SIM_FAULTS="prof_drv_start:error=-1"): the caller is told, and every record that needed it is
 * counted as dropped.
 *
 * argv[1] = "open-first": the device is open before msptiActivityEnable, so the failure is known at
 * the call; "enable-first": Enable comes first, the device opens (and fails) afterwards.
 * Then 50 kernels and 10 mstxMarkA(msg, stream) marks on one stream, synchronised, and FlushAll.
 * Prints "S enable_kernel=<result> enable_marker=<result> kernel_delivered=.. kernel_dropped=..
 * kernel_collection_failed=.. device_marker_delivered=.. host_marker_delivered=.. marker_dropped=..
 * marker_collection_failed=..".
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

static uint64_t dropped(msptiActivityKind kind, msptiDropReason reason) {
    uint64_t n = 0;
    msptiActivityGetDroppedRecordsByReason(kind, reason, &n);
    return n;
}

static aclrtStream g_stream;
static aclrtFuncHandle g_fn;

static int open_device(void) {
    static const char image[] = "kernels";
    aclrtBinHandle bin = NULL;
    if (aclrtSetDevice(0) != ACL_SUCCESS || aclrtCreateStream(&g_stream) != ACL_SUCCESS ||
        aclrtBinaryLoadFromData(image, sizeof image, NULL, &bin) != ACL_SUCCESS ||
        aclrtBinaryGetFunction(bin, "start_failure_kernel", &g_fn) != ACL_SUCCESS)
        return 0;
    return 1;
}

int main(int argc, char** argv) {
    const int open_first = argc > 1 && strcmp(argv[1], "open-first") == 0;
    if (aclInit(NULL) != ACL_SUCCESS || msptiActivityRegisterCallbacks(request, complete) != MSPTI_SUCCESS) return 2;
    if (open_first && !open_device()) return 3;
    msptiSubscriberHandle subscriber = NULL;
    if (msptiSubscribe(&subscriber, NULL, NULL) != MSPTI_SUCCESS) return 4;
    const msptiResult kernel = msptiActivityEnable(MSPTI_ACTIVITY_KIND_KERNEL);
    const msptiResult marker = msptiActivityEnable(MSPTI_ACTIVITY_KIND_MARKER);
    if (!open_first && !open_device()) return 5;
    uint64_t args[2] = {0, 0};
    for (int i = 0; i < 50; ++i) {
        if (aclrtLaunchKernel(g_fn, 1, args, sizeof args, g_stream) != ACL_SUCCESS) return 6;
        if (i % 5 == 0) mstxMarkA("device mark", g_stream);
    }
    aclrtSynchronizeStream(g_stream);
    msptiActivityFlushAll(1);
    printf("S enable_kernel=%d enable_marker=%d kernel_delivered=%" PRIu64 " kernel_dropped=%" PRIu64
           " kernel_collection_failed=%" PRIu64 " device_marker_delivered=%" PRIu64 " host_marker_delivered=%" PRIu64
           " marker_dropped=%" PRIu64 " marker_collection_failed=%" PRIu64 "\n",
           (int)kernel, (int)marker, __atomic_load_n(&g_kernels, __ATOMIC_RELAXED),
           dropped(MSPTI_ACTIVITY_KIND_KERNEL, MSPTI_DROP_REASON_ANY),
           dropped(MSPTI_ACTIVITY_KIND_KERNEL, MSPTI_DROP_REASON_COLLECTION_FAILED),
           __atomic_load_n(&g_device_markers, __ATOMIC_RELAXED), __atomic_load_n(&g_host_markers, __ATOMIC_RELAXED),
           dropped(MSPTI_ACTIVITY_KIND_MARKER, MSPTI_DROP_REASON_ANY),
           dropped(MSPTI_ACTIVITY_KIND_MARKER, MSPTI_DROP_REASON_COLLECTION_FAILED));
    msptiUnsubscribe(subscriber);
    return 0;
}
