// The Callback API for a whole domain: every aclrt* runtime function the workload calls
// after subscribing prints "<name> func enter" and "<name> func exit".
#include <cstdio>

#include "acl_workload.h"
#include "mspti_helpers.h"

namespace {

void on_callback(void* userdata, msptiCallbackDomain domain, msptiCallbackId cbid, const msptiCallbackData* data) {
    (void)userdata, (void)domain, (void)cbid;
    if (data == nullptr) return;
    std::printf("%s func %s\n", sample::text(data->functionName),
                data->callbackSite == MSPTI_API_ENTER ? "enter" : "exit");
}

}  // namespace

int main() {
    sample::AclEnv env;
    if (sample::init_acl(env) != 0) return 1;
    msptiSubscriberHandle subscriber = sample::init_mspti(on_callback, nullptr);
    msptiEnableDomain(1, subscriber, MSPTI_CB_DOMAIN_RUNTIME);
    const int rc = sample::do_acl_add(env.stream);
    sample::deinit_acl(env);
    sample::deinit_mspti(subscriber);
    return rc;
}
