// C++17 view of the public headers: the same layout assertions, plus alignment and C linkage.
#include <cstdio>
#include <type_traits>

#include "layout_check.h"

static_assert(alignof(msptiActivityMarker) == 8, "records are 8-aligned");
static_assert(alignof(msptiActivityCommunication) == 8, "records are 8-aligned");
static_assert(std::is_standard_layout<msptiActivityKernel>::value, "records are standard layout");
static_assert(std::is_trivially_copyable<msptiActivityMemory>::value, "records are trivially copyable");

extern "C" {
// Redeclaring with C linkage must agree with the header's declarations.
msptiResult msptiActivityFlushAll(uint32_t flag);
}

int main() {
    std::printf("%s\n", msptiResultGetString(MSPTI_ERROR_QUEUE_EMPTY));
    return msptiActivityFlushAll(0) == MSPTI_SUCCESS ? 0 : 1;
}
