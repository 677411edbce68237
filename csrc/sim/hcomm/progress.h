// The progress thread of one rank of a communicator: HCCL operations return at enqueue, and
// this thread runs them in call order (it waits for the peer ranks, moves the data through the
// transport and places the device task), so the calling host thread never waits for a peer.
// The thread starts with the first job and ends when the queue is destroyed, after finishing
// every job queued. A forked child has no progress thread (threads do not survive fork): there
// a job runs on the calling thread, so the operation fails at its timeout instead of waiting for
// a thread that does not exist.
#pragma once

#include <sys/types.h>

#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>

namespace npusim::hcomm {

class ProgressQueue {
public:
    ProgressQueue();
    ~ProgressQueue();
    ProgressQueue(const ProgressQueue&) = delete;
    ProgressQueue& operator=(const ProgressQueue&) = delete;

    void submit(std::function<void()> job);
    // Waits until every job submitted so far has finished.
    void drain();
    // True on the progress thread itself.
    bool on_progress_thread() const { return worker_ && std::this_thread::get_id() == worker_->get_id(); }

private:
    void loop();
    bool forked() const;  // this process is not the one that made the queue

    std::mutex mutex_;
    std::condition_variable cv_;
    std::deque<std::function<void()>> jobs_;
    bool running_ = false;  // a job is being run
    bool stopping_ = false;
    const pid_t pid_;
    std::unique_ptr<std::thread> worker_;
};

}  // namespace npusim::hcomm
