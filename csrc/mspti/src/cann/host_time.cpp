#include "cann/host_time.h"

#include <atomic>
#include <mutex>

#include "common/host_clock.h"
#include "common/hot_tls.h"
#include "common/log.h"
#include "common/no_destructor.h"
#include "common/seqlock.h"
#include "cann/cann_api.h"

namespace mspti::seam::host_time {
namespace {

struct CounterReference {
    uint64_t record_ns;   // records' time base at the reference
    uint64_t counter;     // host counter at the reference
    uint64_t freq_per_ms; // counts per millisecond
    uint64_t valid;
};

struct State {
    std::once_flag once;
    bool enabled = false;
    uint64_t freq = 0;
    std::mutex write_mutex;
    SeqLock<CounterReference> reference;
};

State& GetState() {
    static NoDestructor<State> state;
    return state.get();
}

void Decide(State& s) {
    int32_t version = 0;
    auto get_version = cann::halGetAPIVersion.get();
    if (get_version == nullptr || get_version(&version) != DRV_ERROR_NONE || version < SEAM_HAL_HOST_FREQ_API_VERSION) {
        return;
    }
    int64_t freq = 0;
    auto info = cann::halGetDeviceInfo.get();
    if (info == nullptr || info(0, MODULE_TYPE_SYSTEM, INFO_TYPE_HOST_OSC_FREQUE, &freq) != DRV_ERROR_NONE ||
        freq <= 0) {
        return;
    }
    s.enabled = true;
    s.freq = static_cast<uint64_t>(freq);
    MSPTI_LOGI("host-frequency mode on, %llu counts/ms", static_cast<unsigned long long>(freq));
}

void MeasureCounter(State& s) {
    std::lock_guard<std::mutex> lock(s.write_mutex);
    const uint64_t c0 = host_clock::Counter();
    const uint64_t now = host_clock::Now();
    const uint64_t c1 = host_clock::Counter();
    s.reference.Store(CounterReference{now, c0 + (c1 - c0) / 2, s.freq, 1});
}

}  // namespace

std::atomic<int> detail::g_decided{0};

bool detail::DecideHostFreq() {
    State& s = GetState();
    std::call_once(s.once, [&s] {
        Decide(s);
        if (s.enabled) MeasureCounter(s);
        g_decided.store(s.enabled ? 2 : 1, std::memory_order_release);
    });
    return s.enabled;
}

// Host-frequency mode: counter ticks to the records' time base.
uint64_t detail::CounterToRecordTime(uint64_t counter) {
    const CounterReference ref = GetState().reference.Load();
    const auto delta = static_cast<__int128>(counter) - static_cast<__int128>(ref.counter);
    return static_cast<uint64_t>(static_cast<__int128>(ref.record_ns) +
                                 delta * 1000000 / static_cast<__int128>(ref.freq_per_ms));
}

uint64_t CannNow() { return HostFreqEnabled() ? host_clock::Counter() : host_clock::MonoRawNs(); }

namespace {

uint64_t CannClock() {
    auto now = cann::MsprofSysCycleTime.get();
    return now != nullptr ? now() : 0;
}

// CANN's clock as msPTI's monotonic source. A reading of 0 is a failed one (CANN's clock is far
// above 0 once it has been adopted): msPTI's matching rules order and age work by these times, so
// a 0 would make work look issued before every synchronisation and long lost. A failed reading
// is taken once more; if that fails too, the thread's latest good reading (or, for a thread that
// has none, the one taken when the clock was adopted) stands in for it: late, never 0, never
// behind what the thread saw.
uint64_t (*g_cann_clock)() = nullptr;
std::atomic<uint64_t> g_adopted_at{0};
MSPTI_HOT_TLS thread_local uint64_t t_last_good = 0;

[[gnu::noinline, gnu::cold]] uint64_t CannClockFailed() {
    const uint64_t again = g_cann_clock();
    if (again != 0) {
        t_last_good = again;
        return again;
    }
    const uint64_t adopted = g_adopted_at.load(std::memory_order_relaxed);
    return t_last_good > adopted ? t_last_good : adopted;
}

uint64_t CannClockReading() {
    const uint64_t now = g_cann_clock();
    if (__builtin_expect(now == 0, 0)) return CannClockFailed();
    t_last_good = now;
    return now;
}

}  // namespace

void UseCannClock() {
    static std::once_flag once;
    std::call_once(once, [] {
        if (HostFreqEnabled() || !cann::MsprofSysCycleTime) return;
        const uint64_t first = CannClock();
        if (first == 0) return;
        // CANN's function itself, resolved once: a host timestamp is then one indirect call (and a
        // compare: CannClockReading).
        g_cann_clock = cann::MsprofSysCycleTime.get();
        g_adopted_at.store(first, std::memory_order_relaxed);
        static const host_clock::Source source{host_clock::SystemSource().realtime_ns, &CannClockReading,
                                               host_clock::SystemSource().counter};
        host_clock::SetSource(&source);
    });
}

void Resync() {
    host_clock::Resync();
    if (HostFreqEnabled()) MeasureCounter(GetState());
}

}  // namespace mspti::seam::host_time
