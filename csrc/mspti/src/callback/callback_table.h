// Which callbacks are enabled: one bit per (domain, cbid), read with one atomic
// load per instrumented call.
#pragma once

#include <atomic>
#include <cstdint>

#include "mspti/mspti_callback.h"

namespace mspti::callback {

// The callback ids each domain defines (1..36 runtime, 1..12 HCCL).
constexpr uint32_t DomainSize(int64_t domain) {
    return domain == MSPTI_CB_DOMAIN_RUNTIME ? MSPTI_CBID_RUNTIME_SIZE
           : domain == MSPTI_CB_DOMAIN_HCCL  ? MSPTI_CBID_HCCL_SIZE
                                             : 0;
}
constexpr bool IsValidDomain(int64_t domain) { return DomainSize(domain) != 0; }
constexpr bool IsValidCbid(int64_t domain, uint32_t cbid) { return cbid > 0 && cbid < DomainSize(domain); }

class CallbackTable {
public:
    bool IsEnabled(msptiCallbackDomain domain, uint32_t cbid) const {
        if (!IsValidCbid(domain, cbid)) return false;
        return (bits_[domain].load(std::memory_order_acquire) >> cbid) & 1U;
    }
    void Set(msptiCallbackDomain domain, uint32_t cbid, bool on);
    void SetDomain(msptiCallbackDomain domain, bool on);
    void Clear();
    // Whether any callback of any domain is enabled.
    bool Any() const {
        for (const auto& b : bits_) {
            if (b.load(std::memory_order_acquire) != 0) return true;
        }
        return false;
    }

private:
    std::atomic<uint64_t> bits_[MSPTI_CB_DOMAIN_SIZE] = {};
};

}  // namespace mspti::callback
