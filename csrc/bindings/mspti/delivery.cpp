#include "delivery_internal.h"

#include <pthread.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <new>

namespace mspti_py {

namespace delivery_internal {

std::shared_ptr<RouteTable>& CurrentRoutes() {
    static auto* table = new std::shared_ptr<RouteTable>(nullptr);
    return *table;
}
uint64_t g_routes_generation = 0;

}  // namespace delivery_internal

using namespace delivery_internal;

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
