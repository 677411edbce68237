// The HCCL functions msPTI interposes, and the two it calls, with the types
// and values of CANN's HCCL headers (include/hccl in a CANN toolkit).
// msPTI never links libhccl: the interposed functions are defined by
// hccl_wrappers.cpp and forward to CANN's through the seam (dlsym), and the
// two queries are reached the same way.
#pragma once

#include <cstddef>

// hccl.h brings hccl_types.h and, in toolkits that split it out, hccl_comm.h.
#include <hccl/hccl.h>

// Longest communicator name HcclGetCommName writes (including the terminator).
constexpr size_t kHcclCommNameMax = COMM_NAME_MAX_LENGTH;
