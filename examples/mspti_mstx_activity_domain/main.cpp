// mstx ranges in a named domain, collected as MARKER records, with the domain switched off
// and on again through msptiActivityDisableMarkerDomain / EnableMarkerDomain.
#include <string>

#include "acl_workload.h"
#include "mspti_helpers.h"
#include "mstx/ms_tools_ext.h"

int main() {
    msptiSubscriberHandle subscriber = sample::init_mspti(nullptr, nullptr);
    msptiActivityEnable(MSPTI_ACTIVITY_KIND_MARKER);
    sample::AclEnv env;
    if (sample::init_acl(env) != 0) return 1;
    mstxDomainHandle_t domain = mstxDomainCreateA("domainRange");

    aclrtSetCurrentContext(env.context);
    const std::string message = "s.c_str()";
    mstxRangeId id = mstxDomainRangeStartA(domain, message.c_str(), env.stream);  // collected, host + device
    mstxDomainRangeEnd(domain, id);

    msptiActivityDisableMarkerDomain("domainRange");
    id = mstxDomainRangeStartA(domain, "closeDomainMark", env.stream);  // not collected
    mstxDomainRangeEnd(domain, id);

    msptiActivityEnableMarkerDomain("domainRange");
    id = mstxDomainRangeStartA(domain, "openDomainMark", nullptr);  // collected, host only
    mstxDomainRangeEnd(domain, id);
    aclrtSynchronizeStream(env.stream);

    sample::deinit_acl(env);
    mstxDomainDestroy(domain);
    sample::deinit_mspti(subscriber);
    return 0;
}
