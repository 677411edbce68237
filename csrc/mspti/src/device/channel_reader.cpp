#include "device/channel_reader.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <new>

#include "common/attributes.h"
#include "common/host_clock.h"
#include "common/log.h"
#include "common/no_destructor.h"
#include "common/thread_signals.h"
#include "cann/cann_api.h"
#include "device/device_data.h"
#include "seam/device_log.h"
#include "device/device_registry.h"
#include "device/device_time.h"
#include "cann/host_time.h"

namespace mspti::seam {
namespace {

constexpr size_t kReadBufferSize = 2U << 20;
constexpr int kPollBatch = 64;
constexpr int kPollTimeoutSec = 1;
// Device records come in many small pieces (two logs per task). After a read that was not large the
// reader pauses briefly so that records gather: reading them as they arrive would wake this thread,
// and make the launching thread pay for the wake-up, every few records. Flushes drain channels
// themselves, so the pause delays no record a flush must deliver.
constexpr auto kGatherPause = std::chrono::microseconds(500);
constexpr size_t kLargeRead = kReadBufferSize / 4;
// The most the reader thread reads from one channel before it polls again, so that a channel whose
// producers never pause does not starve the others nor the periodic sweep.
constexpr size_t kReaderPassLimit = 4 * kReadBufferSize;
// How long a drain waits for bytes the driver reported pending but has not handed out yet, and for
// a driver call of the reader thread (longer: the driver is taken as stalled).
constexpr auto kDrainPatience = std::chrono::milliseconds(50);
// The most a drain waits for the reader thread to hand a channel over when its driver calls do not
// stall (it hands over after the batch it is parsing; this bounds a reader that cannot keep up).
constexpr auto kDrainLimit = std::chrono::seconds(5);
// A drain owes what the driver held at its flush. Beyond that it reads on while the channel still
// returns bytes (records of work that raced the call, which Disable would otherwise count as
// dropped), but for this long at most: threads that go on launching could keep it reading for ever.
constexpr auto kDrainOvertime = std::chrono::milliseconds(5);
constexpr uint64_t kSweepPeriodNs = 1'000'000'000ULL;
constexpr uint64_t kResyncPeriodNs = 7'000'000'000ULL;

int64_t SteadyNs() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

size_t RecordSize(const uint32_t device, const uint32_t channel) {
    return channel == PROF_CHANNEL_TS_FW ? kStepTraceSize : StarsRecordSize(devices::Chip(device));
}

uint16_t Load16(const uint8_t* p) { return static_cast<uint16_t>(p[0] | (p[1] << 8)); }
uint64_t Load64(const uint8_t* p) {
    uint64_t v = 0;
    std::memcpy(&v, p, sizeof v);
    return v;
}

// A device time this far from the host's now (records' time base) is not a time of this run.
constexpr uint64_t kPlausibleSpanNs = 3'600'000'000'000ULL;
// Records whose times all lie further than this from now make the parser check its place (ParseLocked):
// records of work that runs now are nearer, records read off the boundary (times shifted by whole
// bytes) much further.
constexpr uint64_t kPhaseCheckNs = 100'000'000ULL;

// How far the device time of the STARS log at `p` (every layout has it at byte 8) is from `now_ns`
// (records' time base); 0 when the device clock is not known.
uint64_t Distance(uint32_t device, const uint8_t* p, uint64_t now_ns) {
    const uint64_t time = device_time::ToRecordTime(device, Load64(p + 8));
    if (time == 0) return 0;
    return time > now_ns ? time - now_ns : now_ns - time;
}

// Whether a record of the channel's fixed size starts at `p`: the header of a step trace (its
// report type and its own size), or a STARS log (every layout has the head at 0 and the device time
// at 8) of a task or FFTS+ sub-task begin or end with a time within an hour of now (when the device
// clock is known; the time is checked only with `check_time`). A log of another function type
// (which msPTI skips) fails this; see ParseLocked. `now_ns`: the host's now in the records' time base.
bool LooksLikeRecord(uint32_t device, uint32_t channel, const uint8_t* p, uint64_t now_ns, bool check_time) {
    if (channel == PROF_CHANNEL_TS_FW) {
        const uint8_t type = p[1];
        return (type == TS_RPT_TYPE_STEP_TRACE || type == TS_RPT_TYPE_MEMCPY || type == TS_RPT_TYPE_TASK_TYPE) &&
               Load16(p + 2) == kStepTraceSize;
    }
    const uint16_t func = STARS_HEAD_FUNC_TYPE(Load16(p));
    if (func != STARS_FUNC_TYPE_BEGIN && func != STARS_FUNC_TYPE_END && func != STARS_FUNC_TYPE_FFTS_BEGIN &&
        func != STARS_FUNC_TYPE_FFTS_END) {
        return false;
    }
    return Load64(p + 8) != 0 && (!check_time || Distance(device, p, now_ns) < kPlausibleSpanNs);
}

}  // namespace

ChannelReader& ChannelReader::Instance() {
    static NoDestructor<ChannelReader> reader;
    return reader.get();
}

void ChannelReader::Add(uint32_t device, uint32_t channel) {
    {
        std::lock_guard<std::mutex> lock(DeviceData::Instance().mutex());
        auto& c = channels_[Key(device, channel)];
        if (!c) {
            c = std::make_shared<Channel>();
            c->device = device;
            c->channel = channel;
            c->buffer.resize(attributes::ChannelBufferSize());
        }
    }
    std::lock_guard<std::mutex> lock(thread_mutex_);
    restart_after_fork_ = false;
    StartThreadLocked();
}

void ChannelReader::StartThreadIfWanted() {
    std::lock_guard<std::mutex> lock(thread_mutex_);
    if (!restart_after_fork_) return;
    restart_after_fork_ = false;
    StartThreadLocked();
}

void ChannelReader::StartThreadLocked() {
    if (generation_.load(std::memory_order_acquire) != 0) return;  // a reader is running
    const uint64_t mine = ++next_generation_;
    generation_.store(mine, std::memory_order_release);
    // Detached: a retired reader (see RetireThread) finishes its last poll on its own.
    std::thread([this, mine] { Loop(mine); }).detach();
}

std::shared_ptr<ChannelReader::Channel> ChannelReader::Find(uint32_t device, uint32_t channel) {
    std::lock_guard<std::mutex> lock(DeviceData::Instance().mutex());
    auto it = channels_.find(Key(device, channel));
    return it == channels_.end() ? nullptr : it->second;
}

void ChannelReader::Remove(uint32_t device, uint32_t channel) {
    std::shared_ptr<Channel> c = Find(device, channel);
    if (!c) return;
    // Reads what is left unless the reader is inside the driver on this channel; then the reader
    // parses what its read returns (the channel object lives while it holds it).
    if (LockForDrain(*c)) {
        std::lock_guard<std::mutex> read(c->read_mutex, std::adopt_lock);
        ReadHeld(*c, SIZE_MAX);  // after prof_stop: the driver writes no more
        if (c->skipped != 0) {
            MSPTI_LOGW("channel %u of device %u stopped; %llu bytes were skipped to find record boundaries", channel,
                       device, static_cast<unsigned long long>(c->skipped));
        }
    }
    std::lock_guard<std::mutex> lock(DeviceData::Instance().mutex());
    auto it = channels_.find(Key(device, channel));
    if (it != channels_.end() && it->second == c) channels_.erase(it);
}

void ChannelReader::Drain(uint32_t device, uint32_t channel) {
    StartThreadIfWanted();
    std::shared_ptr<Channel> c = Find(device, channel);
    if (c) DrainChannel(*c);
}

void ChannelReader::DrainAll() {
    StartThreadIfWanted();
    // Streams synchronised before this moment have their device records with the driver.
    const uint64_t flush_ns = host_clock::Now();
    std::vector<std::shared_ptr<Channel>> channels;
    {
        std::lock_guard<std::mutex> lock(DeviceData::Instance().mutex());
        channels.reserve(channels_.size());
        for (auto& entry : channels_) channels.push_back(entry.second);
    }
    DeviceData& data = DeviceData::Instance();
    for (const auto& c : channels) {
        const uint64_t flushed_ns = DrainChannel(*c);
        // Device halves that did not come are counted now, so that a flush accounts for them.
        std::lock_guard<std::mutex> lock(data.mutex());
        const bool stars = c->channel == PROF_CHANNEL_STARS_SOC_LOG;
        data.ExpireSyncedLocked(c->device, stars, c->channel == PROF_CHANNEL_TS_FW, flush_ns);
        if (stars) data.ExpireLostLocked(c->device, flushed_ns);
    }
    data.DrainHostQueues();
}

bool ChannelReader::LockForDrain(Channel& c) {
    if (c.read_mutex.try_lock()) return true;
    // The reader thread sees this and hands the channel over after the batch it is parsing.
    c.drainers.fetch_add(1, std::memory_order_relaxed);
    const int64_t start = SteadyNs();
    bool locked = false;
    for (;;) {
        if (c.read_mutex.try_lock()) {
            locked = true;
            break;
        }
        const int64_t now = SteadyNs();
        const int64_t in_driver_since = c.driver_since_ns.load(std::memory_order_relaxed);
        if (in_driver_since != 0 && now - in_driver_since > std::chrono::nanoseconds(kDrainPatience).count()) {
            break;  // the holder is stalled in the driver
        }
        if (now - start > std::chrono::nanoseconds(kDrainLimit).count()) break;
        std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
    c.drainers.fetch_sub(1, std::memory_order_relaxed);
    return locked;
}

uint64_t ChannelReader::DrainChannel(Channel& c) {
    if (!LockForDrain(c)) {
        MSPTI_LOGW("channel %u of device %u is being read (driver busy); its records follow later", c.channel,
                   c.device);
        return 0;
    }
    std::lock_guard<std::mutex> read(c.read_mutex, std::adopt_lock);
    uint32_t pending = 0;
    // Before the flush: every device record written by then is among what the flush reports pending.
    const uint64_t flushed_ns = host_clock::Now();
    bool flushed = false;
    auto flush = cann::halProfDataFlush.get();
    if (flush != nullptr) {
        const int rc = flush(c.device, c.channel, &pending);
        if (rc != 0) MSPTI_LOGW("halProfDataFlush(%u, %u) returned %d", c.device, c.channel, rc);
        flushed = rc == 0;
    }
    // Only what was pending at the flush is owed; a driver that cannot say gets one buffer's worth.
    const size_t owed = flushed ? pending : kReadBufferSize;
    size_t got = ReadHeld(c, owed);
    const auto patience = std::chrono::steady_clock::now() + kDrainPatience;
    while (got < pending && std::chrono::steady_clock::now() < patience) {
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
        got += ReadHeld(c, owed - got);
    }
    const auto overtime = std::chrono::steady_clock::now() + kDrainOvertime;
    while (std::chrono::steady_clock::now() < overtime && ReadHeld(c, kReadBufferSize) != 0) {}
    return flushed && got >= pending ? flushed_ns : 0;
}

size_t ChannelReader::ReadHeld(Channel& c, const size_t limit, const bool yield_to_drains) {
    auto read = cann::prof_channel_read.get();
    if (read == nullptr) return 0;
    DeviceData& data = DeviceData::Instance();
    size_t total = 0;
    for (;;) {
        c.driver_since_ns.store(SteadyNs(), std::memory_order_relaxed);
        const int n = read(c.device, c.channel, reinterpret_cast<char*>(c.buffer.data() + c.fill),
                           static_cast<unsigned>(c.buffer.size() - c.fill));
        c.driver_since_ns.store(0, std::memory_order_relaxed);
        if (n <= 0) {
            if (n < 0) MSPTI_LOGW("prof_channel_read(%u, %u) returned %d", c.device, c.channel, n);
            break;
        }
        total += static_cast<size_t>(n);
        c.fill += static_cast<size_t>(n);
        size_t used = 0;
        {
            std::lock_guard<std::mutex> lock(data.mutex());
            used = ParseLocked(c);
        }
        // Keep what is not parsed yet (a partial record, or bytes a resync must see more of).
        std::memmove(c.buffer.data(), c.buffer.data() + used, c.fill - used);
        c.fill -= used;
        if (total >= limit) break;
        if (yield_to_drains && c.drainers.load(std::memory_order_relaxed) != 0) break;  // the drain reads on
    }
    return total;
}

void ChannelReader::NoteSkipped(Channel& c, size_t bytes) {
    c.skipped += bytes;
    if (c.skip_logged) return;
    c.skip_logged = true;
    MSPTI_LOGW(
        "channel %u of device %u: records out of step (a short or garbled read); skipped %zu bytes to the next "
        "record boundary (further skips are not logged)",
        c.channel, c.device, bytes);
}

// Parses the whole records at the start of c.buffer[0, c.fill) and returns how many bytes it used.
// Records have a fixed size, so a read that returned bytes the driver never wrote, or dropped some,
// would shift every later record off its boundary. So each record's header is checked: a run of
// records that look right is parsed; a record that does not, but is followed by one that does, is a
// log of a type msPTI skips (parsed, which skips it); otherwise the parser has lost the boundary and
// skips ahead, a byte at a time, to the first place where two records in a row look right (or one,
// at the end of what was read), and counts the bytes it skipped. Their device halves are then
// counted as lost by the matchers' rules.
size_t ChannelReader::ParseLocked(Channel& c) {
    DeviceData& data = DeviceData::Instance();
    const uint32_t chip = devices::Chip(c.device);
    const size_t record = RecordSize(c.device, c.channel);
    const uint8_t* bytes = c.buffer.data();
    const size_t fill = c.fill;
    const uint64_t now_ns = host_clock::Now();
    // Within a run of records the header suffices (one check per record); a place the parser resumes
    // at after losing the boundary must have a plausible time too.
    auto looks = [&](size_t at) { return LooksLikeRecord(c.device, c.channel, bytes + at, now_ns, true); };
    auto looks_in_run = [&](size_t at) { return LooksLikeRecord(c.device, c.channel, bytes + at, now_ns, false); };
    auto parse = [&](size_t from, size_t to) {
        if (to <= from) return;
        if (c.channel == PROF_CHANNEL_TS_FW) {
            data.ParseStepTraces(c.device, chip, bytes + from, to - from);
        } else {
            data.ParseStars(c.device, chip, bytes + from, to - from);
        }
    };
    auto candidate = [&](size_t o) { return looks(o) && (o + 2 * record > fill || looks(o + record)); };
    // How near now the device times of the records from `o` on come (the nearest of up to 8 that look
    // right): a run on the boundary has logs of recent work; a run a few bytes off it reads times
    // shifted by whole bytes, far from now.
    auto run_distance = [&](size_t o) {
        uint64_t best = UINT64_MAX;
        for (size_t k = 0; k < 8 && o + (k + 1) * record <= fill && looks(o + k * record); ++k) {
            best = std::min(best, Distance(c.device, bytes + o + k * record, now_ns));
        }
        return best;
    };
    // Of the places within one record from `from` that look like a record boundary, the one whose
    // records' times come nearest now (a STARS header is short: a place a few bytes off the boundary
    // can look right too, zero padding reading as a BEGIN and the time as a shifted one).
    auto nearest = [&](size_t from) {
        size_t best_at = from;
        uint64_t best = candidate(from) ? run_distance(from) : UINT64_MAX;
        for (size_t o = from + 1; o < from + record && o + record <= fill; ++o) {
            if (!candidate(o)) continue;
            const uint64_t d = run_distance(o);
            if (d < best) {
                best = d;
                best_at = o;
            }
        }
        return best_at;
    };
    size_t run = 0;  // start of the run of records not parsed yet
    size_t at = 0;
    // A parse continues at the boundary the last one ended on. If that was a place off the boundary
    // that looked right, the records there keep looking right, with times shifted by whole bytes; so
    // once per read, when none of the first records has a time within 100 ms of now, the place is
    // checked against its neighbours, so that the parser cannot stay off the boundary.
    if (c.channel != PROF_CHANNEL_TS_FW && fill >= 2 * record && Distance(c.device, bytes, now_ns) > kPhaseCheckNs &&
        run_distance(0) > kPhaseCheckNs) {
        at = nearest(0);
        if (at != 0) NoteSkipped(c, at);
        run = at;
    }
    while (at + record <= fill) {
        if (looks_in_run(at)) {
            at += record;
            continue;
        }
        if (at + 2 * record > fill) break;  // decided when more bytes have come
        if (looks_in_run(at + record)) {
            at += 2 * record;  // a log of another type, then a good one
            continue;
        }
        parse(run, at);
        size_t next = at + 1;
        while (next + record <= fill && !candidate(next)) ++next;
        if (next + record > fill) {
            next = fill - record + 1;  // keep the last bytes: a record may start there
        } else if (c.channel != PROF_CHANNEL_TS_FW) {
            next = nearest(next);
        }
        NoteSkipped(c, next - at);
        at = next;
        run = at;
    }
    parse(run, at);
    return at;
}

void ChannelReader::Loop(uint64_t generation) {
    thread_signals::BlockAsynchronous();
    prof_poll_info_t infos[kPollBatch];
    uint64_t last_sweep = host_clock::Now();
    uint64_t last_resync = last_sweep;
    bool poll_error_logged = false;
    auto current = [&] { return generation_.load(std::memory_order_acquire) == generation; };
    while (current()) {
        auto poll = cann::prof_channel_poll.get();
        if (poll == nullptr) {
            MSPTI_LOGE("prof_channel_poll unavailable: no device data");
            break;
        }
        const auto polled_at = std::chrono::steady_clock::now();
        const int n = poll(infos, kPollBatch, kPollTimeoutSec);
        if (!current()) break;
        if (n < 0) {
            // A failing poll (e.g. no channel open yet) is retried rather than ending collection for good.
            if (!poll_error_logged) MSPTI_LOGW("prof_channel_poll returned %d; retrying", n);
            poll_error_logged = true;
            std::this_thread::sleep_for(std::chrono::milliseconds(n == PROF_STOPPED_ALREADY ? 1 : 20));
            continue;
        }
        poll_error_logged = false;
        size_t got = 0;
        for (int i = 0; i < n && i < kPollBatch; ++i) {
            std::shared_ptr<Channel> c = Find(infos[i].device_id, infos[i].channel_id);
            if (!c || c->drainers.load(std::memory_order_relaxed) != 0) continue;  // a drain reads it
            std::lock_guard<std::mutex> read(c->read_mutex);
            got += ReadHeld(*c, kReaderPassLimit, /*yield_to_drains=*/true);
        }
        if (got == 0 && std::chrono::steady_clock::now() - polled_at < std::chrono::milliseconds(1)) {
            // A driver that does not block in poll must not make this thread spin.
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        } else if (got > 0 && got < kLargeRead) {
            std::this_thread::sleep_for(kGatherPause);
        }
        const uint64_t now = host_clock::Now();
        const bool sweep = now - last_sweep > kSweepPeriodNs;
        const bool resync = now - last_resync > kResyncPeriodNs;
        if (!sweep && !resync) continue;
        // Announced before the generation is checked (both sequentially consistent, as in
        // RetireThread), so that a retiring thread either sees this work and waits for it or this
        // thread sees the retirement and leaves: the process may be exiting, and the driver's state
        // with it, once Unsubscribe returned.
        housekeeping_.fetch_add(1, std::memory_order_seq_cst);
        if (!current()) {
            housekeeping_.fetch_sub(1, std::memory_order_seq_cst);
            break;
        }
        if (sweep) {
            last_sweep = now;
            std::lock_guard<std::mutex> lock(DeviceData::Instance().mutex());
            DeviceData::Instance().SweepLocked(now);
        }
        if (resync) {
            last_resync = now;
            host_time::Resync();
            device_time::ResyncAll();
        }
        housekeeping_.fetch_sub(1, std::memory_order_seq_cst);
    }
}

void ChannelReader::RetireThread() {
    {
        std::lock_guard<std::mutex> lock(thread_mutex_);
        generation_.store(0, std::memory_order_seq_cst);
        restart_after_fork_ = false;
    }
    // A reader in its periodic work (sweep, clock resync: short, but the resync asks the driver)
    // is waited for, up to the drain's patience, so that it does not touch the driver after
    // Unsubscribe returned; a reader inside a driver poll or read is not (it may be stalled).
    const auto deadline = std::chrono::steady_clock::now() + kDrainPatience;
    while (housekeeping_.load(std::memory_order_seq_cst) != 0 && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::microseconds(100));
    }
}

// Runs in the forked child (one thread) with the device-data mutex held by the forking thread, so
// channels_ is consistent; a channel's read lock may be held by the parent's reader, which is gone.
void ChannelReader::ChildAfterFork() {
    new (&thread_mutex_) std::mutex();
    for (auto& entry : channels_) {
        Channel& c = *entry.second;
        // Held: the parent's reader was between a read and its parse; those bytes are the parent's.
        if (!c.read_mutex.try_lock()) c.fill = 0;
        new (&c.read_mutex) std::mutex();
    }
    restart_after_fork_ = generation_.load(std::memory_order_relaxed) != 0;
    generation_.store(0, std::memory_order_relaxed);
    housekeeping_.store(0, std::memory_order_relaxed);  // the parent's reader does not exist here
}

}  // namespace mspti::seam
