// msPTI's own threads (delivery, flush period, channel reader) take no asynchronous signal: a
// signal sent to the process (SIGTERM, SIGINT, ...) is then handled on one of the application's
// threads, never inside msPTI's delivery, where a handler that calls exit() would wait for the
// delivery it interrupted. Signals a thread raises by its own fault (SIGSEGV, SIGBUS, SIGFPE,
// SIGILL, SIGTRAP, SIGSYS, SIGABRT) stay unblocked.
#pragma once

#include <pthread.h>
#include <signal.h>

namespace mspti::thread_signals {

// Called first thing on each of msPTI's threads.
inline void BlockAsynchronous() {
    sigset_t set;
    sigfillset(&set);
    for (int synchronous : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGSYS, SIGABRT}) sigdelset(&set, synchronous);
    pthread_sigmask(SIG_BLOCK, &set, nullptr);
}

}  // namespace mspti::thread_signals
