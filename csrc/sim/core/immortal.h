// Process-lifetime state of the simulated CANN libraries.
//
// CANN components and profilers call in from atexit handlers, from static destructors and from
// threads that go on running while another thread calls exit() (launching threads, rendezvous
// threads, a profiler's reader). State they reach must stay usable until the process is gone. An
// Immortal<T> constructs its T in place (on first use, as a function-local static) and never runs
// its destructor: it registers no atexit handler, so exit() destroys nothing another thread may
// still read. The one holder of this kind for every library of the simulator (libnpusim,
// libascendcl, libprofapi, libhcomm/libhccl, libnnopbase/libopapi, libhixl).
#pragma once

#include <new>
#include <utility>

namespace npusim {

template <typename T>
class Immortal {
public:
    template <typename... Args>
    explicit Immortal(Args&&... args) {
        ::new (static_cast<void*>(storage_)) T(std::forward<Args>(args)...);
    }
    Immortal(const Immortal&) = delete;
    Immortal& operator=(const Immortal&) = delete;
    // Deliberately no destructor call for T.

    T& get() { return *std::launder(reinterpret_cast<T*>(storage_)); }

private:
    alignas(T) unsigned char storage_[sizeof(T)];
};

}  // namespace npusim
