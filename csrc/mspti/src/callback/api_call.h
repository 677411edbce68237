// One instrumented call (an interposed aclrt*/Hccl* function): opens the
// call's correlation scope, delivers ENTER before the real function and EXIT
// after it, with msptiCallbackData fully filled. EXIT is delivered exactly
// when ENTER was, to the same subscription, so callbacks pair up per call within
// a subscription; an Unsubscribe between them withholds the EXIT.
#pragma once

#include <cstdint>

#include "activity/correlation.h"
#include "mspti/mspti_callback.h"

namespace mspti::callback {

class ApiCall {
public:
    ApiCall(msptiCallbackDomain domain, uint32_t cbid, const char* function_name, const void* params);
    ~ApiCall();
    ApiCall(const ApiCall&) = delete;
    ApiCall& operator=(const ApiCall&) = delete;

    // Delivers EXIT (if ENTER was delivered). `return_value` points to the function's result.
    void Exit(const void* return_value);

    uint64_t correlation_id() const { return scope_.id(); }

private:
    activity::CorrelationScope scope_;
    msptiCallbackDomain domain_;
    uint32_t cbid_;
    const char* function_name_;
    const void* params_;
    uint64_t correlation_data_ = 0;
    uint64_t previous_symbol_;
    const msptiSubscriber_st* entered_ = nullptr;  // the subscription that received ENTER
};

// Called when CANN reports a kernel launched inside the current instrumented call, with its name's
// hash id (cann/name_cache.h): the name becomes the EXIT callback's symbolName.
void NoteKernelName(uint64_t name_hash);

}  // namespace mspti::callback
