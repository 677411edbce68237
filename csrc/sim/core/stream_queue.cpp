#include "core/stream_queue.h"

#include <chrono>
#include <utility>

namespace npusim {

uint64_t StreamQueue::hold() {
    std::lock_guard<std::mutex> lock(mutex_);
    Item item;
    item.ticket = next_ticket_++;
    items_.push_back(std::move(item));
    publish();
    return items_.back().ticket;
}

void StreamQueue::wait_turn(uint64_t ticket) {
    std::unique_lock<std::mutex> lock(mutex_);
    cv_.wait(lock, [&] { return items_.empty() || (!draining_ && items_.front().ticket == ticket); });
}

void StreamQueue::release(uint64_t ticket, int32_t error) {
    std::unique_lock<std::mutex> lock(mutex_);
    for (Item& item : items_) {
        if (item.ticket != ticket) continue;
        item.done = true;
        if (error != 0 && error_ == 0) error_ = error;
        break;
    }
    drain(lock);
}

bool StreamQueue::defer(std::function<void()> fn) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (items_.empty()) return false;
    Item item;
    item.ticket = next_ticket_++;
    item.run = std::move(fn);
    items_.push_back(std::move(item));
    publish();
    return true;
}

void StreamQueue::drain(std::unique_lock<std::mutex>& lock) {
    while (!draining_ && !items_.empty()) {
        Item& front = items_.front();
        if (front.run) {
            // Run outside the lock (it places a task on this stream), still at the front, so that
            // the next held operation does not take its turn before it.
            draining_ = true;
            std::function<void()> fn = std::move(front.run);
            lock.unlock();
            fn();
            lock.lock();
            draining_ = false;
        } else if (!front.done) {
            break;
        }
        items_.pop_front();
        publish();
    }
    cv_.notify_all();
}

void StreamQueue::wait_idle() {
    if (idle()) return;
    std::unique_lock<std::mutex> lock(mutex_);
    cv_.wait(lock, [&] { return items_.empty(); });
}

bool StreamQueue::wait_idle_for(int64_t ms) {
    if (idle()) return true;
    std::unique_lock<std::mutex> lock(mutex_);
    return cv_.wait_for(lock, std::chrono::milliseconds(ms), [&] { return items_.empty(); });
}

int32_t StreamQueue::take_error() {
    std::lock_guard<std::mutex> lock(mutex_);
    return std::exchange(error_, 0);
}

}  // namespace npusim
