// The delivery engine's consumer thread: converts filled buffers to records and calls the
// monitors' callables (see delivery.h).
#include "delivery_internal.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>

namespace mspti_py {

using namespace delivery_internal;

// ---- consumer thread -------------------------------------------------------------------------

void Delivery::EnsureConsumer() {
    std::lock_guard<std::mutex> lock(queue_mutex_);
    if (consumer_.joinable() || shut_down_) {
        return;
    }
    stopping_ = false;
    consumer_running_ = true;
    consumer_ = std::thread([this] { ConsumerLoop(); });
}

void Delivery::ConsumerLoop() {
    consumer_id_.store(std::this_thread::get_id());
    Batch batch;
    std::deque<Filled> work;
    for (;;) {
        {
            std::unique_lock<std::mutex> lock(queue_mutex_);
            queue_cv_.wait(lock, [this] { return !queue_.empty() || stopping_; });
            if (queue_.empty()) {
                consumer_running_ = false;  // stopping, and nothing left
                break;
            }
            work.swap(queue_);
        }
        for (const Filled& filled : work) {
            Convert(filled, batch);
            ReturnBuffer(filled.data, filled.size);
            batch.last_ticket = filled.ticket;
        }
        work.clear();
        Dispatch(batch);
        {
            std::lock_guard<std::mutex> lock(queue_mutex_);
            processed_ = std::max(processed_, batch.last_ticket);
        }
        done_cv_.notify_all();
    }
    consumer_id_.store(std::thread::id());
}

void Delivery::Convert(const Filled& filled, Batch& batch) {
    const Api& api = Library::Instance().api();
    msptiActivity* record = nullptr;
    for (;;) {
        msptiResult rc = api.GetNextRecord(filled.data, filled.valid, &record);
        if (rc != MSPTI_SUCCESS || record == nullptr) {
            break;  // MAX_LIMIT_REACHED at the end; INNER for a kind this library version does not know
        }
        ConvertRecord(record, batch);
        if (batch.records.size() >= kBatchRecords) {
            Dispatch(batch);
        }
    }
}

void Delivery::ConvertRecord(const msptiActivity* record, Batch& batch) {
    records_seen_.fetch_add(1, std::memory_order_relaxed);
    const uint32_t kind = static_cast<uint32_t>(record->kind);
    const uint32_t wanted = wanted_kinds_.load(std::memory_order_relaxed);
    bool marker_wanted = kind == MSPTI_ACTIVITY_KIND_MARKER && (wanted & (kWantInstant | kWantRanges)) != 0U;
    if (kind == 0 || kind > kMaxKind || ((wanted & (1U << kind)) == 0U && !marker_wanted)) {
        records_skipped_.fetch_add(1, std::memory_order_relaxed);
        return;
    }
    CompactRecord r;
    r.kind = kind;
    switch (kind) {
        case MSPTI_ACTIVITY_KIND_MARKER: {
            const auto* m = reinterpret_cast<const msptiActivityMarker*>(record);
            r.e0 = static_cast<uint32_t>(m->flag);
            r.e1 = static_cast<uint32_t>(m->sourceKind);
            r.start = m->timestamp;
            r.id = m->id;
            r.u0 = m->objectId.pt.processId;  // or ds.deviceId: the same bytes
            r.u1 = m->objectId.pt.threadId;
            r.s0 = strings_.Intern(m->name, &batch.arena);
            r.s1 = strings_.Intern(m->domain, &batch.arena);
            if ((wanted & kWantRanges) != 0U && (IsRangeStart(r.e0) || IsRangeEnd(r.e0))) {
                auto key = std::make_pair(r.id, r.e1);
                PendingRange& pending = pending_ranges_[key];
                if (IsRangeStart(r.e0)) {
                    pending.has_start = true;
                    pending.start = r;
                    // Arena strings live only as long as the batch: keep a copy.
                    pending.name = (r.s0 & kArenaBit) != 0U ? batch.arena.c_str() + (r.s0 & ~kArenaBit) : "";
                    pending.domain = (r.s1 & kArenaBit) != 0U ? batch.arena.c_str() + (r.s1 & ~kArenaBit) : "";
                } else {
                    pending.has_end = true;
                    pending.end = r.start;
                }
                if (pending.has_start && pending.has_end) {
                    CompactRecord range = pending.start;
                    range.kind = kRangeKind;
                    range.end = pending.end;
                    if ((range.s0 & kArenaBit) != 0U) {
                        range.s0 = strings_.Intern(pending.name.c_str(), &batch.arena);
                    }
                    if ((range.s1 & kArenaBit) != 0U) {
                        range.s1 = strings_.Intern(pending.domain.c_str(), &batch.arena);
                    }
                    pending_ranges_.erase(key);
                    batch.records.push_back(range);
                }
                ranges_pending_.store(pending_ranges_.size(), std::memory_order_relaxed);
            }
            bool raw = (wanted & (1U << MSPTI_ACTIVITY_KIND_MARKER)) != 0U;
            bool instant = (wanted & kWantInstant) != 0U && IsInstant(r.e0);
            if (raw || instant) {
                batch.records.push_back(r);
            }
            return;
        }
        case MSPTI_ACTIVITY_KIND_KERNEL: {
            const auto* k = reinterpret_cast<const msptiActivityKernel*>(record);
            r.start = k->start;
            r.end = k->end;
            r.u0 = k->ds.deviceId;
            r.u1 = k->ds.streamId;
            r.correlation = k->correlationId;
            r.s0 = strings_.Intern(k->name, &batch.arena);
            r.s1 = strings_.Intern(k->type, &batch.arena);
            break;
        }
        case MSPTI_ACTIVITY_KIND_HCCL: {
            const auto* h = reinterpret_cast<const msptiActivityHccl*>(record);
            r.start = h->start;
            r.end = h->end;
            r.u0 = h->ds.deviceId;
            r.u1 = h->ds.streamId;
            r.bandwidth = h->bandWidth;
            r.s0 = strings_.Intern(h->name, &batch.arena);
            r.s1 = strings_.Intern(h->commName, &batch.arena);
            break;
        }
        case MSPTI_ACTIVITY_KIND_COMMUNICATION: {
            const auto* c = reinterpret_cast<const msptiActivityCommunication*>(record);
            r.e0 = static_cast<uint32_t>(c->dataType);
            r.count = c->count;
            r.u0 = c->ds.deviceId;
            r.u1 = c->ds.streamId;
            r.start = c->start;
            r.end = c->end;
            r.correlation = c->correlationId;
            r.s0 = strings_.Intern(c->name, &batch.arena);
            r.s1 = strings_.Intern(c->commName, &batch.arena);
            r.s2 = strings_.Intern(c->algType, &batch.arena);
            break;
        }
        case MSPTI_ACTIVITY_KIND_API:
        case MSPTI_ACTIVITY_KIND_ACL_API:
        case MSPTI_ACTIVITY_KIND_NODE_API:
        case MSPTI_ACTIVITY_KIND_RUNTIME_API: {
            const auto* a = reinterpret_cast<const msptiActivityApi*>(record);
            r.start = a->start;
            r.end = a->end;
            r.u0 = a->pt.processId;
            r.u1 = a->pt.threadId;
            r.correlation = a->correlationId;
            r.s0 = strings_.Intern(a->name, &batch.arena);
            break;
        }
        case MSPTI_ACTIVITY_KIND_MEMORY: {
            const auto* m = reinterpret_cast<const msptiActivityMemory*>(record);
            r.e0 = static_cast<uint32_t>(m->memoryOperationType);
            r.e1 = static_cast<uint32_t>(m->memoryKind);
            r.correlation = m->correlationId;
            r.start = m->start;
            r.end = m->end;
            r.address = m->address;
            r.count = m->bytes;
            r.u0 = m->processId;
            r.u1 = m->deviceId;
            r.u2 = m->streamId;
            break;
        }
        case MSPTI_ACTIVITY_KIND_MEMSET: {
            const auto* m = reinterpret_cast<const msptiActivityMemset*>(record);
            r.e0 = m->value;
            r.count = m->bytes;
            r.start = m->start;
            r.end = m->end;
            r.u0 = m->deviceId;
            r.u1 = m->streamId;
            r.correlation = m->correlationId;
            r.flag_bool = m->isAsync;
            break;
        }
        case MSPTI_ACTIVITY_KIND_MEMCPY: {
            const auto* m = reinterpret_cast<const msptiActivityMemcpy*>(record);
            r.e0 = static_cast<uint32_t>(m->copyKind);
            r.count = m->bytes;
            r.start = m->start;
            r.end = m->end;
            r.u0 = m->deviceId;
            r.u1 = m->streamId;
            r.correlation = m->correlationId;
            r.flag_bool = m->isAsync;
            break;
        }
        case MSPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION: {
            const auto* e = reinterpret_cast<const msptiActivityExternalCorrelation*>(record);
            r.e0 = static_cast<uint32_t>(e->externalKind);
            r.id = e->externalId;
            r.correlation = e->correlationId;
            break;
        }
        default: records_skipped_.fetch_add(1, std::memory_order_relaxed); return;
    }
    batch.records.push_back(r);
}

void Delivery::Dispatch(Batch& batch) {
    if (batch.records.empty()) {
        batch.Clear();
        return;
    }
    batches_.fetch_add(1, std::memory_order_relaxed);
    {
        GilHeld gil;
        std::shared_ptr<RouteTable> table;
        uint64_t generation = ~uint64_t{0};
        uint64_t delivered = 0;
        for (const CompactRecord& record : batch.records) {
            // A monitor may stop while a callback runs (the GIL can change hands inside it):
            // look again whenever the routes changed, so a stopped monitor gets nothing more.
            if (generation != g_routes_generation) {
                table = CurrentRoutes();
                generation = g_routes_generation;
            }
            if (!table) {
                break;
            }
            const std::vector<PyObject*>* lists[2] = {nullptr, nullptr};
            if (record.kind == kRangeKind) {
                lists[0] = &table->lists[kRouteRanges];
            } else {
                lists[0] = &table->lists[record.kind];
                if (record.kind == MSPTI_ACTIVITY_KIND_MARKER && IsInstant(record.e0)) {
                    lists[1] = &table->lists[kRouteInstantMarks];
                }
            }
            if (lists[0]->empty() && (lists[1] == nullptr || lists[1]->empty())) {
                continue;
            }
            PyObject* object = factory_.Build(record, batch, strings_);
            if (object == nullptr) {
                ReportCallbackError(nullptr);
                continue;
            }
            for (const auto* list : lists) {
                if (list == nullptr) {
                    continue;
                }
                // The table (and so every callable in it) stays alive while `table` is held.
                for (PyObject* callable : *list) {
                    PyObject* result = PyObject_CallOneArg(callable, object);
                    ++delivered;
                    if (result == nullptr) {
                        ReportCallbackError(callable);
                    } else {
                        Py_DECREF(result);
                    }
                }
            }
            Py_DECREF(object);
        }
        table.reset();
        records_delivered_.fetch_add(delivered, std::memory_order_relaxed);
    }
    batch.Clear();
}

void Delivery::ReportCallbackError(PyObject* callable) {
    callback_errors_.fetch_add(1, std::memory_order_relaxed);
    PyObject* type = nullptr;
    PyObject* value = nullptr;
    PyObject* traceback = nullptr;
    PyErr_Fetch(&type, &value, &traceback);
    PyErr_NormalizeException(&type, &value, &traceback);
    if (traceback != nullptr && value != nullptr) {
        PyException_SetTraceback(value, traceback);
    }
    if (callable != nullptr) {
        PyObject* text = PyObject_Repr(callable);
        const char* name = text != nullptr ? PyUnicode_AsUTF8(text) : nullptr;
        PySys_WriteStderr("mspti_core: the monitor callback %.200s raised an exception; delivery continues\n",
                          name != nullptr ? name : "?");
        Py_XDECREF(text);
        PyErr_Clear();
    } else {
        PySys_WriteStderr("mspti_core: a record could not be converted; delivery continues\n");
    }
    if (type != nullptr) {
        PyErr_Display(type, value, traceback);
    }
    Py_XDECREF(type);
    Py_XDECREF(value);
    Py_XDECREF(traceback);
    PyErr_Clear();
}

}  // namespace mspti_py
