// Model and operator data dump (aclmdlInitDump, aclmdlSetDump, aclmdlFinalizeDump). The simulator
// writes no dump files: each call returns ACL_ERROR_FEATURE_UNSUPPORTED with one log line.
#include "acl/acl.h"
#include "core/fault_plan.h"
#include "core/unsupported.h"

namespace {
constexpr const char* kNoDump = "no tensor dump";
}  // namespace

extern "C" {

ACL_FUNC_VISIBILITY aclError aclmdlInitDump(void) {
    NPUSIM_FAULT_RETURN("aclmdlInitDump", aclError);
    NPUSIM_RETURN_UNSUPPORTED(kNoDump, ACL_ERROR_FEATURE_UNSUPPORTED);
}

ACL_FUNC_VISIBILITY aclError aclmdlSetDump(const char* dumpCfgPath) {
    NPUSIM_FAULT_RETURN("aclmdlSetDump", aclError);
    (void)dumpCfgPath;
    NPUSIM_RETURN_UNSUPPORTED(kNoDump, ACL_ERROR_FEATURE_UNSUPPORTED);
}

ACL_FUNC_VISIBILITY aclError aclmdlFinalizeDump(void) {
    NPUSIM_FAULT_RETURN("aclmdlFinalizeDump", aclError);
    NPUSIM_RETURN_UNSUPPORTED(kNoDump, ACL_ERROR_FEATURE_UNSUPPORTED);
}

}  // extern "C"
