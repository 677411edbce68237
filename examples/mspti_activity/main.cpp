// msPTI Activity API basics: collect KERNEL, API, MEMCPY, MEMORY, MEMSET and RUNTIME_API
// records of one aclnnAdd workload and print them as the buffers come back.
#include "acl_workload.h"
#include "mspti_helpers.h"

int main() {
    sample::AclEnv env;
    if (sample::init_acl(env) != 0) return 1;  // the device is opened before msPTI is set up
    msptiSubscriberHandle subscriber = sample::init_mspti(nullptr, nullptr);
    for (msptiActivityKind kind :
         {MSPTI_ACTIVITY_KIND_KERNEL, MSPTI_ACTIVITY_KIND_API, MSPTI_ACTIVITY_KIND_MEMCPY, MSPTI_ACTIVITY_KIND_MEMORY,
          MSPTI_ACTIVITY_KIND_MEMSET, MSPTI_ACTIVITY_KIND_RUNTIME_API}) {
        msptiActivityEnable(kind);
    }
    const int rc = sample::do_acl_add(env.stream);
    sample::deinit_acl(env);
    sample::deinit_mspti(subscriber);
    return rc;
}
