// Helpers shared by the msPTI samples: activity buffers, record printing, and
// subscribing / unsubscribing. Header-only, C++17.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>

#include "mspti/mspti.h"

namespace sample {

constexpr size_t kBufferBytes = 8 * 1024 * 1024;

inline const char* kind_name(msptiActivityKind kind) {
    switch (kind) {
        case MSPTI_ACTIVITY_KIND_MARKER: return "MARKER";
        case MSPTI_ACTIVITY_KIND_KERNEL: return "KERNEL";
        case MSPTI_ACTIVITY_KIND_API: return "API";
        case MSPTI_ACTIVITY_KIND_HCCL: return "HCCL";
        case MSPTI_ACTIVITY_KIND_MEMORY: return "MEMORY";
        case MSPTI_ACTIVITY_KIND_MEMSET: return "MEMSET";
        case MSPTI_ACTIVITY_KIND_MEMCPY: return "MEMCPY";
        case MSPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION: return "EXTERNAL_CORRELATION";
        case MSPTI_ACTIVITY_KIND_COMMUNICATION: return "COMMUNICATION";
        case MSPTI_ACTIVITY_KIND_ACL_API: return "ACL_API";
        case MSPTI_ACTIVITY_KIND_NODE_API: return "NODE_API";
        case MSPTI_ACTIVITY_KIND_RUNTIME_API: return "RUNTIME_API";
        default: return "UNKNOWN";
    }
}

inline const char* copy_kind_name(msptiActivityMemcpyKind kind) {
    switch (kind) {
        case MSPTI_ACTIVITY_MEMCPY_KIND_HTOH: return "HTOH";
        case MSPTI_ACTIVITY_MEMCPY_KIND_HTOD: return "HTOD";
        case MSPTI_ACTIVITY_MEMCPY_KIND_DTOH: return "DTOH";
        case MSPTI_ACTIVITY_MEMCPY_KIND_DTOD: return "DTOD";
        case MSPTI_ACTIVITY_MEMCPY_KIND_DEFAULT: return "DEFAULT";
        default: return "UNKNOWN";
    }
}

inline const char* text(const char* s) { return s != nullptr ? s : ""; }

// One line per record, in the samples' format.
inline void print_record(const msptiActivity* record) {
    switch (record->kind) {
        case MSPTI_ACTIVITY_KIND_KERNEL: {
            auto* k = reinterpret_cast<const msptiActivityKernel*>(record);
            std::printf(
                "[KERNEL] type: %s, name: %s, start: %llu, end: %llu, deviceId: %u, streamId: %u, correlationId: "
                "%llu\n",
                text(k->type), text(k->name), (unsigned long long)k->start, (unsigned long long)k->end, k->ds.deviceId,
                k->ds.streamId, (unsigned long long)k->correlationId);
            break;
        }
        case MSPTI_ACTIVITY_KIND_API:
        case MSPTI_ACTIVITY_KIND_ACL_API:
        case MSPTI_ACTIVITY_KIND_NODE_API:
        case MSPTI_ACTIVITY_KIND_RUNTIME_API: {
            auto* a = reinterpret_cast<const msptiActivityApi*>(record);
            std::printf("[%s] name: %s, start: %llu, end: %llu, processId: %u, threadId: %u, correlationId: %llu\n",
                        kind_name(record->kind), text(a->name), (unsigned long long)a->start,
                        (unsigned long long)a->end, a->pt.processId, a->pt.threadId,
                        (unsigned long long)a->correlationId);
            break;
        }
        case MSPTI_ACTIVITY_KIND_MARKER: {
            auto* m = reinterpret_cast<const msptiActivityMarker*>(record);
            const bool host = m->sourceKind == MSPTI_ACTIVITY_SOURCE_KIND_HOST;
            std::printf(
                "[MARKER] flag: %d, sourceKind: %s, timestamp: %llu, id: %llu, %s: %u, %s: %u, name: %s, domain: %s\n",
                (int)m->flag, host ? "HOST_DATA" : "DEVICE_DATA", (unsigned long long)m->timestamp,
                (unsigned long long)m->id, host ? "processId" : "deviceId",
                host ? m->objectId.pt.processId : m->objectId.ds.deviceId, host ? "threadId" : "streamId",
                host ? m->objectId.pt.threadId : m->objectId.ds.streamId, text(m->name), text(m->domain));
            break;
        }
        case MSPTI_ACTIVITY_KIND_MEMCPY: {
            auto* c = reinterpret_cast<const msptiActivityMemcpy*>(record);
            std::printf(
                "[MEMCPY] copyKind: %s, bytes: %llu, start: %llu, end: %llu, deviceId: %u, streamId: %u, "
                "correlationId: %llu, isAsync: %u\n",
                copy_kind_name(c->copyKind), (unsigned long long)c->bytes, (unsigned long long)c->start,
                (unsigned long long)c->end, c->deviceId, c->streamId, (unsigned long long)c->correlationId, c->isAsync);
            break;
        }
        case MSPTI_ACTIVITY_KIND_MEMORY: {
            auto* m = reinterpret_cast<const msptiActivityMemory*>(record);
            std::printf(
                "[MEMORY] operationType: %s, memoryKind: %s, correlationId: %llu, start: %llu, end: %llu, address: "
                "%llu, bytes: %llu, processId: %u, deviceId: %u, streamId: %u\n",
                m->memoryOperationType == MSPTI_ACTIVITY_MEMORY_OPERATION_TYPE_ALLOCATION ? "ALLOCATION" : "RELEASE",
                m->memoryKind == MSPTI_ACTIVITY_MEMORY_DEVICE ? "MEMORY_DEVICE" : "MEMORY_UNKNOWN",
                (unsigned long long)m->correlationId, (unsigned long long)m->start, (unsigned long long)m->end,
                (unsigned long long)m->address, (unsigned long long)m->bytes, m->processId, m->deviceId, m->streamId);
            break;
        }
        case MSPTI_ACTIVITY_KIND_MEMSET: {
            auto* s = reinterpret_cast<const msptiActivityMemset*>(record);
            std::printf(
                "[MEMSET] value: %u, bytes: %llu, start: %llu, end: %llu, deviceId: %u, streamId: %u, correlationId: "
                "%llu, isAsync: %u\n",
                s->value, (unsigned long long)s->bytes, (unsigned long long)s->start, (unsigned long long)s->end,
                s->deviceId, s->streamId, (unsigned long long)s->correlationId, s->isAsync);
            break;
        }
        case MSPTI_ACTIVITY_KIND_HCCL: {
            auto* h = reinterpret_cast<const msptiActivityHccl*>(record);
            std::printf(
                "[HCCL] start: %llu, end: %llu, deviceId: %u, streamId: %u, bandWidth: %f, name: %s, commName: %s\n",
                (unsigned long long)h->start, (unsigned long long)h->end, h->ds.deviceId, h->ds.streamId, h->bandWidth,
                text(h->name), text(h->commName));
            break;
        }
        case MSPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION: {
            auto* e = reinterpret_cast<const msptiActivityExternalCorrelation*>(record);
            std::printf("[EXTERNAL_CORRELATION] externalKind: %d, externalId: %llu, correlationId: %llu\n",
                        (int)e->externalKind, (unsigned long long)e->externalId, (unsigned long long)e->correlationId);
            break;
        }
        default: break;  // COMMUNICATION is not printed by the samples
    }
}

// What the complete callback does with each record; printing by default.
inline std::function<void(const msptiActivity*)>& record_handler() {
    static std::function<void(const msptiActivity*)> handler = print_record;
    return handler;
}

inline void buffer_requested(uint8_t** buffer, size_t* size, size_t* maxNumRecords) {
    std::printf("========== UserBufferRequest ============\n");
    *buffer = static_cast<uint8_t*>(std::aligned_alloc(ACTIVITY_STRUCT_ALIGNMENT, kBufferBytes));
    *size = *buffer != nullptr ? kBufferBytes : 0;
    *maxNumRecords = 0;
}

inline void buffer_completed(uint8_t* buffer, size_t size, size_t validSize) {
    (void)size;
    std::printf("========== UserBufferComplete ============\n");
    msptiActivity* record = nullptr;
    while (validSize > 0 && msptiActivityGetNextRecord(buffer, validSize, &record) == MSPTI_SUCCESS) {
        record_handler()(record);
    }
    std::free(buffer);
}

// Subscribes (with an optional API callback) and registers the buffer callbacks.
inline msptiSubscriberHandle init_mspti(msptiCallbackFunc callback, void* userdata) {
    msptiSubscriberHandle subscriber = nullptr;
    if (msptiSubscribe(&subscriber, callback, userdata) != MSPTI_SUCCESS) {
        std::fprintf(stderr, "msptiSubscribe failed (is libmspti.so preloaded?)\n");
        std::exit(1);
    }
    msptiActivityRegisterCallbacks(buffer_requested, buffer_completed);
    return subscriber;
}

inline void deinit_mspti(msptiSubscriberHandle subscriber) {
    msptiUnsubscribe(subscriber);
    msptiActivityFlushAll(1);
}

}  // namespace sample
