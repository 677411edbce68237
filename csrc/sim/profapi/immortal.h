// Process-lifetime state of libprofapi.
//
// CANN components report from static destructors and from threads that outlive
// main(), so the hub's state must still be usable while the process exits. An
// Immortal<T> constructs its T in place on first use and never runs its
// destructor (it registers no atexit handler), which gives exactly that.
#pragma once

#include <new>
#include <utility>

namespace npusim::profapi {

template <typename T>
class Immortal {
public:
    template <typename... Args>
    explicit Immortal(Args&&... args) {
        ::new (static_cast<void*>(storage_)) T(std::forward<Args>(args)...);
    }
    Immortal(const Immortal&) = delete;
    Immortal& operator=(const Immortal&) = delete;

    T& get() { return *std::launder(reinterpret_cast<T*>(storage_)); }

private:
    alignas(T) unsigned char storage_[sizeof(T)];
};

}  // namespace npusim::profapi
