// The one way a simulated library answers a call it does not support: it returns the library's
// documented "not supported" code and logs one warning line per process and call site (the site's
// `once` flag), naming the function, the reason and the code.
#pragma once

#include <atomic>
#include <type_traits>

#include "core/log.h"

namespace npusim {

template <typename Code>
Code unsupported(std::atomic<bool>& once, const char* function, const char* reason, Code code) {
    if (!once.exchange(true, std::memory_order_relaxed)) {
        if constexpr (std::is_pointer_v<Code>) {
            log_message(LogLevel::Warn, "%s is not supported by the simulator (%s); it returns NULL", function, reason);
        } else {
            log_message(LogLevel::Warn, "%s is not supported by the simulator (%s); it returns %lld", function, reason,
                        static_cast<long long>(code));
        }
    }
    return code;
}

}  // namespace npusim

// Returns `code` from the enclosing function, logging once per process for this call site.
#define NPUSIM_RETURN_UNSUPPORTED(reason, code)                                         \
    do {                                                                                \
        static std::atomic<bool> npusim_unsupported_once_{false};                       \
        return ::npusim::unsupported(npusim_unsupported_once_, __func__, reason, code); \
    } while (0)
