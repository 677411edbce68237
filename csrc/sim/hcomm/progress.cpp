#include "progress.h"

#include <utility>

namespace npusim::hcomm {

ProgressQueue::~ProgressQueue() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stopping_ = true;
    }
    cv_.notify_all();
    // A job never owns its communicator, so the queue is not destroyed from its own thread.
    if (worker_.joinable()) worker_.join();
}

void ProgressQueue::submit(std::function<void()> job) {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        jobs_.push_back(std::move(job));
        if (!worker_.joinable()) worker_ = std::thread([this] { loop(); });
    }
    cv_.notify_all();
}

void ProgressQueue::drain() {
    if (on_progress_thread()) return;  // its own jobs finish after it returns
    std::unique_lock<std::mutex> lock(mutex_);
    cv_.wait(lock, [&] { return jobs_.empty() && !running_; });
}

void ProgressQueue::loop() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
        cv_.wait(lock, [&] { return stopping_ || !jobs_.empty(); });
        if (jobs_.empty()) return;  // stopping, and nothing is left
        std::function<void()> job = std::move(jobs_.front());
        jobs_.pop_front();
        running_ = true;
        lock.unlock();
        job();
        lock.lock();
        running_ = false;
        cv_.notify_all();
    }
}

}  // namespace npusim::hcomm
