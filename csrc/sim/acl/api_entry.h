// The prologue of every exported ACL function, after its fault point
// (NPUSIM_FAULT_RETURN, which must come first so that fault plans see and count
// every call): an invalid simulator configuration fails the call with
// ACL_ERROR_INVALID_PARAM; otherwise the call is charged its host cost and
// reported to a profiler at exit (ApiScope).
#pragma once

#include "acl/acl.h"
#include "acl/prof_reporter.h"
#include "acl/runtime_state.h"
#include "core/fault_plan.h"

#define ACL_API_BEGIN(fn)                                      \
    if (!::acl::platform_ok()) return ACL_ERROR_INVALID_PARAM; \
    ::acl::ApiScope acl_api_scope_(::acl::AclApi::fn)
