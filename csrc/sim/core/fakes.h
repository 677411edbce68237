// Fakes: replace the behaviour of an exported simulator function from a test, in-process.
//
// A fake is consulted by the function's fault point (core/fault_plan.h), on its slow path only:
// while no fake, no plan and no call counting is installed, a fault point stays one relaxed load
// and a branch. A fake acts on the calls after the first `after` ones, on at most `times` of them
// (0: all), and then either returns `code` without running the function (`replace_code`), or hands
// the call to the hook the Python bindings installed (`hooked`: a Python callable, out-parameters),
// which says whether the call was replaced and with which result. `observe` gives the hook every
// call, acted on or not (expectations record the calls they check).
//
// Thread safety: the registry has its own lock, never held while the hook runs, so a hook may call
// any simulator function, faked or not. A fake's counts are taken under that lock.
//
// In-process only: a forked child starts with no fakes (pthread_atfork), and a process started
// from this one gets none (fakes are memory, not environment).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/export.h"
#include "core/fault_plan.h"

namespace npusim {

struct FakeBehaviour {
    bool replace_code = false;
    int64_t code = 0;
    bool hooked = false;
    bool observe = false;
    uint64_t after = 0;
    uint64_t times = 0;  // 0: no limit
};

struct FakeCallInfo {
    const char* function;
    uint64_t fake_id;  // the installation this call belongs to (install_fake's result)
    uint64_t call;     // 1-based, counted from the installation
    bool acting;       // within after/times: the fake's behaviour applies
    const uint64_t* args;  // the arguments as words (fake_word); null for functions not decoded
    size_t argc;
};

// Runs a hooked call. Returns true when the call is replaced; *result is then its return value.
using FakeHook = bool (*)(const FakeCallInfo& call, int64_t* result);

struct FakeCounts {
    uint64_t calls = 0;  // calls since the fake was installed
    uint64_t acted = 0;  // calls its behaviour applied to
    bool installed = false;
};

NPUSIM_API void set_fake_hook(FakeHook hook);
// Installs (or replaces) the fake of `function`; returns its installation id (never 0).
NPUSIM_API uint64_t install_fake(const std::string& function, const FakeBehaviour& behaviour);
NPUSIM_API bool remove_fake(const std::string& function);
NPUSIM_API void clear_fakes();
NPUSIM_API FakeCounts fake_counts(const std::string& function);
NPUSIM_API std::vector<std::string> faked_functions();

// The names of every exported function with a fault point, and of the decoded ones (whose fault
// point passes its arguments) with how many arguments they pass, scanned from the sources at build
// time (core/scan_fault_points.cmake).
NPUSIM_API const std::vector<std::string>& fault_point_functions();
NPUSIM_API const std::vector<std::pair<std::string, size_t>>& decoded_functions();

}  // namespace npusim
