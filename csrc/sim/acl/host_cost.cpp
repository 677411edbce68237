#include "acl/host_cost.h"

#include <array>
#include <cmath>

#include "acl/runtime_state.h"
#include "core/timing_model.h"

namespace acl {

namespace {

constexpr size_t kApis = static_cast<size_t>(AclApi::Count);

uint64_t or_default(double v, uint64_t fallback) { return v > 0 ? static_cast<uint64_t>(std::llround(v)) : fallback; }

struct HostCosts {
    std::array<uint64_t, kApis> entry{};
    uint64_t sync_return = 0;
};

const HostCosts& costs() {
    static const HostCosts table = [] {
        const npusim::SocSpec& s = soc();
        const npusim::SocTiming& t = npusim::TimingModel::active().soc(s.name);
        HostCosts c;
        for (size_t i = 0; i < kApis; ++i) {
            switch (host_family(static_cast<AclApi>(i))) {
                case HostFamily::Launch: c.entry[i] = or_default(t.acl_launch_ns, s.host_api_ns); break;
                case HostFamily::MemcpyAsync: c.entry[i] = or_default(t.acl_memcpy_async_ns, s.host_api_ns); break;
                case HostFamily::EventRecord: c.entry[i] = or_default(t.acl_event_record_ns, s.host_api_ns); break;
                case HostFamily::Synchronize:
                case HostFamily::Other: c.entry[i] = s.host_api_ns; break;
            }
        }
        c.sync_return = or_default(t.acl_sync_ns, s.sync_wake_ns);
        return c;
    }();
    return table;
}

}  // namespace

HostFamily host_family(AclApi api) {
    switch (api) {
        case AclApi::aclrtLaunchKernel:
        case AclApi::aclrtLaunchKernelV2:
        case AclApi::aclrtLaunchKernelWithConfig:
        case AclApi::aclrtLaunchKernelWithHostArgs: return HostFamily::Launch;
        case AclApi::aclrtMemcpyAsync:
        case AclApi::aclrtMemcpy2dAsync:
        case AclApi::aclrtMemsetAsync: return HostFamily::MemcpyAsync;
        case AclApi::aclrtRecordEvent: return HostFamily::EventRecord;
        case AclApi::aclrtSynchronizeStream:
        case AclApi::aclrtSynchronizeStreamWithTimeout:
        case AclApi::aclrtSynchronizeDevice:
        case AclApi::aclrtSynchronizeDeviceWithTimeout:
        case AclApi::aclrtSynchronizeEvent: return HostFamily::Synchronize;
        default: return HostFamily::Other;
    }
}

uint64_t api_entry_ns(AclApi api) {
    const size_t i = static_cast<size_t>(api);
    return i < kApis ? costs().entry[i] : soc().host_api_ns;
}

uint64_t sync_return_ns() { return costs().sync_return; }

}  // namespace acl
