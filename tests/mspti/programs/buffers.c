/*
 * Buffer lifecycle and drop accounting with host markers as the record source.
 * argv[1] = mode, argv[2] = number of marks.
 *   full      1 KiB buffers: full buffers go back without FlushAll; nothing lost
 *   decline   the first 3 requests are declined
 *   null      every request is declined
 *   tiny      16-byte buffers (smaller than any record)
 *   cap       maxNumRecords = 5
 *   partial   one big buffer, FlushAll delivers it partly filled
 *   period    FlushPeriod delivers a partly filled buffer without FlushAll
 *   exit      no FlushAll at all: the exit flush delivers (main thread and an exited thread)
 *   atexit    marks made in an atexit handler that runs before msPTI's exit flush (exit() has
 *             already destroyed the main thread's thread-locals then): the exit flush delivers them
 *   noreg     marks before RegisterCallbacks are dropped and counted
 */
#include <time.h>
#include <unistd.h>

#include "collector.h"
#include "mstx/ms_tools_ext.h"

static void sleep_ms(int ms) {
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static void marks(int n, const char* what) {
    char msg[64];
    for (int i = 0; i < n; ++i) {
        snprintf(msg, sizeof msg, "%s-%d", what, i);
        mstxMarkA(msg, NULL);
    }
}

static void* thread_marks(void* arg) {
    marks((int)(intptr_t)arg, "thread");
    return NULL;
}

static int g_atexit_marks;

static void atexit_marks(void) { marks(g_atexit_marks, "atexit"); }

int main(int argc, char** argv) {
    const char* mode = argc > 1 ? argv[1] : "full";
    const int n = argc > 2 ? atoi(argv[2]) : 100;
    msptiSubscriberHandle sub = NULL;
    CHECK_EQ(msptiSubscribe(&sub, NULL, NULL), MSPTI_SUCCESS);
    CHECK_EQ(msptiActivityEnable(MSPTI_ACTIVITY_KIND_MARKER), MSPTI_SUCCESS);

    if (strcmp(mode, "noreg") == 0) {
        marks(n, "unregistered");
        uint64_t dropped = 0;
        msptiActivityGetDroppedRecords(MSPTI_ACTIVITY_KIND_MARKER, &dropped);
        printf("P dropped_before=%" PRIu64 "\n", dropped);
    }
    if (strcmp(mode, "full") == 0) g_collector.buffer_size = 1024;
    if (strcmp(mode, "decline") == 0) g_collector.decline_remaining = 3;
    if (strcmp(mode, "null") == 0) g_collector.decline_all = 1;
    if (strcmp(mode, "tiny") == 0) g_collector.buffer_size = 16;
    if (strcmp(mode, "cap") == 0) g_collector.max_records = 5;
    if (strcmp(mode, "partial") == 0 || strcmp(mode, "period") == 0) g_collector.buffer_size = 8 << 20;
    CHECK(collector_register());

    if (strcmp(mode, "period") == 0) {
        CHECK_EQ(msptiActivityFlushPeriod(20), MSPTI_SUCCESS);
        marks(n, "period");
        unsigned long completes = 0;
        for (int i = 0; i < 100 && completes == 0; ++i) {
            sleep_ms(10);
            pthread_mutex_lock(&g_collector.lock);
            completes = g_collector.completes;
            pthread_mutex_unlock(&g_collector.lock);
        }
        printf("P completes_before_flush=%lu\n", completes);
        CHECK_EQ(msptiActivityFlushPeriod(0), MSPTI_SUCCESS);
    } else if (strcmp(mode, "exit") == 0) {
        pthread_t t;
        pthread_create(&t, NULL, thread_marks, (void*)(intptr_t)n);
        pthread_join(t, NULL);
        marks(n, "main");
        /* No FlushAll, no unsubscribe: everything arrives through the exit flush. */
        printf("P exiting=1\n");
        fflush(stdout);
        return 0;
    } else if (strcmp(mode, "atexit") == 0) {
        marks(n, "main");
        /* Registered after msPTI's exit flush (which the first Subscribe registered), so it runs first. */
        g_atexit_marks = n;
        CHECK_EQ(atexit(atexit_marks), 0);
        printf("P exiting=1\n");
        fflush(stdout);
        return 0;
    } else if (strcmp(mode, "full") == 0) {
        marks(n, "full");
        /* Full buffers are handed back by the delivery thread, without any FlushAll. */
        unsigned long completes = 0;
        for (int i = 0; i < 200 && completes == 0; ++i) {
            sleep_ms(5);
            pthread_mutex_lock(&g_collector.lock);
            completes = g_collector.completes;
            pthread_mutex_unlock(&g_collector.lock);
        }
        printf("P completes_before_flush=%lu\n", completes);
    } else {
        marks(n, mode);
    }
    CHECK_EQ(msptiActivityFlushAll(1), MSPTI_SUCCESS);
    /* FlushAll returns after the deliveries: the records are all here now. */
    uint64_t dropped = 0;
    msptiActivityGetDroppedRecords(MSPTI_ACTIVITY_KIND_MARKER, &dropped);
    pthread_mutex_lock(&g_collector.lock);
    printf("P produced=%d delivered=%lu dropped=%" PRIu64 "\n", n, g_collector.records, dropped);
    pthread_mutex_unlock(&g_collector.lock);
    collector_summary();
    CHECK_EQ(msptiUnsubscribe(sub), MSPTI_SUCCESS);
    return 0;
}
