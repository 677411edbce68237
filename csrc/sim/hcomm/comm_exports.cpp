// The C entry points of hccl_comm.h exported by libhcomm (libhccl exports the same names).
#include "comm_api.h"
#include "core/fault_plan.h"
#include "hccl/hccl_comm.h"

#define HCOMM_EXPORT extern "C" __attribute__((visibility("default")))

using namespace npusim::hcomm;

HCOMM_EXPORT HcclResult HcclGetRootInfo(HcclRootInfo* rootInfo) {
    NPUSIM_FAULT_RETURN("HcclGetRootInfo", HcclResult);
    return get_root_info(rootInfo);
}

HCOMM_EXPORT HcclResult HcclCommInitRootInfo(uint32_t nRanks, const HcclRootInfo* rootInfo, uint32_t rank,
                                             HcclComm* comm) {
    NPUSIM_FAULT_RETURN("HcclCommInitRootInfo", HcclResult);
    return init_root_info(nRanks, rootInfo, rank, nullptr, comm);
}

HCOMM_EXPORT HcclResult HcclCommInitRootInfoConfig(uint32_t nRanks, const HcclRootInfo* rootInfo, uint32_t rank,
                                                   const HcclCommConfig* config, HcclComm* comm) {
    NPUSIM_FAULT_RETURN("HcclCommInitRootInfoConfig", HcclResult);
    return init_root_info(nRanks, rootInfo, rank, config, comm);
}

HCOMM_EXPORT HcclResult HcclCommInitClusterInfo(const char* clusterInfo, uint32_t rank, HcclComm* comm) {
    NPUSIM_FAULT_RETURN("HcclCommInitClusterInfo", HcclResult);
    return init_cluster_info(clusterInfo, rank, nullptr, comm);
}

HCOMM_EXPORT HcclResult HcclCommInitClusterInfoConfig(const char* clusterInfo, uint32_t rank, HcclCommConfig* config,
                                                      HcclComm* comm) {
    NPUSIM_FAULT_RETURN("HcclCommInitClusterInfoConfig", HcclResult);
    return init_cluster_info(clusterInfo, rank, config, comm);
}

HCOMM_EXPORT HcclResult HcclCommInitAll(uint32_t ndev, int32_t* devices, HcclComm* comms) {
    NPUSIM_FAULT_RETURN("HcclCommInitAll", HcclResult);
    return init_all(ndev, devices, comms);
}

HCOMM_EXPORT HcclResult HcclCreateSubCommConfig(HcclComm* comm, uint32_t rankNum, uint32_t* rankIds, uint64_t subCommId,
                                                uint32_t subCommRankId, HcclCommConfig* config, HcclComm* subComm) {
    NPUSIM_FAULT_RETURN("HcclCreateSubCommConfig", HcclResult);
    (void)comm, (void)rankNum, (void)rankIds, (void)subCommId, (void)subCommRankId, (void)config, (void)subComm;
    return HCCL_E_NOT_SUPPORT;
}

HCOMM_EXPORT HcclResult HcclCommDestroy(HcclComm comm) {
    NPUSIM_FAULT_RETURN("HcclCommDestroy", HcclResult);
    return destroy_comm(comm);
}

HCOMM_EXPORT HcclResult HcclGetRankSize(HcclComm comm, uint32_t* rankSize) {
    NPUSIM_FAULT_RETURN("HcclGetRankSize", HcclResult);
    return rank_size(comm, rankSize);
}

HCOMM_EXPORT HcclResult HcclGetRankId(HcclComm comm, uint32_t* rank) {
    NPUSIM_FAULT_RETURN("HcclGetRankId", HcclResult);
    return rank_id(comm, rank);
}

HCOMM_EXPORT HcclResult HcclGetCommName(HcclComm comm, char* commName) {
    NPUSIM_FAULT_RETURN("HcclGetCommName", HcclResult);
    return comm_name(comm, commName);
}

HCOMM_EXPORT HcclResult HcclBarrier(HcclComm comm, aclrtStream stream) {
    NPUSIM_FAULT_RETURN("HcclBarrier", HcclResult);
    return barrier(comm, stream);
}

HCOMM_EXPORT HcclResult HcclGetCommAsyncError(HcclComm comm, HcclResult* asyncError) {
    NPUSIM_FAULT_RETURN("HcclGetCommAsyncError", HcclResult);
    return async_error(comm, asyncError);
}

HCOMM_EXPORT const char* HcclGetErrorString(HcclResult code) {
    (void)NPUSIM_FAULT("HcclGetErrorString");  // counted; a string result cannot carry an error code
    return error_string(code);
}

HCOMM_EXPORT HcclResult HcclSetConfig(HcclConfig config, HcclConfigValue configValue) {
    NPUSIM_FAULT_RETURN("HcclSetConfig", HcclResult);
    return set_config(config, configValue);
}

HCOMM_EXPORT HcclResult HcclGetConfig(HcclConfig config, HcclConfigValue* configValue) {
    NPUSIM_FAULT_RETURN("HcclGetConfig", HcclResult);
    return get_config(config, configValue);
}

HCOMM_EXPORT uint32_t HcclGetCommConfigCapability(void) {
    (void)NPUSIM_FAULT("HcclGetCommConfigCapability");  // counted; the result carries no error code
    return config_capability();
}

HCOMM_EXPORT HcclResult HcclGroupStart(void) {
    NPUSIM_FAULT_RETURN("HcclGroupStart", HcclResult);
    return HCCL_E_NOT_SUPPORT;
}

HCOMM_EXPORT HcclResult HcclGroupEnd(void) {
    NPUSIM_FAULT_RETURN("HcclGroupEnd", HcclResult);
    return HCCL_E_NOT_SUPPORT;
}
