/*
 * A SIGTERM handler that calls exit() while msptiActivityFlushAll is delivering buffers (the
 * client's undefined behaviour, but a common pattern). libmspti linked or preloaded.
 *
 *   argv[1] = busy     CompleteFunc takes 1 ms per buffer; 400 host marks in buffers of 4 records;
 *                      once the main thread is inside FlushAll and 3 buffers came back, another
 *                      thread sends SIGTERM to it, whose handler calls exit(0)
 *             blocked  the same, but the handler first makes every later CompleteFunc wait for
 *                      ever (the client's delivery cannot finish)
 *
 * An atexit handler registered before msPTI's (so it runs after msPTI's exit flush) prints
 *   S produced=<n> delivered=<n> dropped=<n>
 */
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "mspti/mspti.h"
#include "mspti/mspti_ext.h"
#include "mstx/ms_tools_ext.h"

enum { kMarks = 400, kRecordsPerBuffer = 4 };

static int g_blocked_mode;
static int g_block; /* read by the delivery thread, set in the handler: atomic */
static int g_in_flush;
static uint64_t g_completes;
static uint64_t g_delivered;
static pthread_t g_main;

static void sleep_ms(long ms) {
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static void request(uint8_t** buffer, size_t* size, size_t* max_records) {
    *size = kRecordsPerBuffer * sizeof(msptiActivityMarker);
    *buffer = (uint8_t*)malloc(*size);
    *max_records = 0;
}

static void complete(uint8_t* buffer, size_t size, size_t valid) {
    (void)size;
    msptiActivity* record = NULL;
    while (msptiActivityGetNextRecord(buffer, valid, &record) == MSPTI_SUCCESS) {
        if (record->kind == MSPTI_ACTIVITY_KIND_MARKER) __atomic_add_fetch(&g_delivered, 1, __ATOMIC_SEQ_CST);
    }
    free(buffer);
    while (__atomic_load_n(&g_block, __ATOMIC_SEQ_CST)) sleep_ms(10); /* the delivery never finishes */
    sleep_ms(1);
    __atomic_add_fetch(&g_completes, 1, __ATOMIC_SEQ_CST);
}

static void on_term(int sig) {
    (void)sig;
    if (g_blocked_mode) __atomic_store_n(&g_block, 1, __ATOMIC_SEQ_CST);
    exit(0);
}

static void report(void) {
    uint64_t dropped = 0;
    msptiActivityGetDroppedRecords(MSPTI_ACTIVITY_KIND_MARKER, &dropped);
    printf("S produced=%d delivered=%" PRIu64 " dropped=%" PRIu64 "\n", kMarks,
           __atomic_load_n(&g_delivered, __ATOMIC_SEQ_CST), dropped);
    fflush(stdout);
}

static void* terminator(void* arg) {
    (void)arg;
    while (!__atomic_load_n(&g_in_flush, __ATOMIC_SEQ_CST) || __atomic_load_n(&g_completes, __ATOMIC_SEQ_CST) < 3) {
        sleep_ms(1);
    }
    pthread_kill(g_main, SIGTERM);
    return NULL;
}

int main(int argc, char** argv) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc < 2 || (strcmp(argv[1], "busy") != 0 && strcmp(argv[1], "blocked") != 0)) {
        fprintf(stderr, "usage: exit_in_signal busy|blocked\n");
        return 2;
    }
    g_blocked_mode = strcmp(argv[1], "blocked") == 0;
    g_main = pthread_self();
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_term;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, NULL);
    atexit(report); /* before msPTI registers its exit flush, so it runs after it */

    msptiSubscriberHandle subscriber = NULL;
    if (msptiSubscribe(&subscriber, NULL, NULL) != MSPTI_SUCCESS ||
        msptiActivityRegisterCallbacks(request, complete) != MSPTI_SUCCESS ||
        msptiActivityEnable(MSPTI_ACTIVITY_KIND_MARKER) != MSPTI_SUCCESS) {
        printf("E msPTI set-up failed\n");
        return 1;
    }
    for (int i = 0; i < kMarks; ++i) mstxMarkA("before-term", NULL);
    pthread_t t;
    pthread_create(&t, NULL, terminator, NULL);
    pthread_detach(t); /* the process exits from the signal handler, before any join */
    __atomic_store_n(&g_in_flush, 1, __ATOMIC_SEQ_CST);
    msptiActivityFlushAll(1);
    /* The signal arrives during the flush; reaching here means it came after every delivery. */
    printf("E the flush ended before the signal\n");
    return 1;
}
