// libmsprofiler: the functions of acl/acl_prof.h the simulator does not collect for yet (the
// subscription API, step timestamps, stamps and ranges). Each is present (programs written for
// CANN link and run unchanged) and reports the feature as unsupported: ACL_ERROR_FEATURE_UNSUPPORTED,
// or NULL / 0 where the return type has no error code. The first such call in a process logs which
// function was called. The collection functions (aclprofInit .. aclprofFinalize) are prof_api.cpp.
#include "acl/acl_prof.h"

#include <atomic>

#include "core/log.h"

namespace {

aclError unsupported(const char* function) {
    static std::atomic<bool> logged{false};
    if (!logged.exchange(true, std::memory_order_relaxed)) {
        npusim::log_message(npusim::LogLevel::Warn,
                            "%s: not collected by the simulator's libmsprofiler (ACL_ERROR_FEATURE_UNSUPPORTED, %d); "
                            "collect with aclprofInit..aclprofFinalize or msPTI",
                            function, ACL_ERROR_FEATURE_UNSUPPORTED);
    }
    return ACL_ERROR_FEATURE_UNSUPPORTED;
}

}  // namespace

extern "C" {

aclError aclprofModelSubscribe(uint32_t, const aclprofSubscribeConfig*) { return unsupported(__func__); }
aclError aclprofModelUnSubscribe(uint32_t) { return unsupported(__func__); }
aclprofSubscribeConfig* aclprofCreateSubscribeConfig(int8_t, aclprofAicoreMetrics, void*) {
    unsupported(__func__);
    return nullptr;
}
aclError aclprofDestroySubscribeConfig(const aclprofSubscribeConfig*) { return unsupported(__func__); }
aclError aclprofGetOpDescSize(size_t*) { return unsupported(__func__); }
aclError aclprofGetOpNum(const void*, size_t, uint32_t*) { return unsupported(__func__); }
aclError aclprofGetOpTypeLen(const void*, size_t, uint32_t, size_t*) { return unsupported(__func__); }
aclError aclprofGetOpType(const void*, size_t, uint32_t, char*, size_t) { return unsupported(__func__); }
aclError aclprofGetOpNameLen(const void*, size_t, uint32_t, size_t*) { return unsupported(__func__); }
aclError aclprofGetOpName(const void*, size_t, uint32_t, char*, size_t) { return unsupported(__func__); }
uint64_t aclprofGetOpStart(const void*, size_t, uint32_t) {
    unsupported(__func__);
    return 0;
}
uint64_t aclprofGetOpEnd(const void*, size_t, uint32_t) {
    unsupported(__func__);
    return 0;
}
uint64_t aclprofGetOpDuration(const void*, size_t, uint32_t) {
    unsupported(__func__);
    return 0;
}
size_t aclprofGetModelId(const void*, size_t, uint32_t) {
    unsupported(__func__);
    return 0;
}
aclprofSubscribeOpFlag aclprofGetOpFlag(const void*, size_t, uint32_t) {
    unsupported(__func__);
    return ACL_SUBSCRIBE_NONE;
}
const char* aclprofGetOpAttriValue(const void*, size_t, uint32_t, aclprofSubscribeOpAttri) {
    unsupported(__func__);
    return nullptr;
}

aclError aclprofGetStepTimestamp(aclprofStepInfo*, aclprofStepTag, aclrtStream) { return unsupported(__func__); }
aclprofStepInfo* aclprofCreateStepInfo(void) {
    unsupported(__func__);
    return nullptr;
}
void aclprofDestroyStepInfo(aclprofStepInfo*) { unsupported(__func__); }

void* aclprofCreateStamp(void) {
    unsupported(__func__);
    return nullptr;
}
void aclprofDestroyStamp(void*) { unsupported(__func__); }
aclError aclprofPush(void*) { return unsupported(__func__); }
aclError aclprofPop(void) { return unsupported(__func__); }
aclError aclprofRangeStart(void*, uint32_t*) { return unsupported(__func__); }
aclError aclprofRangeStop(uint32_t) { return unsupported(__func__); }
aclError aclprofSetStampTraceMessage(void*, const char*, uint32_t) { return unsupported(__func__); }
aclError aclprofMark(void*) { return unsupported(__func__); }
aclError aclprofMarkEx(const char*, size_t, aclrtStream) { return unsupported(__func__); }
uint64_t aclprofStr2Id(const char*) {
    unsupported(__func__);
    return 0;
}
aclError aclprofRangePushEx(aclprofEventAttributes*) { return unsupported(__func__); }
aclError aclprofRangePop(void) { return unsupported(__func__); }

}  // extern "C"
