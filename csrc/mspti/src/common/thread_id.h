// The OS thread id (gettid) of the calling thread, cached per thread so that
// records and reports do not cost a system call each.
#pragma once

#include <atomic>
#include <cstdint>

#include "common/hot_tls.h"

namespace mspti {

namespace detail {
// The cached ids (0: not known yet); inline readers, since every report asks (thread_id.cpp fills
// them, and forgets them in a forked child). Inline variables with constant initialisers, so that a
// read needs no TLS wrapper call.
MSPTI_HOT_TLS inline thread_local uint32_t t_tid = 0;
inline std::atomic<uint32_t> g_pid{0};
[[gnu::noinline]] uint32_t RefreshThreadId();
[[gnu::noinline]] uint32_t RefreshProcessId();
}  // namespace detail

inline uint32_t CurrentThreadId() {
    const uint32_t tid = detail::t_tid;
    return tid != 0 ? tid : detail::RefreshThreadId();
}
inline uint32_t CurrentProcessId() {
    const uint32_t pid = detail::g_pid.load(std::memory_order_relaxed);
    return pid != 0 ? pid : detail::RefreshProcessId();
}

// The same, without a system call: 0 while not known yet (for paths that must not call out).
inline uint32_t CachedThreadId() { return detail::t_tid; }
inline uint32_t CachedProcessId() { return detail::g_pid.load(std::memory_order_relaxed); }

}  // namespace mspti
