// Storage for process-wide state that must outlive every static destructor:
// profilers flush from atexit handlers and late threads may still call in.
#pragma once

#include <new>
#include <utility>

namespace acl {

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

}  // namespace acl
