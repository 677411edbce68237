/*
 * mstx (MindStudio Tools Extension) markers: instant marks and ranges, optionally
 * in named domains, routed to whatever tool MSTX_INJECTION_PATH names (in CANN and
 * in this simulator: libprofapi, which forwards to the attached profiler).
 *
 * By default the functions are defined here as static inline (see
 * mstx_detail/mstx_impl.h for the injection mechanism); define MSTX_NO_IMPL before
 * including this header to get plain declarations instead.
 *
 * Stream argument: NULL marks a host-only point or range; a stream also asks the
 * tool for the matching device-side point on that stream. A range id of 0 means
 * "not recorded"; mstxRangeEnd(0) is harmless.
 */
#ifndef MSTX_TOOLS_EXT
#define MSTX_TOOLS_EXT

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MSTX_SUCCESS 0
#define MSTX_FAIL 1

/* Ids a tool reports through mstxGetToolId. */
#define MSTX_TOOL_INVALID_ID 0x0
#define MSTX_TOOL_MSPROF_ID 0x1000
#define MSTX_TOOL_MSOPPROF_ID 0x1001
#define MSTX_TOOL_MSSANITIZER_ID 0x1002
#define MSTX_TOOL_MSLEAKS_ID 0x1003

typedef uint64_t mstxRangeId; /* 0: not recorded */
#ifndef NPU_SIM_ACL_BASE_H    /* acl/acl_base.h declares the same type */
typedef void *aclrtStream;
#endif
typedef struct mstxDomainRegistration_st mstxDomainRegistration_t;
typedef mstxDomainRegistration_t *mstxDomainHandle_t;

#ifdef __cplusplus
}
#endif

#define MSTX_IMPL_GUARD /* the detail headers refuse a direct include */
#include "mstx/mstx_detail/mstx_types.h"

#ifdef MSTX_NO_IMPL

#ifdef __cplusplus
extern "C" {
#endif

void mstxMarkA(const char *message, aclrtStream stream);
mstxRangeId mstxRangeStartA(const char *message, aclrtStream stream);
void mstxRangeEnd(mstxRangeId id);
void mstxGetToolId(uint64_t *id);
mstxDomainHandle_t mstxDomainCreateA(const char *name);
void mstxDomainDestroy(mstxDomainHandle_t domain);
void mstxDomainMarkA(mstxDomainHandle_t domain, const char *message, aclrtStream stream);
mstxRangeId mstxDomainRangeStartA(mstxDomainHandle_t domain, const char *message, aclrtStream stream);
void mstxDomainRangeEnd(mstxDomainHandle_t domain, mstxRangeId id);

#ifdef __cplusplus
}
#endif

#else
#include "mstx/mstx_detail/mstx_impl.h"
#endif

#undef MSTX_IMPL_GUARD
#endif /* MSTX_TOOLS_EXT */
