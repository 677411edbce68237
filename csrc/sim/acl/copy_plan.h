// Validation and cost of copies: which side of a copy must be device memory,
// checking each side against the memory registry, and the modelled duration.
#pragma once

#include <cstddef>
#include <cstdint>

#include "acl/acl.h"
#include "core/device.h"

namespace acl {

enum class Side : uint8_t { Host, Device };
enum class CopyPath : uint8_t { HostOnly, HostLink, DeviceLocal };

struct CopyPlan {
    Side src = Side::Host;
    Side dst = Side::Host;
    CopyPath path = CopyPath::HostOnly;
    int64_t device = -1;  // device of the device-side memory, -1 for host-to-host
};

// Decides the sides of a copy of the given kind; DEFAULT asks the registry. An
// unknown kind is ACL_ERROR_INVALID_PARAM.
aclError plan_copy(const void* dst, const void* src, int32_t kind, CopyPlan& plan);

// Checks that the `count` bytes at `ptr` may be used as that side of a copy:
// device memory must lie in one live device allocation; host memory may be
// any pageable pointer, but not a reserved (inaccessible) address range or
// beyond the end of a registered pinned allocation.
aclError check_side(const void* ptr, size_t count, Side side, int64_t* device = nullptr);

// Modelled duration of moving `bytes` along the plan's path on `device`. A
// host-to-host copy costs nothing extra when the host does it (synchronous) and
// costs one host-link transfer when a stream's DMA engine does it.
uint64_t copy_duration_ns(const npusim::Device& device, CopyPath path, uint64_t bytes, bool on_stream);

// Charges a synchronous operation that started at `start_ns` to the calling
// host thread: virtual time advances by `ns`; in wall mode the thread sleeps
// only for long operations (over 50 us), so short copies keep tests fast.
void charge_host(uint64_t start_ns, uint64_t ns);

// The bytes spanned by `rows` rows of `width` bytes `pitch` apart; false on overflow.
bool span_2d(size_t pitch, size_t width, size_t rows, size_t& out);

}  // namespace acl
