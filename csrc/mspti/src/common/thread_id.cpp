#include "common/thread_id.h"

#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>

#include "common/hot_tls.h"

namespace mspti {
namespace {

// The cached id of the calling thread (0: not known yet); initial-exec, read on every report.
MSPTI_HOT_TLS thread_local uint32_t t_tid = 0;
std::atomic<uint32_t> g_pid{0};

// A forked child's only thread is the one that called fork(), and it kept the parent's cached id:
// the child handler forgets it (and the process id) on that thread.
void OnForkChild() {
    t_tid = 0;
    g_pid.store(static_cast<uint32_t>(getpid()), std::memory_order_relaxed);
}

struct ForkHook {
    ForkHook() {
        g_pid.store(static_cast<uint32_t>(getpid()), std::memory_order_relaxed);
        pthread_atfork(nullptr, nullptr, &OnForkChild);
    }
};
ForkHook g_fork_hook;

// Out of line, so that the cached path sets up no frame for the system call.
[[gnu::noinline]] uint32_t Refresh() {
    t_tid = static_cast<uint32_t>(syscall(SYS_gettid));
    return t_tid;
}

}  // namespace

uint32_t CurrentThreadId() {
    const uint32_t tid = t_tid;
    return tid != 0 ? tid : Refresh();
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
