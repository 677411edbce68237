#include "common/thread_id.h"

#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace mspti {

namespace {

// A forked child's only thread is the one that called fork(), and it kept the parent's cached id:
// the child handler forgets it (and the process id) on that thread.
void OnForkChild() {
    detail::t_tid = 0;
    detail::g_pid.store(static_cast<uint32_t>(getpid()), std::memory_order_relaxed);
}

struct ForkHook {
    ForkHook() {
        detail::g_pid.store(static_cast<uint32_t>(getpid()), std::memory_order_relaxed);
        pthread_atfork(nullptr, nullptr, &OnForkChild);
    }
};
ForkHook g_fork_hook;

}  // namespace

// Out of line, so that the cached paths set up no frame for the system calls.
uint32_t detail::RefreshThreadId() {
    t_tid = static_cast<uint32_t>(syscall(SYS_gettid));
    return t_tid;
}

uint32_t detail::RefreshProcessId() {
    const auto pid = static_cast<uint32_t>(getpid());
    g_pid.store(pid, std::memory_order_relaxed);
    return pid;
}

}  // namespace mspti
