// A Callback API subscriber that marks the kernel launch: at ENTER and EXIT of the
// runtime's launch callback it calls mstxMarkA with the function's name on the stream,
// so MARKER records (host and device) bracket the KERNEL record.
#include "acl_workload.h"
#include "mspti_helpers.h"
#include "mstx/ms_tools_ext.h"

namespace {

struct UserData {
    aclrtContext* context;
    aclrtStream* stream;
};

void on_callback(void* userdata, msptiCallbackDomain domain, msptiCallbackId cbid, const msptiCallbackData* data) {
    (void)cbid;
    auto* ud = static_cast<UserData*>(userdata);
    if (ud == nullptr || domain != MSPTI_CB_DOMAIN_RUNTIME || data == nullptr) return;
    mstxMarkA(data->functionName, *ud->stream);
}

}  // namespace

int main() {
    sample::AclEnv env;
    if (sample::init_acl(env) != 0) return 1;
    UserData ud{&env.context, &env.stream};
    msptiSubscriberHandle subscriber = sample::init_mspti(on_callback, &ud);
    msptiActivityEnable(MSPTI_ACTIVITY_KIND_MARKER);
    msptiActivityEnable(MSPTI_ACTIVITY_KIND_KERNEL);
    msptiEnableCallback(1, subscriber, MSPTI_CB_DOMAIN_RUNTIME, MSPTI_CBID_RUNTIME_LAUNCH);
    const int rc = sample::do_acl_add(env.stream);
    sample::deinit_acl(env);
    sample::deinit_mspti(subscriber);
    return rc;
}
