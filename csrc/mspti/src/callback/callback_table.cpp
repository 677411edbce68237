#include "callback/callback_table.h"

namespace mspti::callback {

void CallbackTable::Set(msptiCallbackDomain domain, uint32_t cbid, bool on) {
    if (!IsValidCbid(domain, cbid)) return;
    const uint64_t bit = uint64_t{1} << cbid;
    if (on) {
        bits_[domain].fetch_or(bit, std::memory_order_acq_rel);
    } else {
        bits_[domain].fetch_and(~bit, std::memory_order_acq_rel);
    }
}

void CallbackTable::SetDomain(msptiCallbackDomain domain, bool on) {
    if (!IsValidDomain(domain)) return;
    // Bits 1 .. size-1: every callback id the domain defines.
    const uint64_t all = ((uint64_t{1} << DomainSize(domain)) - 1U) & ~uint64_t{1};
    bits_[domain].store(on ? all : 0, std::memory_order_release);
}

void CallbackTable::Clear() {
    for (auto& b : bits_) b.store(0, std::memory_order_release);
}

}  // namespace mspti::callback
