#include "common/thread_id.h"

#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>

namespace mspti {
namespace {

// A forked child keeps the parent's thread-local copies, so a fork generation
// invalidates the cached ids in the child.
std::atomic<uint32_t> g_fork_generation{0};
std::atomic<uint32_t> g_pid{0};

void OnForkChild() {
    g_fork_generation.fetch_add(1, std::memory_order_relaxed);
    g_pid.store(static_cast<uint32_t>(getpid()), std::memory_order_relaxed);
}

struct ForkHook {
    ForkHook() {
        g_pid.store(static_cast<uint32_t>(getpid()), std::memory_order_relaxed);
        pthread_atfork(nullptr, nullptr, &OnForkChild);
    }
};
ForkHook g_fork_hook;

// One thread-local object (one TLS access per call).
struct CachedTid {
    uint32_t tid;
    uint32_t generation;
};
thread_local CachedTid t_cached{0, UINT32_MAX};

// Out of line, so that the cached path sets up no frame for the system call.
[[gnu::noinline]] uint32_t Refresh(CachedTid& cached, uint32_t generation) {
    cached.tid = static_cast<uint32_t>(syscall(SYS_gettid));
    cached.generation = generation;
    return cached.tid;
}

}  // namespace

uint32_t CurrentThreadId() {
    CachedTid& cached = t_cached;
    const uint32_t current = g_fork_generation.load(std::memory_order_relaxed);
    return cached.generation == current ? cached.tid : Refresh(cached, current);
}

uint32_t CurrentProcessId() {
    uint32_t pid = g_pid.load(std::memory_order_relaxed);
    if (pid == 0) {
        pid = static_cast<uint32_t>(getpid());
        g_pid.store(pid, std::memory_order_relaxed);
    }
    return pid;
}

}  // namespace mspti
