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
#ifndef NPU_SIM_MS_TOOLS_EXT_H
#define NPU_SIM_MS_TOOLS_EXT_H

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

#endif /* NPU_SIM_MS_TOOLS_EXT_H */
