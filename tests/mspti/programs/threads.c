/*
 * 8 threads at once: marks, correlation stacks, enable/disable of other kinds, FlushAll,
 * GetNextRecord on private buffers, subscribe attempts. Every mark made while MARKER is on is
 * delivered exactly once; nothing deadlocks or crashes.
 */
#include <signal.h>
#include <unistd.h>

#include "collector.h"
#include "mstx/ms_tools_ext.h"

#define THREADS 8
#define MARKS 20000

static msptiSubscriberHandle g_sub;
static int g_subscribe_successes = 0;
static pthread_mutex_t g_count_lock = PTHREAD_MUTEX_INITIALIZER;

static void* worker(void* arg) {
    const int id = (int)(intptr_t)arg;
    char msg[32];
    snprintf(msg, sizeof msg, "t%d", id);
    const msptiActivityKind toggled = (msptiActivityKind)(MSPTI_ACTIVITY_KIND_ACL_API + id % 3);
    for (int i = 0; i < MARKS; ++i) {
        mstxMarkA(msg, NULL);
        if (i % 10 == 0) {
            const mstxRangeId r = mstxRangeStartA(msg, NULL);
            CHECK(r != 0);
            mstxRangeEnd(r);
        }
        if (i % 997 == 0) {
            msptiActivityEnable(toggled);
            msptiActivityDisable(toggled);
        }
        if (i % 1500 == 0) CHECK_EQ(msptiActivityFlushAll(0), MSPTI_SUCCESS);
        if (i % 500 == 0) {
            uint64_t last = 0;
            CHECK_EQ(msptiActivityPushExternalCorrelationId(MSPTI_EXTERNAL_CORRELATION_KIND_CUSTOM1, (uint64_t)i),
                     MSPTI_SUCCESS);
            CHECK_EQ(msptiActivityPopExternalCorrelationId(MSPTI_EXTERNAL_CORRELATION_KIND_CUSTOM1, &last),
                     MSPTI_SUCCESS);
            CHECK_EQ(last, i); /* stacks are per thread: no other thread's push shows up here */
        }
        if (i == 100) {
            msptiSubscriberHandle h = NULL;
            CHECK_EQ(msptiSubscribe(&h, NULL, NULL), MSPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED);
        }
    }
    return NULL;
}

static void* subscriber(void* arg) {
    (void)arg;
    msptiSubscriberHandle h = NULL;
    if (msptiSubscribe(&h, NULL, NULL) == MSPTI_SUCCESS) {
        pthread_mutex_lock(&g_count_lock);
        g_subscribe_successes++;
        g_sub = h;
        pthread_mutex_unlock(&g_count_lock);
    }
    return NULL;
}

int main(void) {
    alarm(120);
    g_collector.buffer_size = 4096;
    g_collector.quiet = 1;
    /* THR-03: concurrent subscribes, exactly one wins. */
    pthread_t subs[THREADS];
    for (int i = 0; i < THREADS; ++i) pthread_create(&subs[i], NULL, subscriber, NULL);
    for (int i = 0; i < THREADS; ++i) pthread_join(subs[i], NULL);
    CHECK_EQ(g_subscribe_successes, 1);
    CHECK(collector_register());
    CHECK_EQ(msptiActivityEnable(MSPTI_ACTIVITY_KIND_MARKER), MSPTI_SUCCESS);

    pthread_t t[THREADS];
    for (int i = 0; i < THREADS; ++i) pthread_create(&t[i], NULL, worker, (void*)(intptr_t)i);
    for (int i = 0; i < THREADS; ++i) pthread_join(t[i], NULL);
    CHECK_EQ(msptiActivityFlushAll(1), MSPTI_SUCCESS);
    uint64_t dropped = 0;
    msptiActivityGetDroppedRecords(MSPTI_ACTIVITY_KIND_INVALID, &dropped);
    pthread_mutex_lock(&g_collector.lock);
    printf("P produced=%d delivered=%lu markers=%lu dropped=%" PRIu64 "\n", THREADS * (MARKS + 2 * MARKS / 10),
           g_collector.records, g_collector.records_by_kind[MSPTI_ACTIVITY_KIND_MARKER], dropped);
    pthread_mutex_unlock(&g_collector.lock);
    for (int k = MSPTI_ACTIVITY_KIND_ACL_API; k <= MSPTI_ACTIVITY_KIND_RUNTIME_API; ++k)
        CHECK(!msptiActivityIsEnabled((msptiActivityKind)k));
    collector_summary();
    CHECK_EQ(msptiUnsubscribe(g_sub), MSPTI_SUCCESS);
    return 0;
}
