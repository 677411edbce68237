/*
 * Kernels whose device records are corrupted on the way (run with a fault plan such as
 * NPU_SIM_FAULTS="prof_channel_read:garble"): every launched kernel must be delivered or
 * counted as dropped, and msPTI's state must stay bounded. argv[1] = rounds of 4 launches on one
 * stream, each round followed by a synchronisation and FlushAll; argv[2] = 1: then one more kernel,
 * "outlives_age_limit", which the test's cost table makes run for longer than msPTI's age limit for
 * lost device halves, then FlushAll again (up to 3 times while records are owed). Prints "S" lines with launched / delivered / dropped KERNEL
 * records and the resident set: after the rounds (phase=collecting), after the long kernel
 * (phase=aged, with argv[2] = 1) and after Unsubscribe (phase=unsubscribed).
 */
#include <acl/acl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "mspti/mspti.h"
#include "mspti/mspti_ext.h"

static uint64_t g_delivered; /* written by CompleteFunc, read after FlushAll returned */

static void request(uint8_t** buffer, size_t* size, size_t* max_records) {
    *size = 1 << 16;
    *buffer = (uint8_t*)malloc(*size);
    *max_records = 0;
}

static void complete(uint8_t* buffer, size_t size, size_t valid) {
    (void)size;
    msptiActivity* r = NULL;
    while (msptiActivityGetNextRecord(buffer, valid, &r) == MSPTI_SUCCESS) {
        if (r->kind == MSPTI_ACTIVITY_KIND_KERNEL) __atomic_add_fetch(&g_delivered, 1, __ATOMIC_RELAXED);
    }
    free(buffer);
}

static long resident_kb(void) {
    FILE* f = fopen("/proc/self/statm", "r");
    long pages = 0, resident = 0;
    if (f != NULL) {
        if (fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = 0;
        fclose(f);
    }
    return resident * 4;
}

static void report(const char* phase, int launched) {
    uint64_t dropped = 0, lost = 0, failed = 0;
    msptiActivityGetDroppedRecords(MSPTI_ACTIVITY_KIND_KERNEL, &dropped);
    msptiActivityGetDroppedRecordsByReason(MSPTI_ACTIVITY_KIND_KERNEL, MSPTI_DROP_REASON_DEVICE_HALF_LOST, &lost);
    msptiActivityGetDroppedRecordsByReason(MSPTI_ACTIVITY_KIND_KERNEL, MSPTI_DROP_REASON_COLLECTION_FAILED, &failed);
    printf("S phase=%s launched=%d delivered=%" PRIu64 " dropped=%" PRIu64 " dropped_lost=%" PRIu64
           " dropped_collection=%" PRIu64 " rss_kb=%ld\n",
           phase, launched, __atomic_load_n(&g_delivered, __ATOMIC_RELAXED), dropped, lost, failed, resident_kb());
    fflush(stdout);
}

int main(int argc, char** argv) {
    const int rounds = argc > 1 ? atoi(argv[1]) : 500;
    const int outlive = argc > 2 ? atoi(argv[2]) : 0;
    if (aclInit(NULL) != ACL_SUCCESS || msptiActivityRegisterCallbacks(request, complete) != MSPTI_SUCCESS) return 2;
    msptiSubscriberHandle subscriber = NULL;
    if (msptiSubscribe(&subscriber, NULL, NULL) != MSPTI_SUCCESS) return 3;
    if (msptiActivityEnable(MSPTI_ACTIVITY_KIND_KERNEL) != MSPTI_SUCCESS) return 4;
    aclrtStream stream = NULL;
    static const char image[] = "kernels";
    aclrtBinHandle bin = NULL;
    aclrtFuncHandle fn = NULL;
    if (aclrtSetDevice(0) != ACL_SUCCESS || aclrtCreateStream(&stream) != ACL_SUCCESS ||
        aclrtBinaryLoadFromData(image, sizeof image, NULL, &bin) != ACL_SUCCESS ||
        aclrtBinaryGetFunction(bin, "lost_kernel", &fn) != ACL_SUCCESS)
        return 5;
    uint64_t args[2] = {0, 0};
    int launched = 0;
    for (int i = 0; i < rounds; ++i) {
        for (int k = 0; k < 4; ++k) launched += aclrtLaunchKernel(fn, 1, args, sizeof args, stream) == ACL_SUCCESS;
        aclrtSynchronizeStream(stream);
        msptiActivityFlushAll(0);
    }
    report("collecting", launched);
    if (outlive) {
        aclrtFuncHandle slow = NULL;
        if (aclrtBinaryGetFunction(bin, "outlives_age_limit", &slow) != ACL_SUCCESS) return 6;
        launched += aclrtLaunchKernel(slow, 1, args, sizeof args, stream) == ACL_SUCCESS;
        aclrtSynchronizeStream(stream);
        /* The age rule applies at a flush that read everything the driver held; a flush waits for the
         * driver only so long (docs/mspti-deviations.md, FlushAll), which a slow build on a loaded
         * machine can exceed, so flush again (at most 3 times) while records are still owed. */
        for (int flush = 0; flush < 3; ++flush) {
            msptiActivityFlushAll(0);
            uint64_t dropped = 0;
            msptiActivityGetDroppedRecords(MSPTI_ACTIVITY_KIND_KERNEL, &dropped);
            if (__atomic_load_n(&g_delivered, __ATOMIC_RELAXED) + dropped >= (uint64_t)launched) break;
        }
        report("aged", launched);
    }
    msptiUnsubscribe(subscriber);
    msptiActivityFlushAll(0);
    report("unsubscribed", launched);
    return 0;
}
