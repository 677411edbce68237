// aclInit / aclFinalize and the version and mode queries.
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>

#include "acl/acl.h"
#include "acl/api_entry.h"
#include "acl/prof_reporter.h"
#include "acl/runtime_state.h"
#include "core/fault_plan.h"
#include "msprofiler/application.h"

using namespace acl;

namespace {

bool readable_file(const char* path) {
    struct stat st{};
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, R_OK) == 0;
}

}  // namespace

ACL_FUNC_VISIBILITY aclError aclInit(const char* configPath) {
    NPUSIM_FAULT_RETURN("aclInit", aclError);
    if (!platform_ok()) {
        std::fprintf(stderr, "aclInit: invalid simulator configuration: %s\n", platform().config().error.c_str());
        return ACL_ERROR_INVALID_PARAM;
    }
    ApiScope scope(AclApi::aclInit);
    if (init_state() == InitState::Initialised) return ACL_ERROR_REPEAT_INITIALIZE;
    // The file's content (ACL's JSON options) is not interpreted; it must only be readable.
    // An empty path means "no configuration", as NULL does.
    if (configPath != nullptr && configPath[0] != '\0' && !readable_file(configPath)) return ACL_ERROR_INVALID_FILE;
    set_init_state(InitState::Initialised);
    npusim_msprof_on_acl_init();
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclFinalize(void) {
    NPUSIM_FAULT_RETURN("aclFinalize", aclError);
    ACL_API_BEGIN(aclFinalize);
    switch (init_state()) {
        case InitState::Never: return ACL_ERROR_UNINITIALIZE;
        case InitState::Finalised: return ACL_ERROR_REPEAT_FINALIZE;
        case InitState::Initialised: break;
    }
    set_init_state(InitState::Finalised);
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtGetVersion(int32_t* majorVersion, int32_t* minorVersion, int32_t* patchVersion) {
    NPUSIM_FAULT_RETURN("aclrtGetVersion", aclError);
    ACL_API_BEGIN(aclrtGetVersion);
    if (majorVersion == nullptr || minorVersion == nullptr || patchVersion == nullptr) return ACL_ERROR_INVALID_PARAM;
    *majorVersion = ACL_MAJOR_VERSION;
    *minorVersion = ACL_MINOR_VERSION;
    *patchVersion = ACL_PATCH_VERSION;
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtGetRunMode(aclrtRunMode* runMode) {
    NPUSIM_FAULT_RETURN("aclrtGetRunMode", aclError);
    ACL_API_BEGIN(aclrtGetRunMode);
    if (runMode == nullptr) return ACL_ERROR_INVALID_PARAM;
    *runMode = ACL_HOST;  // the program runs on the host and drives the device remotely
    return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY const char* aclrtGetSocName(void) {
    if (NPUSIM_FAULT("aclrtGetSocName").fail) return nullptr;  // returns a name, not an aclError
    if (!platform_ok()) return nullptr;
    ApiScope scope(AclApi::aclrtGetSocName);
    return soc().name.c_str();
}
