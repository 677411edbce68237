/*
 * Buffer callbacks that call back into msPTI: marks and FlushAll inside RequestFunc and
 * CompleteFunc. Nothing may deadlock (an alarm kills the process if it does), and every
 * record is either delivered or counted as dropped.
 */
#include <signal.h>
#include <unistd.h>

#include "collector.h"
#include "mstx/ms_tools_ext.h"

static int g_in_request_marks = 0;
static int g_in_complete_marks = 0;
static int g_flushes_in_callbacks = 0;

static void request(uint8_t** buffer, size_t* size, size_t* max) {
    /* A record made while msPTI waits for this buffer has no buffer to go to: dropped, counted. */
    if (g_in_request_marks < 3) {
        g_in_request_marks++;
        mstxMarkA("in-request", NULL);
    }
    if (g_flushes_in_callbacks < 2) {
        g_flushes_in_callbacks++;
        CHECK_EQ(msptiActivityFlushAll(1), MSPTI_SUCCESS);
    }
    collector_request(buffer, size, max);
}

static void complete(uint8_t* buffer, size_t size, size_t valid) {
    collector_complete(buffer, size, valid);
    if (g_in_complete_marks < 5) {
        g_in_complete_marks++;
        mstxMarkA("in-complete", NULL); /* goes to the delivering thread's own buffer */
        /* FlushAll from inside CompleteFunc schedules delivery and returns without waiting. */
        CHECK_EQ(msptiActivityFlushAll(1), MSPTI_SUCCESS);
        CHECK(msptiActivityIsEnabled(MSPTI_ACTIVITY_KIND_MARKER));
    }
}

int main(void) {
    alarm(60);
    g_collector.buffer_size = 1024;
    msptiSubscriberHandle sub = NULL;
    CHECK_EQ(msptiSubscribe(&sub, NULL, NULL), MSPTI_SUCCESS);
    CHECK_EQ(msptiActivityRegisterCallbacks(request, complete), MSPTI_SUCCESS);
    CHECK_EQ(msptiActivityEnable(MSPTI_ACTIVITY_KIND_MARKER), MSPTI_SUCCESS);
    const int n = 200;
    for (int i = 0; i < n; ++i) mstxMarkA("main", NULL);
    /* Marks made inside CompleteFunc during a flush need one more flush to come back. */
    unsigned long before = 0;
    for (int round = 0; round < 20; ++round) {
        CHECK_EQ(msptiActivityFlushAll(1), MSPTI_SUCCESS);
        pthread_mutex_lock(&g_collector.lock);
        const unsigned long now = g_collector.records;
        pthread_mutex_unlock(&g_collector.lock);
        if (now == before && round > 0) break;
        before = now;
    }
    uint64_t dropped = 0;
    msptiActivityGetDroppedRecords(MSPTI_ACTIVITY_KIND_MARKER, &dropped);
    pthread_mutex_lock(&g_collector.lock);
    printf("P produced=%d delivered=%lu dropped=%" PRIu64 " in_request=%d in_complete=%d\n",
           n + g_in_request_marks + g_in_complete_marks, g_collector.records, dropped, g_in_request_marks,
           g_in_complete_marks);
    pthread_mutex_unlock(&g_collector.lock);
    CHECK_EQ(msptiUnsubscribe(sub), MSPTI_SUCCESS);
    return 0;
}
