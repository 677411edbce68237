#include "common/host_clock.h"

#include <time.h>

#include <atomic>

namespace mspti::host_clock {
namespace {

uint64_t ReadClock(clockid_t id) {
    timespec ts{};
    clock_gettime(id, &ts);
    return static_cast<uint64_t>(ts.tv_sec) * 1000000000ULL + static_cast<uint64_t>(ts.tv_nsec);
}

uint64_t SystemRealtime() { return ReadClock(CLOCK_REALTIME); }
uint64_t SystemMonoRaw() { return ReadClock(CLOCK_MONOTONIC_RAW); }

uint64_t SystemCounter() {
#if defined(__x86_64__) || defined(__i386__)
    uint32_t lo = 0;
    uint32_t hi = 0;
    __asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
    return (static_cast<uint64_t>(hi) << 32) | lo;
#elif defined(__aarch64__)
    uint64_t v = 0;
    __asm__ __volatile__("mrs %0, cntvct_el0" : "=r"(v));
    return v;
#else
    return SystemMonoRaw();
#endif
}

constexpr Source kSystem{&SystemRealtime, &SystemMonoRaw, &SystemCounter};

std::atomic<const Source*> g_source{&kSystem};
std::atomic<uint64_t (*)()> g_client_clock{nullptr};

int64_t MeasureOffset() {
    const Source* s = g_source.load(std::memory_order_acquire);
    // The midpoint of two monotonic reads around the realtime read keeps the error
    // at half the read latency.
    uint64_t (*const client)() = g_client_clock.load(std::memory_order_acquire);
    const uint64_t m0 = s->monoraw_ns();
    const uint64_t r = client != nullptr ? client() : s->realtime_ns();
    const uint64_t m1 = s->monoraw_ns();
    const uint64_t m = m0 + (m1 - m0) / 2;
    return static_cast<int64_t>(r - m);
}

}  // namespace

std::atomic<int64_t> detail::g_offset{0};
std::atomic<bool> detail::g_offset_valid{false};

const Source& SystemSource() { return kSystem; }

void SetSource(const Source* source) {
    g_source.store(source != nullptr ? source : &kSystem, std::memory_order_release);
    Resync();
}

uint64_t RealtimeNs() { return g_source.load(std::memory_order_acquire)->realtime_ns(); }
uint64_t MonoRawNs() { return g_source.load(std::memory_order_acquire)->monoraw_ns(); }
uint64_t Counter() { return g_source.load(std::memory_order_acquire)->counter(); }

uint64_t Now() { return FromMonoRaw(MonoRawNs()); }

void SetClientClock(uint64_t (*clock)()) {
    g_client_clock.store(clock, std::memory_order_release);
    Resync();
}

uint64_t (*ClientClock())() { return g_client_clock.load(std::memory_order_acquire); }

void Resync() {
    detail::g_offset.store(MeasureOffset(), std::memory_order_relaxed);
    detail::g_offset_valid.store(true, std::memory_order_release);
}

}  // namespace mspti::host_clock
