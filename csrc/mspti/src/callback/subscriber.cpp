#include "callback/subscriber.h"

#include <atomic>

#include "activity/kinds.h"
#include "common/call_gate.h"
#include "common/log.h"
#include "common/no_destructor.h"
#include "cann/profapi_injection.h"

namespace mspti::callback {

namespace {
LazyInstance<Subscriber> g_subscriber;
}  // namespace

Subscriber& Subscriber::Instance() { return g_subscriber.get(); }

msptiResult Subscriber::Subscribe(msptiSubscriberHandle* handle, msptiCallbackFunc callback, void* userdata) {
    if (handle == nullptr) return MSPTI_ERROR_INVALID_PARAMETER;
    std::lock_guard<std::mutex> lock(mutex_);
    if (active_.load(std::memory_order_acquire) != nullptr) return MSPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED;
    msptiSubscriber_st* slot = &handles_.emplace_back();
    slot->callback = callback;
    slot->userdata = userdata;
    table_.Clear();
    active_.store(slot, std::memory_order_release);
    activity::Kinds().SetHalted(false);  // before collection starts: device records find their kind on
    UpdateGate();
    seam::profapi::OnSubscribe();
    *handle = slot;
    return MSPTI_SUCCESS;
}

msptiResult Subscriber::Unsubscribe(msptiSubscriberHandle handle) {
    std::lock_guard<std::mutex> lock(mutex_);
    msptiSubscriber_st* current = active_.load(std::memory_order_acquire);
    if (current == nullptr || handle != current) return MSPTI_ERROR_INVALID_PARAMETER;
    table_.Clear();
    seam::profapi::OnUnsubscribe();
    // After the drain (records of finished device work are delivered): no kind produces records now.
    activity::Kinds().SetHalted(true);
    active_.store(nullptr, std::memory_order_release);
    UpdateGate();
    return MSPTI_SUCCESS;
}

msptiResult Subscriber::EnableCallback(uint32_t enable, msptiSubscriberHandle handle, msptiCallbackDomain domain,
                                       msptiCallbackId cbid) {
    std::lock_guard<std::mutex> lock(mutex_);
    msptiSubscriber_st* current = active_.load(std::memory_order_acquire);
    if (current == nullptr || handle != current || !IsValidCbid(domain, cbid)) return MSPTI_ERROR_INVALID_PARAMETER;
    table_.Set(domain, cbid, enable != 0);
    UpdateGate();
    return MSPTI_SUCCESS;
}

msptiResult Subscriber::EnableDomain(uint32_t enable, msptiSubscriberHandle handle, msptiCallbackDomain domain) {
    std::lock_guard<std::mutex> lock(mutex_);
    msptiSubscriber_st* current = active_.load(std::memory_order_acquire);
    if (current == nullptr || handle != current || !IsValidDomain(domain)) return MSPTI_ERROR_INVALID_PARAMETER;
    table_.SetDomain(domain, enable != 0);
    UpdateGate();
    return MSPTI_SUCCESS;
}

void Subscriber::UpdateGate() const {
    call_gate::Set(call_gate::kCallbacks, active_.load(std::memory_order_acquire) != nullptr && table_.Any());
}

namespace {

// The client's callback. An exception it throws stops at msPTI: the call it reports goes on, with its
// records and its EXIT, as if the callback had returned.
void CallClient(const msptiSubscriber_st& subscriber, msptiCallbackDomain domain, uint32_t cbid,
                const msptiCallbackData& data) noexcept {
    try {
        subscriber.callback(subscriber.userdata, domain, cbid, &data);
    } catch (...) {
        static std::atomic<bool> logged{false};
        if (!logged.exchange(true, std::memory_order_relaxed)) {
            MSPTI_LOGE("the subscriber's callback threw an exception (%s); msPTI goes on",
                       data.functionName != nullptr ? data.functionName : "");
        }
    }
}

}  // namespace

const msptiSubscriber_st* Subscriber::Deliver(msptiCallbackDomain domain, uint32_t cbid,
                                              const msptiCallbackData& data) const {
    const msptiSubscriber_st* current = active_.load(std::memory_order_acquire);
    if (current == nullptr || current->callback == nullptr || !table_.IsEnabled(domain, cbid)) return nullptr;
    CallClient(*current, domain, cbid, data);
    return current;
}

void Subscriber::DeliverExit(const msptiSubscriber_st* entered, msptiCallbackDomain domain, uint32_t cbid,
                             const msptiCallbackData& data) const {
    const msptiSubscriber_st* current = active_.load(std::memory_order_acquire);
    if (current == nullptr || current != entered || current->callback == nullptr) return;
    CallClient(*current, domain, cbid, data);
}

}  // namespace mspti::callback
