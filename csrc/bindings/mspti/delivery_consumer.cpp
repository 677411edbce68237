// The delivery engine's consumer thread: converts filled buffers to records and calls the
// monitors' callables (see delivery.h).
#include "delivery_internal.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>

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
    const size_t size = mspti_schema::RecordSize(kind);
    if (size == 0 || size > sizeof(CompactRecord::bytes)) {
        records_skipped_.fetch_add(1, std::memory_order_relaxed);
        return;
    }
    // The record's bytes, each string field's pointer replaced by its string id (the schema's
    // string offsets): the same walk for every kind.
    CompactRecord r;
    r.kind = kind;
    std::memcpy(r.bytes, record, size);
    const mspti_schema::StringFields strings = mspti_schema::StringFieldsOf(kind);
    for (uint32_t i = 0; i < strings.count; ++i) {
        const char* text = r.At<const char*>(strings.offsets[i]);
        r.Put<uint32_t>(strings.offsets[i], strings_.Intern(text, &batch.arena));
    }
    if (kind != MSPTI_ACTIVITY_KIND_MARKER) {
        batch.records.push_back(r);
        return;
    }
    const uint32_t flag = MarkerFlag(r);
    if ((wanted & kWantRanges) != 0U && (IsRangeStart(flag) || IsRangeEnd(flag))) {
        auto key = std::make_pair(MarkerId(r), MarkerSource(r));
        PendingRange& pending = pending_ranges_[key];
        const uint32_t name = r.StringAt(kMarkerName);
        const uint32_t domain = r.StringAt(kMarkerDomain);
        if (IsRangeStart(flag)) {
            pending.has_start = true;
            pending.start = r;
            // Arena strings live only as long as the batch: keep a copy.
            pending.name = (name & kArenaBit) != 0U ? batch.arena.c_str() + (name & ~kArenaBit) : "";
            pending.domain = (domain & kArenaBit) != 0U ? batch.arena.c_str() + (domain & ~kArenaBit) : "";
        } else {
            pending.has_end = true;
            pending.end = MarkerTime(r);
        }
        if (pending.has_start && pending.has_end) {
            CompactRecord range = pending.start;
            range.kind = kRangeKind;
            range.range_end = pending.end;
            if ((range.StringAt(kMarkerName) & kArenaBit) != 0U) {
                range.Put<uint32_t>(kMarkerName, strings_.Intern(pending.name.c_str(), &batch.arena));
            }
            if ((range.StringAt(kMarkerDomain) & kArenaBit) != 0U) {
                range.Put<uint32_t>(kMarkerDomain, strings_.Intern(pending.domain.c_str(), &batch.arena));
            }
            pending_ranges_.erase(key);
            batch.records.push_back(range);
        }
        ranges_pending_.store(pending_ranges_.size(), std::memory_order_relaxed);
    }
    bool raw = (wanted & (1U << MSPTI_ACTIVITY_KIND_MARKER)) != 0U;
    bool instant = (wanted & kWantInstant) != 0U && IsInstant(flag);
    if (raw || instant) {
        batch.records.push_back(r);
    }
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
                if (record.kind == MSPTI_ACTIVITY_KIND_MARKER && IsInstant(MarkerFlag(record))) {
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
