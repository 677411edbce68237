#include "acl/copy_plan.h"

#include "acl/runtime_state.h"
#include "acl/vmm_state.h"

namespace acl {

using npusim::MemoryKind;

namespace {

bool is_device_memory(const void* ptr) {
    npusim::Allocation a;
    return platform().memory().find(ptr, 1, &a) && a.kind == MemoryKind::Device;
}

constexpr uint64_t kWallSleepThresholdNs = 50'000;

}  // namespace

aclError plan_copy(const void* dst, const void* src, int32_t kind, CopyPlan& plan) {
    switch (kind) {
        case ACL_MEMCPY_HOST_TO_HOST: plan.src = Side::Host, plan.dst = Side::Host; break;
        case ACL_MEMCPY_HOST_TO_DEVICE:
        case ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE: plan.src = Side::Host, plan.dst = Side::Device; break;
        case ACL_MEMCPY_DEVICE_TO_HOST: plan.src = Side::Device, plan.dst = Side::Host; break;
        case ACL_MEMCPY_DEVICE_TO_DEVICE:
        case ACL_MEMCPY_INNER_DEVICE_TO_DEVICE:
        case ACL_MEMCPY_INTER_DEVICE_TO_DEVICE: plan.src = Side::Device, plan.dst = Side::Device; break;
        case ACL_MEMCPY_DEFAULT:
            // Unified addressing: the registry knows which pointers are device memory.
            plan.src = is_device_memory(src) ? Side::Device : Side::Host;
            plan.dst = is_device_memory(dst) ? Side::Device : Side::Host;
            break;
        default: return ACL_ERROR_INVALID_PARAM;
    }
    if (plan.src == Side::Device && plan.dst == Side::Device) plan.path = CopyPath::DeviceLocal;
    else if (plan.src == Side::Host && plan.dst == Side::Host) plan.path = CopyPath::HostOnly;
    else plan.path = CopyPath::HostLink;
    return ACL_SUCCESS;
}

aclError check_side(const void* ptr, size_t count, Side side, int64_t* device) {
    if (count == 0) return ACL_SUCCESS;
    npusim::Allocation a;
    const bool registered = platform().memory().find(ptr, 1, &a);
    if (side == Side::Device) {
        if (!registered || a.kind != MemoryKind::Device || !platform().memory().find(ptr, count, &a))
            return ACL_ERROR_RT_PARAM_INVALID;
        if (device != nullptr) *device = a.device;
        return ACL_SUCCESS;
    }
    if (!registered) {
        // Pageable host memory: nothing to check it against, except reserved address ranges.
        return touches_unmapped_reservation(ptr, count) ? ACL_ERROR_RT_PARAM_INVALID : ACL_SUCCESS;
    }
    if (a.kind == MemoryKind::Reserved || !platform().memory().find(ptr, count, nullptr))
        return ACL_ERROR_RT_PARAM_INVALID;
    return ACL_SUCCESS;
}

uint64_t copy_duration_ns(const npusim::Device& device, CopyPath path, uint64_t bytes, bool on_stream) {
    switch (path) {
        case CopyPath::HostLink: return device.host_link_ns(bytes);
        case CopyPath::DeviceLocal: return device.device_copy_ns(bytes);
        case CopyPath::HostOnly: break;
    }
    return on_stream ? device.host_link_ns(bytes) : 0;
}

void charge_host(uint64_t start_ns, uint64_t ns) {
    npusim::Clock& clock = sim_clock();
    if (clock.mode() == npusim::ClockMode::Virtual) clock.spend(ns);
    else if (ns > kWallSleepThresholdNs) clock.wait_until(start_ns + ns);
}

bool span_2d(size_t pitch, size_t width, size_t rows, size_t& out) {
    size_t body = 0;
    if (rows == 0 || __builtin_mul_overflow(pitch, rows - 1, &body)) return false;
    return !__builtin_add_overflow(body, width, &out);
}

}  // namespace acl
