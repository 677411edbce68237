/*
 * The part of GE's API types the simulated HIXL needs: ge::AscendString.
 */
#ifndef NPU_SIM_GE_GE_API_TYPES_H
#define NPU_SIM_GE_GE_API_TYPES_H

// The standard headers CANN's GE type headers make visible to the HIXL API.
#include <atomic>
#include <cstring>
#include <ctime>
#include <cwctype>
#include <exception>
#include <iostream>
#include <limits>
#include <map>
#include <memory>
#include <set>
#include <stdexcept>
#include <system_error>
#include <utility>

#include "ge/ascend_string.h"

#endif  // NPU_SIM_GE_GE_API_TYPES_H
