// libc_sec: the bounds-checked string and memory functions CANN programs link against (securec.h).
#include "securec.h"

#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstring>

#include "core/export.h"

namespace {
constexpr int kEok = 0;
constexpr int kErange = 34;
constexpr int kEinvalAndReset = 22 | 128;
constexpr int kErangeAndReset = 34 | 128;
constexpr int kEoverlapAndReset = 54 | 128;
constexpr size_t kMaxSize = 0x7fffffffUL;

bool overlaps(const void* a, size_t alen, const void* b, size_t blen) {
    const char* pa = static_cast<const char*>(a);
    const char* pb = static_cast<const char*>(b);
    return pa < pb + blen && pb < pa + alen;
}
}  // namespace

NPUSIM_C_EXPORT int memcpy_s(void* dest, size_t destMax, const void* src, size_t count) {
    if (dest == nullptr || destMax == 0 || destMax > kMaxSize) return kErange;
    if (src == nullptr) {
        std::memset(dest, 0, destMax);
        return kEinvalAndReset;
    }
    if (count > destMax) {
        std::memset(dest, 0, destMax);
        return kErangeAndReset;
    }
    if (overlaps(dest, count, src, count)) {
        std::memset(dest, 0, destMax);
        return kEoverlapAndReset;
    }
    std::memcpy(dest, src, count);
    return kEok;
}

NPUSIM_C_EXPORT int memmove_s(void* dest, size_t destMax, const void* src, size_t count) {
    if (dest == nullptr || destMax == 0 || destMax > kMaxSize) return kErange;
    if (src == nullptr) return kEinvalAndReset;
    if (count > destMax) return kErangeAndReset;
    std::memmove(dest, src, count);
    return kEok;
}

NPUSIM_C_EXPORT int memset_s(void* dest, size_t destMax, int c, size_t count) {
    if (dest == nullptr || destMax == 0 || destMax > kMaxSize) return kErange;
    if (count > destMax) {
        std::memset(dest, c, destMax);
        return kErangeAndReset;
    }
    std::memset(dest, c, count);
    return kEok;
}

NPUSIM_C_EXPORT int strcpy_s(char* dest, size_t destMax, const char* src) {
    if (dest == nullptr || destMax == 0 || destMax > kMaxSize) return kErange;
    if (src == nullptr) {
        dest[0] = '\0';
        return kEinvalAndReset;
    }
    const size_t len = std::strlen(src);
    if (len >= destMax) {
        dest[0] = '\0';
        return kErangeAndReset;
    }
    std::memcpy(dest, src, len + 1);
    return kEok;
}

NPUSIM_C_EXPORT int strncpy_s(char* dest, size_t destMax, const char* src, size_t count) {
    if (dest == nullptr || destMax == 0 || destMax > kMaxSize) return kErange;
    if (src == nullptr) {
        dest[0] = '\0';
        return kEinvalAndReset;
    }
    const size_t len = strnlen(src, count);
    if (len >= destMax) {
        dest[0] = '\0';
        return kErangeAndReset;
    }
    std::memcpy(dest, src, len);
    dest[len] = '\0';
    return kEok;
}

NPUSIM_C_EXPORT int strcat_s(char* dest, size_t destMax, const char* src) {
    if (dest == nullptr || destMax == 0 || destMax > kMaxSize) return kErange;
    if (src == nullptr) return kEinvalAndReset;
    const size_t have = strnlen(dest, destMax);
    const size_t add = std::strlen(src);
    if (have == destMax || have + add >= destMax) {
        dest[0] = '\0';
        return kErangeAndReset;
    }
    std::memcpy(dest + have, src, add + 1);
    return kEok;
}

NPUSIM_C_EXPORT int strncat_s(char* dest, size_t destMax, const char* src, size_t count) {
    if (dest == nullptr || destMax == 0 || destMax > kMaxSize) return kErange;
    if (src == nullptr) {
        dest[0] = '\0';
        return kEinvalAndReset;
    }
    const size_t have = strnlen(dest, destMax);
    const size_t add = strnlen(src, count);
    if (have == destMax || have + add >= destMax) {
        dest[0] = '\0';
        return kErangeAndReset;
    }
    std::memcpy(dest + have, src, add);
    dest[have + add] = '\0';
    return kEok;
}

NPUSIM_C_EXPORT char* strtok_s(char* token, const char* delimit, char** context) {
    if (delimit == nullptr || context == nullptr) return nullptr;
    if (token == nullptr && *context == nullptr) return nullptr;
    return strtok_r(token, delimit, context);
}

NPUSIM_C_EXPORT int vsnprintf_s(char* dest, size_t destMax, size_t count, const char* format, va_list args) {
    if (dest == nullptr || format == nullptr || destMax == 0 || destMax > kMaxSize) return -1;
    const size_t limit = count < destMax ? count + 1 : destMax;
    const int n = std::vsnprintf(dest, limit, format, args);
    if (n < 0 || static_cast<size_t>(n) >= limit) return -1;
    return n;
}

NPUSIM_C_EXPORT int vsprintf_s(char* dest, size_t destMax, const char* format, va_list args) {
    if (destMax == 0) return -1;
    return vsnprintf_s(dest, destMax, destMax - 1, format, args);
}

NPUSIM_C_EXPORT int snprintf_s(char* dest, size_t destMax, size_t count, const char* format, ...) {
    va_list args;
    va_start(args, format);
    const int n = vsnprintf_s(dest, destMax, count, format, args);
    va_end(args);
    return n;
}

NPUSIM_C_EXPORT int sprintf_s(char* dest, size_t destMax, const char* format, ...) {
    va_list args;
    va_start(args, format);
    const int n = vsprintf_s(dest, destMax, format, args);
    va_end(args);
    return n;
}
