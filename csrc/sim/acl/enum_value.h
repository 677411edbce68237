// Caller-supplied enums as plain integers. A C caller may pass any int where
// an ACL enum is expected (an unknown kind, attribute, option...), but in C++
// loading an enum object whose value is outside the enumeration's range is
// undefined, so the runtime reads such arguments through their bytes and
// compares integers.
#pragma once

#include <cstdint>
#include <cstring>

namespace acl {

template <typename E>
inline int32_t raw_value(const E& e) {
    static_assert(sizeof(E) == sizeof(int32_t), "ACL enums are int-sized");
    int32_t v;
    std::memcpy(&v, &e, sizeof v);
    return v;
}

}  // namespace acl
