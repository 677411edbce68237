// Process-lifetime singletons.
//
// msPTI state is reached from application threads, CANN callbacks and our own
// threads until the very end of the process (atexit handlers, thread-local
// destructors of exiting threads, a reader thread blocked in the driver). A
// singleton that is destroyed during exit would be used after destruction, so
// the state objects live in static storage and are never destroyed.
#pragma once

#include <new>
#include <utility>

namespace mspti {

template <typename T>
class NoDestructor {
public:
    template <typename... Args>
    explicit NoDestructor(Args&&... args) {
        new (storage_) T(std::forward<Args>(args)...);
    }
    NoDestructor(const NoDestructor&) = delete;
    NoDestructor& operator=(const NoDestructor&) = delete;
    ~NoDestructor() = default;  // deliberately leaves T alive

    T& get() { return *std::launder(reinterpret_cast<T*>(storage_)); }
    T* operator->() { return &get(); }

private:
    alignas(T) unsigned char storage_[sizeof(T)];
};

}  // namespace mspti
