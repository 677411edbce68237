/*
 * The fuzz targets call the enum-typed C functions through these C wrappers: a C client may pass
 * any int where a prototype names an enum (C enums are integers), while the same call written in
 * C++ would need a cast to the enum type, which is itself undefined for out-of-range values. So
 * any undefined behaviour UBSan reports for such a value is msPTI's, not the harness's.
 */
#include "c_calls.h"

#include <acl/acl.h>

#include "mspti/mspti.h"
#include "mspti/mspti_ext.h"

int fz_activity_enable(int32_t kind) { return (int)msptiActivityEnable(kind); }
int fz_activity_disable(int32_t kind) { return (int)msptiActivityDisable(kind); }
int fz_activity_is_enabled(int32_t kind) { return msptiActivityIsEnabled(kind) ? 1 : 0; }

int fz_enable_callback(uint32_t enable, void* subscriber, int32_t domain, uint32_t cbid) {
    return (int)msptiEnableCallback(enable, (msptiSubscriberHandle)subscriber, domain, cbid);
}

int fz_enable_domain(uint32_t enable, void* subscriber, int32_t domain) {
    return (int)msptiEnableDomain(enable, (msptiSubscriberHandle)subscriber, domain);
}

int fz_push_external(int32_t kind, uint64_t id) { return (int)msptiActivityPushExternalCorrelationId(kind, id); }
int fz_pop_external(int32_t kind, uint64_t* last) { return (int)msptiActivityPopExternalCorrelationId(kind, last); }
int fz_dropped(int32_t kind, uint64_t* dropped) { return (int)msptiActivityGetDroppedRecords(kind, dropped); }
const char* fz_result_string(int32_t result) { return msptiResultGetString(result); }

int fz_memcpy(int variant, void* dst, size_t dst_max, const void* src, size_t count, int32_t kind, void* stream) {
    switch (variant & 3) {
        case 0: return (int)aclrtMemcpy(dst, dst_max, src, count, kind);
        case 1: return (int)aclrtMemcpyAsync(dst, dst_max, src, count, kind, stream);
        case 2: return (int)aclrtMemcpy2d(dst, 64, src, 64, 64, count / 128, kind);
        default: return (int)aclrtMemcpy2dAsync(dst, 64, src, 64, 64, count / 128, kind, stream);
    }
}
