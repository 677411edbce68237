#include "core/channels.h"

#include <pthread.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <new>

namespace npusim {

namespace {

// The process's hub (the platform's, which lives until exit), reset in a forked child.
std::atomic<ChannelHub*> g_fork_hub{nullptr};

void reset_hub_in_child() {
    if (ChannelHub* hub = g_fork_hub.load(std::memory_order_relaxed)) hub->reset_after_fork();
}

}  // namespace

ChannelHub::ChannelHub(uint32_t devices) : devices_(devices) {
    fifos_.reserve(devices * kChannelCount);
    for (size_t i = 0; i < devices * kChannelCount; ++i) fifos_.push_back(std::make_unique<Fifo>());
    static const bool registered = pthread_atfork(nullptr, nullptr, &reset_hub_in_child) == 0;
    (void)registered;
    g_fork_hub.store(this, std::memory_order_relaxed);
}

// Runs with one thread. Reusing an object's storage without its destructor is allowed.
void ChannelHub::reset_after_fork() {
    new (&poll_mutex_) std::mutex();
    new (&poll_cv_) std::condition_variable();
    waiting_pollers_.store(0, std::memory_order_relaxed);
    for (auto& f : fifos_) new (&f->read_mutex) std::mutex();
}

int ChannelHub::start(uint32_t device, uint32_t channel) {
    if (!valid(device, channel)) return PROF_ERROR;
    Fifo& f = fifo(device, slot_of(channel));
    std::lock_guard<std::mutex> lock(f.read_mutex);
    f.bytes.lock_producers();
    const bool already = f.active.load(std::memory_order_relaxed);
    if (!already) {
        f.bytes.clear_locked();
        f.active.store(true, std::memory_order_release);
    }
    f.bytes.unlock_producers();
    return already ? PROF_STARTED_ALREADY : PROF_OK;
}

int ChannelHub::stop(uint32_t device, uint32_t channel) {
    if (!valid(device, channel)) return PROF_ERROR;
    Fifo& f = fifo(device, slot_of(channel));
    {
        std::lock_guard<std::mutex> lock(f.read_mutex);
        f.bytes.lock_producers();
        const bool was_active = f.active.load(std::memory_order_relaxed);
        // Unread bytes stay readable after a stop, as they do in a driver's ring buffer.
        f.active.store(false, std::memory_order_release);
        f.bytes.unlock_producers();
        if (!was_active) return PROF_STOPPED_ALREADY;
    }
    notify();
    return PROF_OK;
}

bool ChannelHub::push(uint32_t device, uint32_t channel, const void* data, size_t len) {
    const int slot = slot_of(channel);
    if (device >= devices_ || slot < 0) return false;
    Fifo& f = fifo(device, slot);
    f.bytes.lock_producers();
    if (!f.active.load(std::memory_order_relaxed)) {
        f.bytes.unlock_producers();
        return false;
    }
    const bool appended = f.bytes.append_locked(data, len, kMaxPendingBytes);
    f.bytes.unlock_producers();
    if (!appended) {
        f.dropped.fetch_add(len, std::memory_order_relaxed);
        return false;
    }
    // The append published its bytes with a seq_cst store and a poller announces itself with a
    // seq_cst increment before it looks at the FIFOs: either it sees the bytes or this sees it.
    if (waiting_pollers_.load(std::memory_order_seq_cst) != 0) notify();
    return true;
}

void ChannelHub::notify() {
    {
        std::lock_guard<std::mutex> lock(poll_mutex_);
        wake_seq_.fetch_add(1, std::memory_order_relaxed);
    }
    poll_cv_.notify_all();
}

bool ChannelHub::any_pending() const {
    for (const auto& f : fifos_) {
        if (f->bytes.pending() > 0) return true;
    }
    return false;
}

int ChannelHub::poll(prof_poll_info_t* out, int num, int timeout_sec) {
    if (out == nullptr || num <= 0) return PROF_ERROR;
    auto collect = [&]() {
        int n = 0;
        for (uint32_t d = 0; d < devices_ && n < num; ++d) {
            for (size_t s = 0; s < kChannelCount && n < num; ++s) {
                if (fifo(d, static_cast<int>(s)).bytes.pending() > 0) {
                    out[n].device_id = d;
                    out[n].channel_id = kChannels[s];
                    ++n;
                }
            }
        }
        return n;
    };
    std::unique_lock<std::mutex> lock(poll_mutex_);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_sec < 0 ? 0 : timeout_sec);
    // A stop or a flush also wakes the poller (it may have nothing to read, but it must look again).
    const uint64_t seen = wake_seq_.load(std::memory_order_relaxed);
    waiting_pollers_.fetch_add(1, std::memory_order_seq_cst);
    poll_cv_.wait_until(lock, deadline, [&] {
        return shutdown_.load() || any_pending() || wake_seq_.load(std::memory_order_relaxed) != seen;
    });
    waiting_pollers_.fetch_sub(1, std::memory_order_relaxed);
    return collect();
}

int ChannelHub::read(uint32_t device, uint32_t channel, char* buf, uint32_t size) {
    if (!valid(device, channel) || buf == nullptr) return PROF_ERROR;
    Fifo& f = fifo(device, slot_of(channel));
    std::lock_guard<std::mutex> lock(f.read_mutex);
    return static_cast<int>(f.bytes.read(buf, size));
}

int ChannelHub::flush(uint32_t device, uint32_t channel, uint32_t* pending) {
    if (!valid(device, channel) || pending == nullptr) return PROF_ERROR;
    Fifo& f = fifo(device, slot_of(channel));
    *pending = static_cast<uint32_t>(f.bytes.pending());
    notify();
    return PROF_OK;
}

uint64_t ChannelHub::dropped_bytes(uint32_t device, uint32_t channel) const {
    return valid(device, channel) ? fifo(device, slot_of(channel)).dropped.load() : 0;
}

uint64_t ChannelHub::pending_bytes(uint32_t device, uint32_t channel) const {
    return valid(device, channel) ? fifo(device, slot_of(channel)).bytes.pending() : 0;
}

void ChannelHub::shutdown() {
    shutdown_.store(true);
    notify();
}

}  // namespace npusim
