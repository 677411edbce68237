// Process-lifetime singletons.
//
// msPTI state is reached from application threads, CANN callbacks and our own
// threads until the very end of the process (atexit handlers, thread-local
// destructors of exiting threads, a reader thread blocked in the driver). A
// singleton that is destroyed during exit would be used after destruction, so
// the state objects live in static storage and are never destroyed.
#pragma once

#include <atomic>
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

// A NoDestructor singleton for hot paths. A function-local static costs a guard check, and gcc then
// saves registers for the guarded construction on every call; here every call after the first is one
// acquire load and the construction is out of line. Declare it at namespace scope: it is
// constant-initialised, so it is usable before, during and after static initialisation. One per type:
// every LazyInstance<T> shares the same object.
template <typename T>
class LazyInstance {
public:
    constexpr LazyInstance() = default;
    LazyInstance(const LazyInstance&) = delete;
    LazyInstance& operator=(const LazyInstance&) = delete;

    T& get() {
        T* object = object_.load(std::memory_order_acquire);
        return object != nullptr ? *object : Create();
    }
    // The object if made already, else nullptr (for paths that must not call out).
    T* IfCreated() const { return object_.load(std::memory_order_acquire); }

private:
    [[gnu::noinline]] T& Create() {
        static NoDestructor<T> object;  // thread-safe construction, once
        object_.store(&object.get(), std::memory_order_release);
        return object.get();
    }

    std::atomic<T*> object_{nullptr};
};

}  // namespace mspti
