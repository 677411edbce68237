// The communicator-management API (hccl_comm.h) as internal functions. libhcomm exports
// the C names over these, and libhccl exports the same names over them too, so a program
// linked only with -lhccl (as CANN samples are) finds them. The exported wrappers hold the
// fault points; these functions do not.
#pragma once

#include "acl/acl_base.h"
#include "core/export.h"
#include "hccl/hccl_types.h"

namespace npusim::hcomm {

NPUSIM_API HcclResult get_root_info(HcclRootInfo* root_info);
NPUSIM_API HcclResult init_root_info(uint32_t nranks, const HcclRootInfo* root_info, uint32_t rank,
                                     const HcclCommConfig* config, HcclComm* comm);
NPUSIM_API HcclResult init_cluster_info(const char* cluster_info, uint32_t rank, const HcclCommConfig* config,
                                        HcclComm* comm);
NPUSIM_API HcclResult init_all(uint32_t ndev, const int32_t* devices, HcclComm* comms);
NPUSIM_API HcclResult destroy_comm(HcclComm comm);
NPUSIM_API HcclResult rank_size(HcclComm comm, uint32_t* size);
NPUSIM_API HcclResult rank_id(HcclComm comm, uint32_t* rank);
NPUSIM_API HcclResult comm_name(HcclComm comm, char* name);
NPUSIM_API HcclResult async_error(HcclComm comm, HcclResult* error);
NPUSIM_API const char* error_string(HcclResult code);
NPUSIM_API HcclResult set_config(HcclConfig config, HcclConfigValue value);
NPUSIM_API HcclResult get_config(HcclConfig config, HcclConfigValue* value);
NPUSIM_API uint32_t config_capability();

// HcclBarrier is declared with the communicator API but runs like every other operation,
// in libhccl, which registers it here.
using BarrierFn = HcclResult (*)(HcclComm comm, aclrtStream stream);
NPUSIM_API void set_barrier(BarrierFn fn);
NPUSIM_API HcclResult barrier(HcclComm comm, aclrtStream stream);

}  // namespace npusim::hcomm
