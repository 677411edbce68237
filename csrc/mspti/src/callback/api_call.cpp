#include "callback/api_call.h"

#include "callback/subscriber.h"
#include "common/hot_tls.h"
#include "cann/host_time.h"
#include "cann/name_cache.h"

namespace mspti::callback {
namespace {

// The hash id of the kernel name CANN reported last inside the current call (0: none); resolved
// only for an EXIT callback.
MSPTI_HOT_TLS thread_local uint64_t t_symbol = 0;

msptiCallbackData MakeData(msptiApiCallbackSite site, const char* name, const void* params, const void* ret,
                           const char* symbol, uint64_t correlation_id, uint64_t* correlation_data) {
    msptiCallbackData data{};
    data.callbackSite = site;
    data.functionName = name;
    data.functionParams = params;
    data.functionReturnValue = ret;
    data.symbolName = symbol;
    data.correlationId = correlation_id;
    data.correlationData = correlation_data;
    return data;
}

}  // namespace

void NoteKernelName(uint64_t name_hash) { t_symbol = name_hash; }

ApiCall::ApiCall(msptiCallbackDomain domain, uint32_t cbid, const char* function_name, const void* params)
    : scope_(&seam::host_time::CannNow),
      domain_(domain),
      cbid_(cbid),
      function_name_(function_name),
      params_(params),
      previous_symbol_(t_symbol) {
    t_symbol = 0;
    const Subscriber& s = Subscriber::Instance();
    if (!s.WantsCallback(domain_, cbid_)) return;
    const msptiCallbackData data =
        MakeData(MSPTI_API_ENTER, function_name_, params_, nullptr, nullptr, scope_.id(), &correlation_data_);
    entered_ = s.Deliver(domain_, cbid_, data);
}

void ApiCall::Exit(const void* return_value) {
    const msptiSubscriber_st* entered = entered_;
    if (entered == nullptr) return;
    entered_ = nullptr;
    const char* symbol = t_symbol != 0 ? seam::NameCache::Instance().HashText(t_symbol) : nullptr;
    const msptiCallbackData data =
        MakeData(MSPTI_API_EXIT, function_name_, params_, return_value, symbol, scope_.id(), &correlation_data_);
    // Delivered even if the callback was switched off meanwhile, but only to the subscription that got
    // the ENTER.
    Subscriber::Instance().DeliverExit(entered, domain_, cbid_, data);
}

ApiCall::~ApiCall() { t_symbol = previous_symbol_; }

}  // namespace mspti::callback
