// Process-lifetime storage for libnnopbase / libopapi state: constructed on first
// use, never destroyed, so that programs may still run operators from atexit
// handlers and late threads.
#pragma once

#include <new>
#include <utility>

namespace npusim::nn {

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

}  // namespace npusim::nn
