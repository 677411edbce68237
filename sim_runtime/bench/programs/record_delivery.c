/*
 * Records per second delivered from producer threads into CompleteFunc.
 *
 *   record_delivery THREADS RECORDS_PER_THREAD
 * Each producer thread makes host markers (mstxMarkA with MARKER enabled) as fast as it can; the
 * CompleteFunc walks every buffer with msptiActivityGetNextRecord and counts its records. The window
 * runs from the start of production until msptiActivityFlushAll(1) has returned, so every record
 * counted was delivered inside it. Prints one JSON line: records delivered and dropped, seconds,
 * records per second, and CPU time per record of the whole process. The drop count is null when the
 * library has no msptiActivityGetDroppedRecords (optional_symbols.h).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "buffer_pool.h"
#include "optional_symbols.h"
#include "mstx/ms_tools_ext.h"

static long g_per_thread;

static double clock_s(clockid_t id) {
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void* produce(void* arg) {
    (void)arg;
    for (long i = 0; i < g_per_thread; ++i) mstxMarkA("delivery-benchmark", NULL);
    return NULL;
}

static int run_producers(int threads) {
    pthread_t ids[64];
    for (int t = 0; t < threads; ++t) {
        if (pthread_create(&ids[t], NULL, produce, NULL) != 0) return 0;
    }
    for (int t = 0; t < threads; ++t) pthread_join(ids[t], NULL);
    return 1;
}

int main(int argc, char** argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s THREADS RECORDS_PER_THREAD\n", argv[0]);
        return 2;
    }
    const int threads = atoi(argv[1]);
    const long per_thread = atol(argv[2]);
    if (threads < 1 || threads > 64 || per_thread < 1) return 2;
    if (!pool_init(32, 4u << 20)) return 1;

    msptiSubscriberHandle sub = NULL;
    if (msptiSubscribe(&sub, NULL, NULL) != MSPTI_SUCCESS ||
        msptiActivityRegisterCallbacks(pool_request, pool_complete) != MSPTI_SUCCESS ||
        msptiActivityEnable(MSPTI_ACTIVITY_KIND_MARKER) != MSPTI_SUCCESS) {
        fprintf(stderr, "msPTI setup failed\n");
        return 1;
    }
    g_per_thread = per_thread / 10 + 1; /* warm up: first buffers, the string pool, the threads' state */
    if (!run_producers(threads)) return 1;
    msptiActivityFlushAll(1);
    const unsigned long long warm = atomic_load(&g_pool.records);

    g_per_thread = per_thread;
    const double t0 = clock_s(CLOCK_MONOTONIC);
    const double cpu0 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
    if (!run_producers(threads)) return 1;
    msptiActivityFlushAll(1);
    const double seconds = clock_s(CLOCK_MONOTONIC) - t0;
    const double cpu = clock_s(CLOCK_PROCESS_CPUTIME_ID) - cpu0;
    const unsigned long long delivered = atomic_load(&g_pool.records) - warm;

    uint64_t dropped = 0;
    const int have_dropped = optional_dropped_records(&dropped);
    msptiUnsubscribe(sub);
    printf("{\"threads\": %d, \"produced\": %ld, \"delivered\": %llu, \"dropped\": ", threads, per_thread * threads,
           delivered);
    print_optional_count(have_dropped, dropped);
    printf(", \"seconds\": %.6f, \"records_per_second\": %.0f, \"process_cpu_ns_per_record\": ", seconds,
           (double)delivered / seconds);
    if (delivered) { /* none delivered: no CPU time per record (JSON has no infinity) */
        printf("%.1f}\n", cpu * 1e9 / (double)delivered);
    } else {
        printf("null}\n");
    }
    return 0;
}
