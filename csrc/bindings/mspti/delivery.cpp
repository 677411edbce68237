#include "delivery.h"

#include <pthread.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <new>

namespace mspti_py {

namespace {

constexpr size_t kPoolBytes = size_t{256} << 20;  // the pool holds at most this much
constexpr size_t kBatchRecords = 4096;              // records per GIL acquisition at most
constexpr size_t kBufferAlignment = 64;

// Bits of Delivery::wanted_kinds_ beyond the kinds 1..12.
constexpr uint32_t kWantInstant = 1U << 20;
constexpr uint32_t kWantRanges = 1U << 21;

bool IsInstant(uint32_t flag) {
    return flag == MSPTI_ACTIVITY_FLAG_MARKER_INSTANTANEOUS || flag == MSPTI_ACTIVITY_FLAG_MARKER_INSTANTANEOUS_WITH_DEVICE;
}
bool IsRangeStart(uint32_t flag) {
    return flag == MSPTI_ACTIVITY_FLAG_MARKER_START || flag == MSPTI_ACTIVITY_FLAG_MARKER_START_WITH_DEVICE;
}
bool IsRangeEnd(uint32_t flag) {
    return flag == MSPTI_ACTIVITY_FLAG_MARKER_END || flag == MSPTI_ACTIVITY_FLAG_MARKER_END_WITH_DEVICE;
}

// Route lists, replaced as a whole when a monitor starts or stops. Holds strong references; it is
// created and destroyed only with the GIL held.
struct RouteTable {
    std::vector<PyObject*> lists[kRouteRanges + 1];

    RouteTable() = default;
    RouteTable(const RouteTable& other) {
        for (size_t i = 0; i <= kRouteRanges; ++i) {
            lists[i] = other.lists[i];
            for (PyObject* callable : lists[i]) {
                Py_INCREF(callable);
            }
        }
    }
    RouteTable& operator=(const RouteTable&) = delete;
    ~RouteTable() {
        for (auto& list : lists) {
            for (PyObject* callable : list) {
                Py_DECREF(callable);
            }
        }
    }
};

// The current table and its generation; both only touched with the GIL held.
std::shared_ptr<RouteTable>& CurrentRoutes() {
    static auto* table = new std::shared_ptr<RouteTable>(nullptr);
    return *table;
}
uint64_t g_routes_generation = 0;

class GilReleased {
public:
    GilReleased() : state_(PyEval_SaveThread()) {}
    ~GilReleased() { PyEval_RestoreThread(state_); }
    GilReleased(const GilReleased&) = delete;
    GilReleased& operator=(const GilReleased&) = delete;

private:
    PyThreadState* state_;
};

class GilHeld {
public:
    GilHeld() : state_(PyGILState_Ensure()) {}
    ~GilHeld() { PyGILState_Release(state_); }
    GilHeld(const GilHeld&) = delete;
    GilHeld& operator=(const GilHeld&) = delete;

private:
    PyGILState_STATE state_;
};

}  // namespace

Delivery& Delivery::Instance() {
    // Never destroyed: msPTI may complete buffers while the process exits.
    static Delivery* instance = [] {
        auto* delivery = new Delivery();
        pthread_atfork(&Delivery::PrepareFork, &Delivery::ParentAfterFork, &Delivery::ChildAfterFork);
        return delivery;
    }();
    return *instance;
}

// ---- fork ------------------------------------------------------------------------------------

// Lock order: pool_mutex_ is never held with queue_mutex_ in the rest of this file, so either order
// is free of deadlock here; neither is held across a wait for the GIL or for another thread.
void Delivery::PrepareFork() {
    Delivery& self = Instance();
    self.pool_mutex_.lock();
    self.queue_mutex_.lock();
}

void Delivery::ParentAfterFork() {
    Delivery& self = Instance();
    self.queue_mutex_.unlock();
    self.pool_mutex_.unlock();
}

// The child has one thread. Reusing the storage of the locks, condition variables and the thread
// object without running their destructors is allowed; their holders and waiters do not exist here.
void Delivery::ChildAfterFork() {
    Delivery& self = Instance();
    for (std::mutex* m : {&self.control_, &self.pool_mutex_, &self.queue_mutex_}) {
        new (m) std::mutex();
    }
    for (std::condition_variable* cv : {&self.queue_cv_, &self.done_cv_}) {
        new (cv) std::condition_variable();
    }
    new (&self.consumer_) std::thread();
    self.consumer_id_.store(std::thread::id());
    const bool had_consumer = self.consumer_running_;
    self.consumer_running_ = false;
    self.stopping_ = false;
    // Filled buffers the parent had not converted hold the parent's records: back to the pool unread.
    for (const Filled& filled : self.queue_) {
        if (filled.size == self.pool_buffer_size_) {
            self.free_buffers_.push_back(filled.data);
        } else {
            std::free(filled.data);
        }
    }
    self.queue_.clear();
    self.processed_ = self.enqueued_;
    // Buffers msPTI held in the parent are abandoned by msPTI in the child: no longer in use.
    self.pool_allocated_ = self.free_buffers_.size();
    // Half-assembled ranges are the parent's.
    self.pending_ranges_.clear();
    self.ranges_pending_.store(0);
    self.restart_after_fork_.store(had_consumer && !self.shut_down_);
}

void Delivery::RestartConsumerAfterFork() {
    if (restart_after_fork_.exchange(false)) {
        EnsureConsumer();
    }
}

std::string Delivery::BindTypes(PyObject* types) { return factory_.Bind(types); }

// ---- pool -----------------------------------------------------------------------------------

uint8_t* Delivery::TakeBuffer(size_t* size) {
    std::lock_guard<std::mutex> lock(pool_mutex_);
    *size = pool_buffer_size_;
    if (!free_buffers_.empty()) {
        uint8_t* data = free_buffers_.back();
        free_buffers_.pop_back();
        return data;
    }
    if (pool_buffer_size_ == 0 || pool_allocated_ >= pool_capacity_) {
        return nullptr;
    }
    auto* data = static_cast<uint8_t*>(std::aligned_alloc(kBufferAlignment, pool_buffer_size_));
    if (data != nullptr) {
        ++pool_allocated_;
    }
    return data;
}

void Delivery::ReturnBuffer(uint8_t* data, size_t size) {
    std::lock_guard<std::mutex> lock(pool_mutex_);
    if (size != pool_buffer_size_) {
        std::free(data);  // from a session with another buffer size
        return;
    }
    free_buffers_.push_back(data);
}

void Delivery::ReleaseIdleBuffers() {
    std::lock_guard<std::mutex> lock(pool_mutex_);
    for (uint8_t* data : free_buffers_) {
        std::free(data);
    }
    pool_allocated_ -= std::min(pool_allocated_, free_buffers_.size());
    free_buffers_.clear();
}

bool Delivery::SetBufferSize(size_t bytes) {
    if (bytes == 0 || bytes > kPoolBytes) {
        return false;
    }
    next_buffer_size_.store(bytes);
    return true;
}

// ---- msPTI callbacks (producer threads; no Python, no waiting) --------------------------------

void Delivery::OnRequest(uint8_t** buffer, size_t* size, size_t* max_records) {
    Delivery& self = Instance();
    size_t granted = 0;
    uint8_t* data = self.TakeBuffer(&granted);
    *buffer = data;
    *size = data != nullptr ? granted : 0;
    *max_records = 0;
    if (data == nullptr) {
        self.buffers_declined_.fetch_add(1, std::memory_order_relaxed);
    }
}

void Delivery::OnComplete(uint8_t* buffer, size_t size, size_t valid) {
    if (buffer == nullptr) {
        return;
    }
    Delivery& self = Instance();
    self.buffers_completed_.fetch_add(1, std::memory_order_relaxed);
    if (valid > 0) {
        std::lock_guard<std::mutex> lock(self.queue_mutex_);
        if (!self.shut_down_) {
            self.queue_.push_back(Filled{buffer, size, valid, ++self.enqueued_});
            self.queue_cv_.notify_one();
            return;
        }
    }
    self.ReturnBuffer(buffer, size);
}

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
        default:
            records_skipped_.fetch_add(1, std::memory_order_relaxed);
            return;
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

// ---- routes ----------------------------------------------------------------------------------

void Delivery::RecomputeWants() {
    uint32_t wanted = 0;
    const auto& table = CurrentRoutes();
    if (table) {
        for (uint32_t kind = 1; kind <= kMaxKind; ++kind) {
            if (!table->lists[kind].empty()) {
                wanted |= 1U << kind;
            }
        }
        if (!table->lists[kRouteInstantMarks].empty()) {
            wanted |= kWantInstant;
        }
        if (!table->lists[kRouteRanges].empty()) {
            wanted |= kWantRanges;
        }
    }
    wanted_kinds_.store(wanted);
}

// ---- session ---------------------------------------------------------------------------------

int Delivery::JoinSession() {
    if (session_refs_ > 0) {
        ++session_refs_;
        return MSPTI_SUCCESS;
    }
    const Api& api = Library::Instance().api();
    {
        std::lock_guard<std::mutex> lock(pool_mutex_);
        size_t size = next_buffer_size_.load();
        if (size != pool_buffer_size_) {
            for (uint8_t* data : free_buffers_) {
                std::free(data);
            }
            free_buffers_.clear();
            pool_allocated_ = 0;
            pool_buffer_size_ = size;
        }
        pool_capacity_ = std::max<size_t>(1, kPoolBytes / pool_buffer_size_);
    }
    EnsureConsumer();
    msptiSubscriberHandle subscriber = nullptr;
    int rc = api.Subscribe(&subscriber, nullptr, nullptr);
    if (rc != MSPTI_SUCCESS) {
        return rc;
    }
    rc = api.RegisterCallbacks(&Delivery::OnRequest, &Delivery::OnComplete);
    if (rc != MSPTI_SUCCESS) {
        api.Unsubscribe(subscriber);
        return rc;
    }
    subscriber_ = subscriber;
    session_refs_ = 1;
    return MSPTI_SUCCESS;
}

int Delivery::FlushAndWait() {
    RestartConsumerAfterFork();
    const Api& api = Library::Instance().api();
    int rc = api.FlushAll(1);
    if (OnConsumerThread()) {
        return rc;  // from a callback: the consumer is busy with us
    }
    std::unique_lock<std::mutex> lock(queue_mutex_);
    uint64_t target = enqueued_;
    done_cv_.wait(lock, [&] { return processed_ >= target || !consumer_running_; });
    return rc;
}

std::pair<int, uint64_t> Delivery::StartMonitor(const std::vector<int>& kinds,
                                                const std::vector<std::pair<int, PyObject*>>& routes) {
    if (OnConsumerThread()) {
        return {kFromCallback, 0};
    }
    if (!Library::Instance().Loaded() || !factory_.Bound()) {
        return {kNotReady, 0};
    }
    for (int kind : kinds) {
        if (kind < 1 || kind > static_cast<int>(kMaxKind)) {
            return {MSPTI_ERROR_INVALID_PARAMETER, 0};
        }
    }
    for (const auto& route : routes) {
        bool ok = (route.first >= 1 && route.first <= static_cast<int>(kMaxKind)) ||
                  route.first == kRouteInstantMarks || route.first == kRouteRanges;
        if (!ok || !PyCallable_Check(route.second)) {
            return {MSPTI_ERROR_INVALID_PARAMETER, 0};
        }
    }
    const Api& api = Library::Instance().api();
    GilReleased released;
    std::lock_guard<std::mutex> lock(control_);
    RestartConsumerAfterFork();
    int rc = JoinSession();
    if (rc != MSPTI_SUCCESS) {
        return {rc, 0};
    }
    uint64_t token = next_token_++;
    {
        // Routes first: records of the kinds enabled below have somewhere to go at once.
        GilHeld gil;
        Consumer consumer;
        consumer.kinds = kinds;
        auto table = CurrentRoutes() ? std::make_shared<RouteTable>(*CurrentRoutes()) : std::make_shared<RouteTable>();
        for (const auto& route : routes) {
            Py_INCREF(route.second);
            consumer.routes.emplace_back(route.first, route.second);
            Py_INCREF(route.second);
            table->lists[route.first].push_back(route.second);
        }
        consumers_.emplace(token, std::move(consumer));
        CurrentRoutes() = std::move(table);
        ++g_routes_generation;
        RecomputeWants();
    }
    std::vector<int> enabled;
    for (int kind : kinds) {
        if (kind_refs_[kind] == 0) {
            rc = api.Enable(static_cast<msptiActivityKind>(kind));
            if (rc != MSPTI_SUCCESS) {
                break;
            }
        }
        ++kind_refs_[kind];
        enabled.push_back(kind);
    }
    if (rc != MSPTI_SUCCESS) {
        for (int kind : enabled) {
            if (--kind_refs_[kind] == 0) {
                api.Disable(static_cast<msptiActivityKind>(kind));
            }
        }
        {
            GilHeld gil;
            Consumer& consumer = consumers_[token];
            auto table = std::make_shared<RouteTable>(*CurrentRoutes());
            for (const auto& route : consumer.routes) {
                auto& list = table->lists[route.first];
                auto found = std::find(list.begin(), list.end(), route.second);
                if (found != list.end()) {
                    Py_DECREF(*found);
                    list.erase(found);
                }
                Py_DECREF(route.second);
            }
            consumers_.erase(token);
            CurrentRoutes() = std::move(table);
            ++g_routes_generation;
            RecomputeWants();
        }
        if (--session_refs_ == 0) {
            api.Unsubscribe(subscriber_);
            subscriber_ = nullptr;
            ReleaseIdleBuffers();
        }
        return {rc, 0};
    }
    return {MSPTI_SUCCESS, token};
}

int Delivery::StopMonitor(uint64_t token, uint32_t grace_ms) {
    if (OnConsumerThread()) {
        return kFromCallback;
    }
    if (!Library::Instance().Loaded()) {
        return MSPTI_SUCCESS;
    }
    const Api& api = Library::Instance().api();
    GilReleased released;
    std::lock_guard<std::mutex> lock(control_);
    auto found = consumers_.find(token);
    if (found == consumers_.end()) {
        return session_refs_ > 0 ? FlushAndWait() : static_cast<int>(MSPTI_SUCCESS);
    }
    int rc = MSPTI_SUCCESS;
    auto keep = [&rc](int result) {
        if (rc == MSPTI_SUCCESS) {
            rc = result;
        }
    };
    bool last = session_refs_ == 1;
    if (last) {
        keep(api.Unsubscribe(subscriber_));
        subscriber_ = nullptr;
    }
    if (grace_ms > 0) {
        std::this_thread::sleep_for(std::chrono::milliseconds(grace_ms));
    }
    keep(FlushAndWait());
    for (int kind : found->second.kinds) {
        if (--kind_refs_[kind] == 0) {
            keep(api.Disable(static_cast<msptiActivityKind>(kind)));
        }
    }
    keep(FlushAndWait());
    {
        GilHeld gil;
        auto table = std::make_shared<RouteTable>(*CurrentRoutes());
        for (const auto& route : found->second.routes) {
            auto& list = table->lists[route.first];
            auto it = std::find(list.begin(), list.end(), route.second);
            if (it != list.end()) {
                Py_DECREF(*it);
                list.erase(it);
            }
            Py_DECREF(route.second);
        }
        consumers_.erase(found);
        CurrentRoutes() = std::move(table);
        ++g_routes_generation;
        RecomputeWants();
    }
    if (--session_refs_ == 0) {
        ReleaseIdleBuffers();
    }
    return rc;
}

int Delivery::FlushAll() {
    if (!Library::Instance().Loaded()) {
        return MSPTI_SUCCESS;
    }
    if (OnConsumerThread()) {
        return Library::Instance().api().FlushAll(1);
    }
    GilReleased released;
    std::lock_guard<std::mutex> lock(control_);
    int rc = FlushAndWait();
    if (session_refs_ == 0) {
        ReleaseIdleBuffers();
    }
    return rc;
}

int Delivery::FlushPeriod(uint32_t ms) {
    if (!Library::Instance().Loaded()) {
        return MSPTI_SUCCESS;
    }
    return Library::Instance().api().FlushPeriod(ms);
}

bool Delivery::Active() const { return session_refs_ > 0; }

Stats Delivery::GetStats() {
    Stats stats;
    stats.buffers_completed = buffers_completed_.load();
    stats.buffers_declined = buffers_declined_.load();
    stats.records_seen = records_seen_.load();
    stats.records_skipped = records_skipped_.load();
    stats.records_delivered = records_delivered_.load();
    stats.batches = batches_.load();
    stats.callback_errors = callback_errors_.load();
    stats.ranges_pending = ranges_pending_.load();
    std::lock_guard<std::mutex> lock(pool_mutex_);
    stats.buffers_allocated = pool_allocated_;
    stats.buffer_size = pool_buffer_size_ != 0 ? pool_buffer_size_ : next_buffer_size_.load();
    stats.buffer_count = pool_capacity_;
    return stats;
}

void Delivery::Shutdown() {
    if (OnConsumerThread()) {
        return;
    }
    GilReleased released;
    std::lock_guard<std::mutex> lock(control_);
    if (session_refs_ > 0 && Library::Instance().Loaded()) {
        FlushAndWait();
    }
    {
        std::lock_guard<std::mutex> queue_lock(queue_mutex_);
        stopping_ = true;
        shut_down_ = true;
    }
    queue_cv_.notify_all();
    if (consumer_.joinable()) {
        consumer_.join();
    }
    {
        std::lock_guard<std::mutex> queue_lock(queue_mutex_);
        consumer_running_ = false;
    }
    done_cv_.notify_all();
}

}  // namespace mspti_py
