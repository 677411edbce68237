/*
 * A fixed pool of client activity buffers for the benchmark programs: RequestFunc takes a free
 * buffer (waiting for CompleteFunc to hand one back when all are in use, so no record is dropped
 * and the client's memory stays exactly the pool), CompleteFunc counts the buffer's records with
 * msptiActivityGetNextRecord and returns the buffer.
 */
#ifndef BENCHMARK_BUFFER_POOL_H
#define BENCHMARK_BUFFER_POOL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mspti/mspti.h"

#define POOL_MAX 64

static struct {
    pthread_mutex_t mutex;
    pthread_cond_t returned;
    uint8_t* buffers[POOL_MAX];
    unsigned free_count;
    size_t buffer_bytes;
    atomic_ullong records;
    atomic_ullong buffers_completed;
} g_pool = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, {0}, 0, 0, 0, 0};

/* Allocates and touches `count` buffers of `bytes` each (page faults belong to the client, not to msPTI). */
static int pool_init(unsigned count, size_t bytes) {
    if (count > POOL_MAX) return 0;
    g_pool.buffer_bytes = bytes;
    for (unsigned i = 0; i < count; ++i) {
        g_pool.buffers[i] = aligned_alloc(8, bytes);
        if (g_pool.buffers[i] == NULL) return 0;
        memset(g_pool.buffers[i], 1, bytes);
    }
    g_pool.free_count = count;
    return 1;
}

static void pool_request(uint8_t** buffer, size_t* size, size_t* max_records) {
    pthread_mutex_lock(&g_pool.mutex);
    while (g_pool.free_count == 0) pthread_cond_wait(&g_pool.returned, &g_pool.mutex);
    *buffer = g_pool.buffers[--g_pool.free_count];
    pthread_mutex_unlock(&g_pool.mutex);
    *size = g_pool.buffer_bytes;
    *max_records = 0;
}

static void pool_complete(uint8_t* buffer, size_t size, size_t valid) {
    (void)size;
    msptiActivity* rec = NULL;
    unsigned long long n = 0;
    while (msptiActivityGetNextRecord(buffer, valid, &rec) == MSPTI_SUCCESS) ++n;
    atomic_fetch_add(&g_pool.records, n);
    atomic_fetch_add(&g_pool.buffers_completed, 1);
    pthread_mutex_lock(&g_pool.mutex);
    g_pool.buffers[g_pool.free_count++] = buffer;
    pthread_cond_signal(&g_pool.returned);
    pthread_mutex_unlock(&g_pool.mutex);
}

#endif
