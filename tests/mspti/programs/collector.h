/*
 * A test collector for msPTI: buffer callbacks that check the buffer contract
 * (every completed buffer was requested, is completed once, holds whole records
 * at their kinds' strides) and print every record as one JSON line:
 *   R {"kind":1, ...}       a record
 *   E <text>                a contract violation (tests require none)
 * Header-only C, shared by the test programs.
 */
#ifndef MSPTI_TEST_COLLECTOR_H
#define MSPTI_TEST_COLLECTOR_H

#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mspti/mspti.h"
#include "mspti/mspti_ext.h"
#include "mspti_schema/record_kinds.h"

#define COLLECTOR_MAX_BUFFERS 65536

static struct {
    pthread_mutex_t lock;
    size_t buffer_size;
    size_t max_records;
    long decline_remaining; /* requests answered with NULL before buffers are handed out */
    int decline_all;
    int quiet;              /* count records without printing them */
    uint8_t* outstanding[COLLECTOR_MAX_BUFFERS];
    size_t outstanding_size[COLLECTOR_MAX_BUFFERS];
    unsigned long requests;
    unsigned long completes;
    unsigned long records;
    unsigned long records_by_kind[MSPTI_ACTIVITY_KIND_COUNT];
    unsigned long violations;
    int request_in_flight;
} g_collector = {PTHREAD_MUTEX_INITIALIZER, 1 << 20, 0, 0, 0, 0, {0}, {0}, 0, 0, 0, {0}, 0, 0};

static inline void collector_violation(const char* fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    printf("E ");
    vprintf(fmt, ap);
    printf("\n");
    fflush(stdout);
    va_end(ap);
    g_collector.violations++;
}

/* A record's stride in a buffer: the size of its kind's struct, by the record schema's kind table
 * (mspti_schema/record_kinds.h, written by tests/support/native.py); 0 for a kind without a record. */
#define COLLECTOR_SCHEMA_SIZE(value, name, type, size) \
    _Static_assert(sizeof(type) == (size), #type ": sizeof differs from the record schema");
MSPTI_SCHEMA_RECORD_KINDS(COLLECTOR_SCHEMA_SIZE)
MSPTI_SCHEMA_RECORD_KINDS_OVERHEAD(COLLECTOR_SCHEMA_SIZE)
#undef COLLECTOR_SCHEMA_SIZE

static inline size_t collector_record_size(int kind) {
    switch (kind) {
#define COLLECTOR_SIZE_CASE(value, name, type, size) \
    case value: return sizeof(type);
        MSPTI_SCHEMA_RECORD_KINDS(COLLECTOR_SIZE_CASE)
        MSPTI_SCHEMA_RECORD_KINDS_OVERHEAD(COLLECTOR_SIZE_CASE)
#undef COLLECTOR_SIZE_CASE
        default: return 0;
    }
}

/* Prints a C string as a JSON string (or null). */
static inline void collector_json_string(FILE* f, const char* s) {
    if (s == NULL) {
        fputs("null", f);
        return;
    }
    fputc('"', f);
    for (; *s != '\0'; ++s) {
        const unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') {
            fputc('\\', f);
            fputc(c, f);
        } else if (c < 0x20) {
            fprintf(f, "\\u%04x", c);
        } else {
            fputc(c, f);
        }
    }
    fputc('"', f);
}

static inline void collector_print_record(FILE* f, const msptiActivity* record) {
    switch (record->kind) {
        case MSPTI_ACTIVITY_KIND_MARKER: {
            const msptiActivityMarker* m = (const msptiActivityMarker*)record;
            fprintf(f,
                    "{\"kind\":%d,\"flag\":%d,\"sourceKind\":%d,\"timestamp\":%" PRIu64 ",\"id\":%" PRIu64
                    ",\"a\":%u,\"b\":%u,\"name\":",
                    m->kind, m->flag, m->sourceKind, m->timestamp, m->id, m->objectId.pt.processId,
                    m->objectId.pt.threadId);
            collector_json_string(f, m->name);
            fputs(",\"domain\":", f);
            collector_json_string(f, m->domain);
            fputs("}", f);
            break;
        }
        case MSPTI_ACTIVITY_KIND_KERNEL: {
            const msptiActivityKernel* k = (const msptiActivityKernel*)record;
            fprintf(f,
                    "{\"kind\":%d,\"start\":%" PRIu64 ",\"end\":%" PRIu64
                    ",\"deviceId\":%u,\"streamId\":%u,"
                    "\"correlationId\":%" PRIu64 ",\"type\":",
                    k->kind, k->start, k->end, k->ds.deviceId, k->ds.streamId, k->correlationId);
            collector_json_string(f, k->type);
            fputs(",\"name\":", f);
            collector_json_string(f, k->name);
            fputs("}", f);
            break;
        }
        case MSPTI_ACTIVITY_KIND_API:
        case MSPTI_ACTIVITY_KIND_ACL_API:
        case MSPTI_ACTIVITY_KIND_NODE_API:
        case MSPTI_ACTIVITY_KIND_RUNTIME_API: {
            const msptiActivityApi* a = (const msptiActivityApi*)record;
            fprintf(f,
                    "{\"kind\":%d,\"start\":%" PRIu64 ",\"end\":%" PRIu64
                    ",\"processId\":%u,\"threadId\":%u,"
                    "\"correlationId\":%" PRIu64 ",\"name\":",
                    a->kind, a->start, a->end, a->pt.processId, a->pt.threadId, a->correlationId);
            collector_json_string(f, a->name);
            fputs("}", f);
            break;
        }
        case MSPTI_ACTIVITY_KIND_HCCL: {
            const msptiActivityHccl* h = (const msptiActivityHccl*)record;
            fprintf(f,
                    "{\"kind\":%d,\"start\":%" PRIu64 ",\"end\":%" PRIu64
                    ",\"deviceId\":%u,\"streamId\":%u,"
                    "\"bandWidth\":%.9g,\"name\":",
                    h->kind, h->start, h->end, h->ds.deviceId, h->ds.streamId, h->bandWidth);
            collector_json_string(f, h->name);
            fputs(",\"commName\":", f);
            collector_json_string(f, h->commName);
            fputs("}", f);
            break;
        }
        case MSPTI_ACTIVITY_KIND_MEMORY: {
            const msptiActivityMemory* m = (const msptiActivityMemory*)record;
            fprintf(f,
                    "{\"kind\":%d,\"memoryOperationType\":%d,\"memoryKind\":%d,\"correlationId\":%" PRIu64
                    ",\"start\":%" PRIu64 ",\"end\":%" PRIu64 ",\"address\":%" PRIu64 ",\"bytes\":%" PRIu64
                    ",\"processId\":%u,\"deviceId\":%u,\"streamId\":%u}",
                    m->kind, m->memoryOperationType, m->memoryKind, m->correlationId, m->start, m->end, m->address,
                    m->bytes, m->processId, m->deviceId, m->streamId);
            break;
        }
        case MSPTI_ACTIVITY_KIND_MEMSET: {
            const msptiActivityMemset* m = (const msptiActivityMemset*)record;
            fprintf(f,
                    "{\"kind\":%d,\"value\":%u,\"bytes\":%" PRIu64 ",\"start\":%" PRIu64 ",\"end\":%" PRIu64
                    ",\"deviceId\":%u,\"streamId\":%u,\"correlationId\":%" PRIu64 ",\"isAsync\":%u}",
                    m->kind, m->value, m->bytes, m->start, m->end, m->deviceId, m->streamId, m->correlationId,
                    m->isAsync);
            break;
        }
        case MSPTI_ACTIVITY_KIND_MEMCPY: {
            const msptiActivityMemcpy* m = (const msptiActivityMemcpy*)record;
            fprintf(f,
                    "{\"kind\":%d,\"copyKind\":%d,\"bytes\":%" PRIu64 ",\"start\":%" PRIu64 ",\"end\":%" PRIu64
                    ",\"deviceId\":%u,\"streamId\":%u,\"correlationId\":%" PRIu64 ",\"isAsync\":%u}",
                    m->kind, m->copyKind, m->bytes, m->start, m->end, m->deviceId, m->streamId, m->correlationId,
                    m->isAsync);
            break;
        }
        case MSPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION: {
            const msptiActivityExternalCorrelation* e = (const msptiActivityExternalCorrelation*)record;
            fprintf(f, "{\"kind\":%d,\"externalKind\":%d,\"externalId\":%" PRIu64 ",\"correlationId\":%" PRIu64 "}",
                    e->kind, e->externalKind, e->externalId, e->correlationId);
            break;
        }
        case MSPTI_ACTIVITY_KIND_COMMUNICATION: {
            const msptiActivityCommunication* c = (const msptiActivityCommunication*)record;
            fprintf(f,
                    "{\"kind\":%d,\"dataType\":%d,\"count\":%" PRIu64
                    ",\"deviceId\":%u,\"streamId\":%u,"
                    "\"start\":%" PRIu64 ",\"end\":%" PRIu64 ",\"correlationId\":%" PRIu64 ",\"algType\":",
                    c->kind, c->dataType, c->count, c->ds.deviceId, c->ds.streamId, c->start, c->end, c->correlationId);
            collector_json_string(f, c->algType);
            fputs(",\"name\":", f);
            collector_json_string(f, c->name);
            fputs(",\"commName\":", f);
            collector_json_string(f, c->commName);
            fputs("}", f);
            break;
        }
        case MSPTI_ACTIVITY_KIND_OVERHEAD: {
            const msptiActivityOverhead* o = (const msptiActivityOverhead*)record;
            fprintf(f,
                    "{\"kind\":%d,\"overheadKind\":%d,\"objectKind\":%d,\"a\":%u,\"b\":%u,\"start\":%" PRIu64
                    ",\"end\":%" PRIu64 ",\"correlationId\":%" PRIu64 ",\"overheadData\":%d}",
                    o->kind, o->overheadKind, o->objectKind, o->objectId.pt.processId, o->objectId.pt.threadId,
                    o->start, o->end, o->correlationId, o->overheadData != NULL);
            break;
        }
        default: fprintf(f, "{\"kind\":%d}", record->kind); break;
    }
}

static inline void collector_request(uint8_t** buffer, size_t* size, size_t* max_records) {
    pthread_mutex_lock(&g_collector.lock);
    if (g_collector.request_in_flight) collector_violation("overlapping buffer requests");
    g_collector.request_in_flight = 1;
    g_collector.requests++;
    *buffer = NULL;
    *size = 0;
    *max_records = g_collector.max_records;
    if (g_collector.decline_all || g_collector.decline_remaining > 0) {
        if (g_collector.decline_remaining > 0) g_collector.decline_remaining--;
    } else {
        uint8_t* b = (uint8_t*)aligned_alloc(8, (g_collector.buffer_size + 7) / 8 * 8);
        int stored = 0;
        for (int i = 0; i < COLLECTOR_MAX_BUFFERS && b != NULL; ++i) {
            if (g_collector.outstanding[i] == NULL) {
                g_collector.outstanding[i] = b;
                g_collector.outstanding_size[i] = g_collector.buffer_size;
                stored = 1;
                break;
            }
        }
        if (!stored) {
            free(b);
            b = NULL;
        }
        *buffer = b;
        *size = b != NULL ? g_collector.buffer_size : 0;
    }
    g_collector.request_in_flight = 0;
    pthread_mutex_unlock(&g_collector.lock);
}

static inline void collector_complete(uint8_t* buffer, size_t size, size_t valid) {
    pthread_mutex_lock(&g_collector.lock);
    g_collector.completes++;
    int slot = -1;
    for (int i = 0; i < COLLECTOR_MAX_BUFFERS; ++i) {
        if (buffer != NULL && g_collector.outstanding[i] == buffer) {
            slot = i;
            break;
        }
    }
    if (slot < 0) {
        collector_violation("completed a buffer that is not outstanding (%p)", (void*)buffer);
        pthread_mutex_unlock(&g_collector.lock);
        return;
    }
    if (g_collector.outstanding_size[slot] != size) collector_violation("size %zu differs from the request", size);
    if (valid > size) collector_violation("validSize %zu > size %zu", valid, size);
    g_collector.outstanding[slot] = NULL;
    msptiActivity* record = NULL;
    size_t walked = 0;
    msptiResult rc;
    while ((rc = msptiActivityGetNextRecord(buffer, valid, &record)) == MSPTI_SUCCESS) {
        const size_t offset = (size_t)((uint8_t*)record - buffer);
        if (offset != walked) collector_violation("record at %zu, expected %zu", offset, walked);
        if (offset % 8 != 0) collector_violation("record at unaligned offset %zu", offset);
        const size_t rs = collector_record_size(record->kind);
        walked = offset + rs;
        g_collector.records++;
        if (record->kind > 0 && record->kind < MSPTI_ACTIVITY_KIND_COUNT) g_collector.records_by_kind[record->kind]++;
        if (!g_collector.quiet) {
            /* One write per line: other threads print too (stdio locks per call, not per line). */
            char* line = NULL;
            size_t length = 0;
            FILE* f = open_memstream(&line, &length);
            fputs("R ", f);
            collector_print_record(f, record);
            fputc('\n', f);
            fclose(f);
            fwrite(line, 1, length, stdout);
            free(line);
        }
    }
    if (rc != MSPTI_ERROR_MAX_LIMIT_REACHED) collector_violation("iteration ended with %d", rc);
    if (walked != valid) collector_violation("records cover %zu of %zu valid bytes", walked, valid);
    fflush(stdout);
    memset(buffer, 0xA5, size); /* msPTI must never look at a completed buffer again */
    free(buffer);
    pthread_mutex_unlock(&g_collector.lock);
}

static inline int collector_register(void) {
    return msptiActivityRegisterCallbacks(collector_request, collector_complete) == MSPTI_SUCCESS;
}

/* Prints the summary line "S requests=.. completes=.. records=.. dropped=.. violations=..". */
static inline void collector_summary(void) {
    uint64_t dropped = 0;
    msptiActivityGetDroppedRecords(MSPTI_ACTIVITY_KIND_INVALID, &dropped);
    pthread_mutex_lock(&g_collector.lock);
    printf("S requests=%lu completes=%lu records=%lu dropped=%" PRIu64 " violations=%lu\n", g_collector.requests,
           g_collector.completes, g_collector.records, dropped, g_collector.violations);
    fflush(stdout);
    pthread_mutex_unlock(&g_collector.lock);
}

#define CHECK(cond)                                                             \
    do {                                                                        \
        if (!(cond)) {                                                          \
            printf("E check failed at %s:%d: %s\n", __FILE__, __LINE__, #cond); \
            fflush(stdout);                                                     \
        }                                                                       \
    } while (0)

#define CHECK_EQ(a, b)                                                                                        \
    do {                                                                                                      \
        long long _a = (long long)(a), _b = (long long)(b);                                                   \
        if (_a != _b) {                                                                                       \
            printf("E check failed at %s:%d: %s == %s (%lld vs %lld)\n", __FILE__, __LINE__, #a, #b, _a, _b); \
            fflush(stdout);                                                                                   \
        }                                                                                                     \
    } while (0)

#endif /* MSPTI_TEST_COLLECTOR_H */
