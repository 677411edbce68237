// The single subscriber of the Callback API (and the switch that makes msPTI
// collect CANN-sourced data at all).
#pragma once

#include <atomic>
#include <deque>
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

    // Delivers one callback if it is enabled; returns the subscription it was delivered to
    // (nullptr: not delivered).
    const msptiSubscriber_st* Deliver(msptiCallbackDomain domain, uint32_t cbid, const msptiCallbackData& data) const;
    // EXIT of a call whose ENTER `entered` received: delivered (even if the callback was switched off
    // meanwhile) while that subscription is still the active one, withheld once it has ended. A
    // handle is never reused, so a later subscription never receives an EXIT without its ENTER.
    void DeliverExit(const msptiSubscriber_st* entered, msptiCallbackDomain domain, uint32_t cbid,
                     const msptiCallbackData& data) const;
    bool WantsCallback(msptiCallbackDomain domain, uint32_t cbid) const {
        return active_.load(std::memory_order_acquire) != nullptr && table_.IsEnabled(domain, cbid);
    }

    Subscriber() = default;
    Subscriber(const Subscriber&) = delete;
    Subscriber& operator=(const Subscriber&) = delete;

private:
    // Under mutex_, after every change of the subscription or the table: the interposers' gate.
    void UpdateGate() const;

    // Each subscription gets a handle of its own that is never reused, so a stale handle of any
    // earlier subscription is refused. A deque keeps every handle at its address (a callback in
    // flight may still read the one an Unsubscribe just retired); each costs 16 bytes.
    std::mutex mutex_;
    std::deque<msptiSubscriber_st> handles_;
    std::atomic<msptiSubscriber_st*> active_{nullptr};
    CallbackTable table_;
};

}  // namespace mspti::callback
