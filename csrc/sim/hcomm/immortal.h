// Process-lifetime registries of libhcomm (communicator handles, hosted rendezvous).
//
// Ranks may use or destroy communicators from atexit handlers and from threads that outlive
// main(), and rendezvous threads run until the process ends, so these registries are built in
// place on first use and never destroyed (no atexit destructor runs).
#pragma once

#include <new>

namespace npusim::hcomm {

template <typename T>
class Immortal {
public:
    Immortal() { ::new (static_cast<void*>(storage_)) T(); }
    Immortal(const Immortal&) = delete;
    Immortal& operator=(const Immortal&) = delete;
    T& get() { return *std::launder(reinterpret_cast<T*>(storage_)); }

private:
    alignas(T) unsigned char storage_[sizeof(T)];
};

}  // namespace npusim::hcomm
