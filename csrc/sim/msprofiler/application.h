// msprof's application mode (msprof --application=CMD --output=DIR): the command runs with
// NPU_SIM_MSPROF_OUTPUT=DIR (and NPU_SIM_MSPROF_DATA_TYPES, acl_prof.h's switches, default
// ACL_API | TASK_TIME | HCCL_TRACE); its aclInit starts a collection of every device into DIR, as
// aclprofInit/CreateConfig/Start would, and process exit stops it (one PROF_* directory per process).
#pragma once

#include "core/export.h"

// Called by aclInit once the runtime is initialised; does nothing without NPU_SIM_MSPROF_OUTPUT.
NPUSIM_C_EXPORT void npusim_msprof_on_acl_init(void);
