#include "progress.h"

#include <unistd.h>

#include <utility>

namespace npusim::hcomm {

ProgressQueue::ProgressQueue() : pid_(::getpid()) {}

bool ProgressQueue::forked() const { return ::getpid() != pid_; }

ProgressQueue::~ProgressQueue() {
    if (forked()) {
        // The parent's thread does not exist here: nothing to join, and its handle is left alone.
        (void)worker_.release();
        return;
    }
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stopping_ = true;
    }
    cv_.notify_all();
    // A job never owns its communicator, so the queue is not destroyed from its own thread.
    if (worker_ && worker_->joinable()) worker_->join();
}

void ProgressQueue::submit(std::function<void()> job) {
    if (forked()) {
        job();
        return;
    }
    {
        std::lock_guard<std::mutex> lock(mutex_);
        jobs_.push_back(std::move(job));
        if (!worker_) worker_ = std::make_unique<std::thread>([this] { loop(); });
    }
    cv_.notify_all();
}

void ProgressQueue::drain() {
    if (forked() || on_progress_thread()) return;  // (jobs queued before a fork are the parent's)
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
