// The single subscriber of the Callback API (and the switch that makes msPTI
// collect CANN-sourced data at all).
#pragma once

#include <atomic>
#include <mutex>

#include "callback/callback_table.h"
#include "mspti/mspti_callback.h"

// The opaque handle type of the public API.
struct msptiSubscriber_st {
    msptiCallbackFunc callback = nullptr;
    void* userdata = nullptr;
};

namespace mspti::callback {

class Subscriber {
public:
    static Subscriber& Instance();

    msptiResult Subscribe(msptiSubscriberHandle* handle, msptiCallbackFunc callback, void* userdata);
    msptiResult Unsubscribe(msptiSubscriberHandle handle);
    msptiResult EnableCallback(uint32_t enable, msptiSubscriberHandle handle, msptiCallbackDomain domain,
                               msptiCallbackId cbid);
    msptiResult EnableDomain(uint32_t enable, msptiSubscriberHandle handle, msptiCallbackDomain domain);

    bool Subscribed() const { return active_.load(std::memory_order_acquire) != nullptr; }

    // Delivers one callback if it is enabled; returns whether it was delivered.
    bool Deliver(msptiCallbackDomain domain, uint32_t cbid, const msptiCallbackData& data) const;
    // EXIT of a call whose ENTER was delivered: only needs a subscriber with a callback.
    void DeliverExit(msptiCallbackDomain domain, uint32_t cbid, const msptiCallbackData& data) const;
    bool WantsCallback(msptiCallbackDomain domain, uint32_t cbid) const {
        return active_.load(std::memory_order_acquire) != nullptr && table_.IsEnabled(domain, cbid);
    }

    Subscriber() = default;
    Subscriber(const Subscriber&) = delete;
    Subscriber& operator=(const Subscriber&) = delete;

private:
    // Each subscription gets the next slot, so a stale handle of an earlier subscription is refused.
    static constexpr size_t kSlots = 64;
    std::mutex mutex_;
    msptiSubscriber_st slots_[kSlots];
    size_t next_slot_ = 0;
    std::atomic<msptiSubscriber_st*> active_{nullptr};
    CallbackTable table_;
};

}  // namespace mspti::callback
