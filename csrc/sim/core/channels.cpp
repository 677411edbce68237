#include "core/channels.h"

#include <pthread.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstring>
#include <limits>
#include <new>

#include "core/clock.h"
#include "seam/device_log.h"

namespace npusim {

namespace {

// The process's hub (the platform's, which lives until exit), reset in a forked child.
std::atomic<ChannelHub*> g_fork_hub{nullptr};

void reset_hub_in_child() {
    if (ChannelHub* hub = g_fork_hub.load(std::memory_order_relaxed)) hub->reset_after_fork();
}

constexpr uint64_t kNever = std::numeric_limits<uint64_t>::max();
constexpr uint32_t kStepTraceBytes = 40;
// A poller with records waiting for their time looks again this often (the virtual clock moves
// only with the program's API calls, which do not wake it).
constexpr auto kDueRecheck = std::chrono::milliseconds(1);
// Sync release: the most a synchronisation waits for a polling reader to take what it released.
constexpr auto kHandOverPatience = std::chrono::seconds(2);

// Every channel record carries its device time: at byte 8 (STARS logs, FFTS+ logs, step traces) or
// at byte 120 (a ContextPmu record: the end of its context).
constexpr uint32_t kTimeOffset = 8;
constexpr uint32_t kContextPmuTimeOffset = offsetof(ContextPmu, timeList) + sizeof(uint64_t);

uint64_t record_time(const char* record, uint32_t offset) {
    uint64_t t = 0;
    std::memcpy(&t, record + offset, sizeof t);
    return t;
}

}  // namespace

ChannelHub::ChannelHub(uint32_t devices, uint32_t stars_record_bytes, DeviceLogRelease release)
    : devices_(devices), release_(release) {
    fifos_.reserve(devices * kChannelCount);
    const uint32_t stars = std::min(std::max<uint32_t>(stars_record_bytes, 16), kMaxRecordBytes);
    for (uint32_t d = 0; d < devices; ++d) {
        for (uint32_t channel : kChannels) {
            if (channel == PROF_CHANNEL_FFTS_PROFILE) {
                fifos_.push_back(std::make_unique<Fifo>(sizeof(ContextPmu), kContextPmuTimeOffset));
            } else {
                fifos_.push_back(
                    std::make_unique<Fifo>(channel == PROF_CHANNEL_TS_FW ? kStepTraceBytes : stars, kTimeOffset));
            }
        }
    }
    static const bool registered = pthread_atfork(nullptr, nullptr, &reset_hub_in_child) == 0;
    (void)registered;
    g_fork_hub.store(this, std::memory_order_relaxed);
}

// Runs with one thread. Reusing an object's storage without its destructor is allowed.
void ChannelHub::reset_after_fork() {
    new (&poll_mutex_) std::mutex();
    new (&poll_cv_) std::condition_variable();
    new (&handed_cv_) std::condition_variable();
    parked_pollers_ = 0;
    waiting_pollers_.store(0, std::memory_order_relaxed);
    for (auto& f : fifos_) {
        new (&f->read_mutex) std::mutex();
        f->fed.clear();  // a test's fed bytes are the parent's (the child starts with no fakes)
        f->fed_pos = 0;
    }
}

int ChannelHub::start(uint32_t device, uint32_t channel) {
    if (!valid(device, channel)) return PROF_ERROR;
    Fifo& f = fifo(device, slot_of(channel));
    std::lock_guard<std::mutex> lock(f.read_mutex);
    f.bytes.lock_producers();
    const bool already = f.active.load(std::memory_order_relaxed);
    if (!already) {
        f.bytes.clear_locked();
        f.staged.head = f.staged.count = 0;
        f.staged.carry_pos = f.staged.carry_len = 0;
        f.staged.release_all = false;
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
        // Unread bytes stay readable after a stop, as they do in a driver's ring buffer, and the
        // device finishes what it was given: every record written is readable from now on.
        f.active.store(false, std::memory_order_release);
        f.bytes.unlock_producers();
        if (was_active) f.staged.release_all = true;
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
    notify_if_waiting();
    return true;
}

void ChannelHub::notify() {
    {
        std::lock_guard<std::mutex> lock(poll_mutex_);
        wake_seq_.fetch_add(1, std::memory_order_relaxed);
    }
    poll_cv_.notify_all();
}

void ChannelHub::stage_locked(Fifo& f) {
    Staged& st = f.staged;
    const size_t rec = f.record_bytes;
    // Bounded like the FIFO: beyond the limit records wait in the FIFO (and producers drop).
    const size_t max_records = kMaxPendingBytes / rec;
    for (;;) {
        const size_t pending = f.bytes.pending() / rec;
        if (pending == 0 || st.count >= max_records) return;
        const size_t want = std::min(pending, max_records - st.count);
        if (st.count + want > st.capacity) {
            size_t capacity = std::max<size_t>(64, st.capacity);
            while (capacity < st.count + want) capacity *= 2;
            std::unique_ptr<char[]> bigger(new char[capacity * rec]);  // not zeroed: only staged bytes are read
            const size_t first = std::min(st.count, st.capacity - st.head);
            if (first > 0) copy_in_pieces(bigger.get(), st.ring.get() + st.head * rec, first * rec);
            if (st.count > first) copy_in_pieces(bigger.get() + first * rec, st.ring.get(), (st.count - first) * rec);
            st.ring = std::move(bigger);
            st.capacity = capacity;
            st.head = 0;
        }
        const size_t mask = st.capacity - 1;
        char* const ring = st.ring.get();
        // One copy straight from the FIFO into the ring, up to its end (the rest in the next round).
        const size_t tail = (st.head + st.count) & mask;
        const size_t n = std::min(want, st.capacity - tail);
        f.bytes.read(ring + tail * rec, n * rec);  // the one consumer: `pending` bytes are there
        uint64_t last = st.count > 0 ? record_time(ring + ((tail + mask) & mask) * rec, f.time_offset) : 0;
        // The new records lie in one run from `tail` (the copy stopped at the ring's end).
        char* at = ring + tail * rec;
        for (char* const end = at + n * rec; at != end; at += rec, ++st.count) {
            const uint64_t t = record_time(at, f.time_offset);
            if (t >= last) {
                last = t;
                continue;
            }
            // Out of order (streams interleave): insertion from the back; equal times keep the order
            // written. `last` stays the latest time.
            char moved[kMaxRecordBytes];
            std::memcpy(moved, at, rec);
            size_t i = st.count;
            while (i > 0 && record_time(ring + ((st.head + i - 1) & mask) * rec, f.time_offset) > t) {
                std::memcpy(ring + ((st.head + i) & mask) * rec, ring + ((st.head + i - 1) & mask) * rec, rec);
                --i;
            }
            std::memcpy(ring + ((st.head + i) & mask) * rec, moved, rec);
        }
    }
}

int ChannelHub::feed(uint32_t device, uint32_t channel, const void* data, size_t len) {
    if (!valid(device, channel) || (data == nullptr && len > 0)) return PROF_ERROR;
    Fifo& f = fifo(device, slot_of(channel));
    {
        std::lock_guard<std::mutex> lock(f.read_mutex);
        if (f.fed.size() - f.fed_pos + len > kMaxPendingBytes) return PROF_ERROR;
        if (f.fed_pos == f.fed.size()) {
            f.fed.clear();
            f.fed_pos = 0;
        }
        f.fed.append(static_cast<const char*>(data), len);
    }
    notify();
    return PROF_OK;
}

size_t ChannelHub::due_locked(const Fifo& f, size_t limit, uint64_t now) {
    const Staged& st = f.staged;
    const size_t rec = f.record_bytes;
    // The ring is in time order, so the due records are a prefix: its end by bisection.
    const size_t mask = st.capacity - 1;
    const char* const ring = st.ring.get();
    size_t lo = 0;
    size_t hi = limit;
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        if (record_time(ring + ((st.head + mid) & mask) * rec, f.time_offset) <= now) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo;
}

uint64_t ChannelHub::readable_locked(const Fifo& f, uint64_t now, uint64_t* next_due) {
    const Staged& st = f.staged;
    const size_t rec = f.record_bytes;
    uint64_t bytes = (st.carry_len - st.carry_pos) + (f.fed.size() - f.fed_pos);
    size_t i = 0;
    const size_t mask = st.capacity == 0 ? 0 : st.capacity - 1;
    const char* const ring = st.ring.get();
    if (st.release_all) {
        i = st.count;
    } else if (st.count > 0) {
        i = due_locked(f, st.count, now);
    }
    if (next_due != nullptr)
        *next_due = i < st.count ? record_time(ring + ((st.head + i) & mask) * rec, f.time_offset) : kNever;
    return bytes + i * rec;
}

uint64_t ChannelHub::release_time() const {
    const uint64_t now = Clock::instance().now();
    return release_ == DeviceLogRelease::Sync ? std::min(now, released_until_.load(std::memory_order_acquire)) : now;
}

bool ChannelHub::collecting_locked() const {
    for (const auto& f : fifos_) {
        if (f->active.load(std::memory_order_acquire)) return true;
    }
    return false;
}

bool ChannelHub::released_unread_locked() {
    const uint64_t until = release_time();
    for (auto& f : fifos_) {
        std::lock_guard<std::mutex> lock(f->read_mutex);
        if (!f->active.load(std::memory_order_acquire)) continue;
        stage_locked(*f);
        if (readable_locked(*f, until, nullptr) > 0) return true;
    }
    return false;
}

void ChannelHub::park(std::unique_lock<std::mutex>& lock, std::chrono::steady_clock::time_point until, uint64_t seen) {
    ++parked_pollers_;
    if (release_ == DeviceLogRelease::Sync) handed_cv_.notify_all();  // a synchronisation may wait for this
    poll_cv_.wait_until(lock, until,
                        [&] { return shutdown_.load() || wake_seq_.load(std::memory_order_relaxed) != seen; });
    --parked_pollers_;
}

void ChannelHub::synchronised(uint64_t t) {
    std::unique_lock<std::mutex> lock(poll_mutex_);
    uint64_t cur = released_until_.load(std::memory_order_relaxed);
    while (cur < t && !released_until_.compare_exchange_weak(cur, t, std::memory_order_acq_rel)) {}
    wake_seq_.fetch_add(1, std::memory_order_relaxed);
    poll_cv_.notify_all();
    if (!polled_.load(std::memory_order_acquire)) return;
    // Hand the released logs over: the host goes on once the reader has read them and is back in its
    // poll, so that each batch it takes is one stretch between synchronisations and none of its work
    // overlaps the next stretch. Bounded: a stalled or departed reader costs this once per
    // synchronisation.
    handed_cv_.wait_for(lock, kHandOverPatience, [&] {
        return shutdown_.load() || !collecting_locked() || (parked_pollers_ > 0 && !released_unread_locked());
    });
}

int ChannelHub::collect_ready(prof_poll_info_t* out, int num, uint64_t* next_due) {
    const uint64_t now = release_time();
    *next_due = kNever;
    int n = 0;
    for (uint32_t d = 0; d < devices_; ++d) {
        for (size_t s = 0; s < kChannelCount; ++s) {
            Fifo& f = fifo(d, static_cast<int>(s));
            uint64_t due = kNever;
            uint64_t ready = 0;
            {
                std::lock_guard<std::mutex> lock(f.read_mutex);
                stage_locked(f);
                ready = readable_locked(f, now, &due);
            }
            *next_due = std::min(*next_due, due);
            if (ready > 0 && n < num) {
                out[n].device_id = d;
                out[n].channel_id = kChannels[s];
                ++n;
            }
        }
    }
    return n;
}

int ChannelHub::poll(prof_poll_info_t* out, int num, int timeout_sec) {
    if (out == nullptr || num <= 0) return PROF_ERROR;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_sec < 0 ? 0 : timeout_sec);
    const bool wall = Clock::instance().mode() == ClockMode::Wall;
    std::unique_lock<std::mutex> lock(poll_mutex_);
    if (release_ == DeviceLogRelease::Sync) polled_.store(true, std::memory_order_release);
    // A stop or a flush also wakes the poller (it may have nothing to read, but it must look again).
    const uint64_t seen = wake_seq_.load(std::memory_order_relaxed);
    // Under "sync" an append makes nothing readable (a synchronisation does, and it wakes the poller),
    // so the poller never asks producers to wake it: a launch never pays for a wake-up.
    const bool by_appends = release_ != DeviceLogRelease::Sync;
    for (;;) {
        // Announced before looking: a producer that appends after the look sees the poller and wakes it.
        if (by_appends) waiting_pollers_.fetch_add(1, std::memory_order_seq_cst);
        uint64_t next_due = kNever;
        const int n = collect_ready(out, num, &next_due);
        if (n > 0 || shutdown_.load() || wake_seq_.load(std::memory_order_relaxed) != seen) {
            if (by_appends) waiting_pollers_.fetch_sub(1, std::memory_order_relaxed);
            return n;
        }
        const auto now = std::chrono::steady_clock::now();
        if (now >= deadline) {
            if (by_appends) waiting_pollers_.fetch_sub(1, std::memory_order_relaxed);
            return 0;
        }
        auto until = deadline;
        if (!by_appends) {
            park(lock, until, seen);
            continue;
        }
        if (next_due != kNever) {
            // Records wait for their time: no producer's append can make them readable sooner, so the
            // poller stops asking to be woken by appends (a launch then never pays for a wake-up) and
            // looks again when the first is due (wall clock) or shortly (virtual clock).
            waiting_pollers_.fetch_sub(1, std::memory_order_relaxed);
            auto step = std::chrono::steady_clock::duration(kDueRecheck);
            if (wall) {
                const uint64_t host_now = Clock::instance().now();
                const uint64_t left = next_due > host_now ? next_due - host_now : 0;
                step = std::min(step, std::chrono::steady_clock::duration(std::chrono::nanoseconds(left)));
            }
            until = std::min(deadline, now + step);
            park(lock, until, seen);
            continue;
        }
        // Nothing written yet: an append wakes the poller (ChannelHub::push).
        park(lock, until, seen);
        waiting_pollers_.fetch_sub(1, std::memory_order_relaxed);
    }
}

int ChannelHub::read(uint32_t device, uint32_t channel, char* buf, uint32_t size) {
    if (!valid(device, channel) || buf == nullptr) return PROF_ERROR;
    Fifo& f = fifo(device, slot_of(channel));
    const uint64_t now = release_time();
    std::lock_guard<std::mutex> lock(f.read_mutex);
    stage_locked(f);
    Staged& st = f.staged;
    uint32_t out = 0;
    // First what a previous short read left of a record.
    if (st.carry_pos < st.carry_len) {
        const uint32_t m = std::min(size - out, st.carry_len - st.carry_pos);
        std::memcpy(buf + out, st.carry + st.carry_pos, m);
        st.carry_pos += m;
        out += m;
    }
    // Then fed bytes, as they came (ChannelHub::feed), ahead of the model's records.
    if (out < size && f.fed_pos < f.fed.size()) {
        const uint32_t m = static_cast<uint32_t>(std::min<size_t>(size - out, f.fed.size() - f.fed_pos));
        std::memcpy(buf + out, f.fed.data() + f.fed_pos, m);
        f.fed_pos += m;
        out += m;
        if (f.fed_pos == f.fed.size()) {
            f.fed.clear();
            f.fed_pos = 0;
        }
        if (out == size) return static_cast<int>(out);
    }
    const size_t rec = f.record_bytes;
    if (out >= size || st.count == 0) return static_cast<int>(out);
    const size_t mask = st.capacity - 1;
    char* const ring = st.ring.get();
    // The whole records that fit and are due, in at most two runs (the ring wraps once).
    const size_t fit = std::min<size_t>((size - out) / rec, st.count);
    const size_t due = st.release_all ? fit : due_locked(f, fit, now);
    const size_t first = std::min(due, st.capacity - st.head);
    copy_in_pieces(buf + out, ring + st.head * rec, first * rec);
    if (due > first) copy_in_pieces(buf + out + first * rec, ring, (due - first) * rec);
    out += static_cast<uint32_t>(due * rec);
    st.head = (st.head + due) & mask;
    st.count -= due;
    // Then the start of one more record if it is due and only part of it fits (the rest is carried).
    if (out < size && due == fit && st.count > 0) {
        const char* front = ring + st.head * rec;
        if (st.release_all || record_time(front, f.time_offset) <= now) {
            const uint32_t m = size - out;
            std::memcpy(buf + out, front, m);
            std::memcpy(st.carry, front, rec);
            st.carry_pos = m;
            st.carry_len = static_cast<uint32_t>(rec);
            out += m;
            st.head = (st.head + 1) & mask;
            --st.count;
        }
    }
    return static_cast<int>(out);
}

int ChannelHub::flush(uint32_t device, uint32_t channel, uint32_t* pending) {
    if (!valid(device, channel) || pending == nullptr) return PROF_ERROR;
    Fifo& f = fifo(device, slot_of(channel));
    {
        // What a read could return now: records of work the device has not done are not flushed.
        std::lock_guard<std::mutex> lock(f.read_mutex);
        stage_locked(f);
        *pending = static_cast<uint32_t>(readable_locked(f, release_time(), nullptr));
    }
    notify();
    return PROF_OK;
}

uint64_t ChannelHub::dropped_bytes(uint32_t device, uint32_t channel) const {
    return valid(device, channel) ? fifo(device, slot_of(channel)).dropped.load() : 0;
}

uint64_t ChannelHub::pending_bytes(uint32_t device, uint32_t channel) const {
    if (!valid(device, channel)) return 0;
    Fifo& f = fifo(device, slot_of(channel));
    std::lock_guard<std::mutex> lock(f.read_mutex);
    return f.bytes.pending() + f.staged.count * f.record_bytes + (f.staged.carry_len - f.staged.carry_pos) +
           (f.fed.size() - f.fed_pos);
}

uint64_t ChannelHub::readable_bytes(uint32_t device, uint32_t channel) const {
    if (!valid(device, channel)) return 0;
    Fifo& f = fifo(device, slot_of(channel));
    std::lock_guard<std::mutex> lock(f.read_mutex);
    stage_locked(f);
    return readable_locked(f, release_time(), nullptr);
}

void ChannelHub::shutdown() {
    shutdown_.store(true);
    notify();
}

}  // namespace npusim
