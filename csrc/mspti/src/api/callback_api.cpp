// The Callback API (mspti_callback.h).
#include "api/lifecycle.h"
#include "callback/callback_table.h"
#include "callback/subscriber.h"
#include "interpose/preload_check.h"
#include "mspti/mspti_callback.h"

namespace {

using namespace mspti;

bool Interposed(msptiCallbackDomain domain) {
    return domain == MSPTI_CB_DOMAIN_HCCL ? interpose::CollectivesInterposed() : interpose::RuntimeInterposed();
}

}  // namespace

extern "C" {

MSPTI_API msptiResult msptiSubscribe(msptiSubscriberHandle* subscriber, msptiCallbackFunc callback, void* userdata) {
    try {
        lifecycle::EnsureExitFlush();
        return callback::Subscriber::Instance().Subscribe(subscriber, callback, userdata);
    } catch (...) {
        return MSPTI_ERROR_INNER;
    }
}

MSPTI_API msptiResult msptiUnsubscribe(msptiSubscriberHandle subscriber) {
    try {
        return callback::Subscriber::Instance().Unsubscribe(subscriber);
    } catch (...) {
        return MSPTI_ERROR_INNER;
    }
}

MSPTI_API msptiResult msptiEnableCallback(uint32_t enable, msptiSubscriberHandle subscriber, msptiCallbackDomain domain,
                                          msptiCallbackId cbid) {
    try {
        if (!callback::IsValidDomain(domain)) return MSPTI_ERROR_INVALID_PARAMETER;
        // Callbacks come only from our wrappers: without them in the process nothing would fire.
        if (!Interposed(domain)) return MSPTI_ERROR_WITHOUT_LD_PRELOAD;
        return callback::Subscriber::Instance().EnableCallback(enable, subscriber, domain, cbid);
    } catch (...) {
        return MSPTI_ERROR_INNER;
    }
}

MSPTI_API msptiResult msptiEnableDomain(uint32_t enable, msptiSubscriberHandle subscriber, msptiCallbackDomain domain) {
    try {
        if (!callback::IsValidDomain(domain)) return MSPTI_ERROR_INVALID_PARAMETER;
        if (!Interposed(domain)) return MSPTI_ERROR_WITHOUT_LD_PRELOAD;
        return callback::Subscriber::Instance().EnableDomain(enable, subscriber, domain);
    } catch (...) {
        return MSPTI_ERROR_INNER;
    }
}

}  // extern "C"
