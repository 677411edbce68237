// Access to the CANN libraries: msPTI reaches CANN only through dlopen of the
// five library names below and dlsym of the functions it needs, so the same
// binary works against any CANN installation (or the simulator).
//
// A library is opened on first use, from $ASCEND_HOME_PATH/lib64/<name> when
// that file is readable, else by bare name (loader search path). A missing
// library or symbol is not an error here: callers get nullptr and decide.
#pragma once

#include <atomic>
#include <cstdint>

namespace mspti::seam {

enum class CannLibrary : uint8_t { kHal = 0, kAlog, kAcl, kHccl, kProfapi, kCount };

const char* LibraryName(CannLibrary lib);

// The handle of a library (opened once), or nullptr if it cannot be loaded.
void* LibraryHandle(CannLibrary lib);

// dlsym on the library's own handle, so an interposed wrapper of ours is never
// returned for the real function.
void* LibrarySymbol(CannLibrary lib, const char* name);

// One CANN function, resolved on first use and cached. Constant-initialised, so
// instances can be namespace-scope objects used before any constructor runs.
template <typename Fn>
class CannFunction {
public:
    constexpr CannFunction(CannLibrary lib, const char* name) : lib_(lib), name_(name) {}

    // The function pointer, or nullptr when the library or symbol is missing.
    Fn get() const {
        uintptr_t p = resolved_.load(std::memory_order_acquire);
        if (p == kUnresolved) p = Resolve();
        return reinterpret_cast<Fn>(p);
    }
    explicit operator bool() const { return get() != nullptr; }
    const char* name() const { return name_; }

    // The library's own function, whatever get() returns.
    Fn original() const {
        get();
        return reinterpret_cast<Fn>(original_.load(std::memory_order_acquire));
    }
    // Makes get() return `to` (a function that calls original()) until Restore(). For the rare
    // modes that need work around every call (interpose/report_route.h): a wrapper pays nothing
    // for them, since it loads the pointer anyway. Does nothing while the library lacks the symbol.
    void Redirect(Fn to) const {
        if (original() != nullptr) resolved_.store(reinterpret_cast<uintptr_t>(to), std::memory_order_release);
    }
    void Restore() const { resolved_.store(original_.load(std::memory_order_acquire), std::memory_order_release); }

private:
    static constexpr uintptr_t kUnresolved = 1;
    // Out of line: the callers' common path sets up no frame for it.
    [[gnu::noinline]] uintptr_t Resolve() const {
        const auto p = reinterpret_cast<uintptr_t>(LibrarySymbol(lib_, name_));
        original_.store(p, std::memory_order_release);
        uintptr_t expected = kUnresolved;
        // A Redirect made meanwhile stays in place.
        if (!resolved_.compare_exchange_strong(expected, p, std::memory_order_acq_rel)) return expected;
        return p;
    }

    CannLibrary lib_;
    const char* name_;
    mutable std::atomic<uintptr_t> resolved_{kUnresolved};
    mutable std::atomic<uintptr_t> original_{0};
};

}  // namespace mspti::seam
