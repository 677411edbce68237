/*
 * Resident memory of a traced process over millions of records: msPTI's memory must be bounded by
 * the client's buffers, with no growth per record.
 *
 *   record_memory LAUNCHES SAMPLES
 * Enables KERNEL + API + RUNTIME_API (two records per kernel launch) with a fixed pool of client
 * buffers that CompleteFunc hands back, launches LAUNCHES kernels on the simulator and samples the
 * process RSS SAMPLES times along the way (after a warm-up of LAUNCHES / SAMPLES launches). Prints
 * one JSON line: records delivered and dropped (null when the library has no
 * msptiActivityGetDroppedRecords), the client pool's size and the RSS samples in bytes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "acl/acl.h"
#include "bench_kernel.h"
#include "buffer_pool.h"
#include "optional_symbols.h"

#define POOL_BUFFERS 16
#define POOL_BUFFER_BYTES (1u << 20)
#define MAX_SAMPLES 100

static long rss_bytes(void) {
    FILE* f = fopen("/proc/self/statm", "r");
    long size = 0, resident = 0;
    if (f == NULL) return -1;
    if (fscanf(f, "%ld %ld", &size, &resident) != 2) resident = -1;
    fclose(f);
    return resident < 0 ? -1 : resident * sysconf(_SC_PAGESIZE);
}

int main(int argc, char** argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s LAUNCHES SAMPLES\n", argv[0]);
        return 2;
    }
    const long launches = atol(argv[1]);
    const int samples = atoi(argv[2]);
    if (launches < 1 || samples < 1 || samples > MAX_SAMPLES) return 2;
    if (!pool_init(POOL_BUFFERS, POOL_BUFFER_BYTES)) return 1;

    msptiSubscriberHandle sub = NULL;
    if (msptiSubscribe(&sub, NULL, NULL) != MSPTI_SUCCESS ||
        msptiActivityRegisterCallbacks(pool_request, pool_complete) != MSPTI_SUCCESS) {
        fprintf(stderr, "msPTI setup failed\n");
        return 1;
    }
    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    aclrtStream stream = NULL;
    CHECK(aclrtCreateStream(&stream));
    msptiActivityEnable(MSPTI_ACTIVITY_KIND_KERNEL);
    msptiActivityEnable(MSPTI_ACTIVITY_KIND_API);
    msptiActivityEnable(MSPTI_ACTIVITY_KIND_RUNTIME_API);
    static const char image[] = "record-memory-kernel";
    aclrtFuncHandle fn = NULL;
    CHECK(bench_load_kernel(image, sizeof image, &fn));
    uint64_t args[2] = {0, 0};

    const long step = launches / samples;
    long rss[MAX_SAMPLES + 1];
    for (long i = 0; i < step; ++i) CHECK(aclrtLaunchKernel(fn, 8, args, sizeof args, stream)); /* warm up */
    CHECK(aclrtSynchronizeStream(stream));
    rss[0] = rss_bytes();
    for (int s = 1; s <= samples; ++s) {
        for (long i = 0; i < step; ++i) CHECK(aclrtLaunchKernel(fn, 8, args, sizeof args, stream));
        rss[s] = rss_bytes();
    }
    CHECK(aclrtSynchronizeStream(stream));
    msptiActivityFlushAll(1);
    uint64_t dropped = 0;
    const int have_dropped = optional_dropped_records(&dropped);
    msptiUnsubscribe(sub);
    CHECK(aclrtDestroyStream(stream));
    CHECK(aclrtResetDevice(0));

    printf("{\"launches\": %ld, \"records\": %llu, \"dropped\": ", step * (samples + 1),
           (unsigned long long)atomic_load(&g_pool.records));
    print_optional_count(have_dropped, dropped);
    printf(", \"pool_bytes\": %lu, \"rss\": [", (unsigned long)POOL_BUFFERS * POOL_BUFFER_BYTES);
    for (int s = 0; s <= samples; ++s) printf("%s%ld", s ? ", " : "", rss[s]);
    printf("]}\n");
    return 0;
}
