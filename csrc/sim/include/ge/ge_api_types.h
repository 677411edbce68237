/*
 * The part of GE's API types the simulated HIXL needs: ge::AscendString.
 */
#ifndef NPU_SIM_GE_GE_API_TYPES_H
#define NPU_SIM_GE_GE_API_TYPES_H

#include "ge/ascend_string.h"

#endif  // NPU_SIM_GE_GE_API_TYPES_H
