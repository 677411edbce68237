// hccl_comm.h entry points exported by libhccl as well (the implementation is libhcomm's),
// so that programs and profilers that know only libhccl find them.
#include "core/fault_plan.h"
#include "export.h"
#include "hccl/hccl_comm.h"
#include "hcomm/comm_api.h"

namespace hc = npusim::hcomm;

HCCL_EXPORT HcclResult HcclGetRootInfo(HcclRootInfo* rootInfo) {
    NPUSIM_FAULT_RETURN("HcclGetRootInfo", HcclResult);
    return hc::get_root_info(rootInfo);
}

HCCL_EXPORT HcclResult HcclCommInitRootInfo(uint32_t nRanks, const HcclRootInfo* rootInfo, uint32_t rank,
                                            HcclComm* comm) {
    NPUSIM_FAULT_RETURN("HcclCommInitRootInfo", HcclResult);
    return hc::init_root_info(nRanks, rootInfo, rank, nullptr, comm);
}

HCCL_EXPORT HcclResult HcclCommInitRootInfoConfig(uint32_t nRanks, const HcclRootInfo* rootInfo, uint32_t rank,
                                                  const HcclCommConfig* config, HcclComm* comm) {
    NPUSIM_FAULT_RETURN("HcclCommInitRootInfoConfig", HcclResult);
    return hc::init_root_info(nRanks, rootInfo, rank, config, comm);
}

HCCL_EXPORT HcclResult HcclCommInitClusterInfo(const char* clusterInfo, uint32_t rank, HcclComm* comm) {
    NPUSIM_FAULT_RETURN("HcclCommInitClusterInfo", HcclResult);
    return hc::init_cluster_info(clusterInfo, rank, nullptr, comm);
}

HCCL_EXPORT HcclResult HcclCommInitClusterInfoConfig(const char* clusterInfo, uint32_t rank, HcclCommConfig* config,
                                                     HcclComm* comm) {
    NPUSIM_FAULT_RETURN("HcclCommInitClusterInfoConfig", HcclResult);
    return hc::init_cluster_info(clusterInfo, rank, config, comm);
}

HCCL_EXPORT HcclResult HcclCommInitAll(uint32_t ndev, int32_t* devices, HcclComm* comms) {
    NPUSIM_FAULT_RETURN("HcclCommInitAll", HcclResult);
    return hc::init_all(ndev, devices, comms);
}

HCCL_EXPORT HcclResult HcclCreateSubCommConfig(HcclComm* comm, uint32_t rankNum, uint32_t* rankIds, uint64_t subCommId,
                                               uint32_t subCommRankId, HcclCommConfig* config, HcclComm* subComm) {
    NPUSIM_FAULT_RETURN("HcclCreateSubCommConfig", HcclResult);
    (void)comm, (void)rankNum, (void)rankIds, (void)subCommId, (void)subCommRankId, (void)config, (void)subComm;
    return HCCL_E_NOT_SUPPORT;
}

HCCL_EXPORT HcclResult HcclCommDestroy(HcclComm comm) {
    NPUSIM_FAULT_RETURN("HcclCommDestroy", HcclResult);
    return hc::destroy_comm(comm);
}

HCCL_EXPORT HcclResult HcclGetRankSize(HcclComm comm, uint32_t* rankSize) {
    NPUSIM_FAULT_RETURN("HcclGetRankSize", HcclResult);
    return hc::rank_size(comm, rankSize);
}

HCCL_EXPORT HcclResult HcclGetRankId(HcclComm comm, uint32_t* rank) {
    NPUSIM_FAULT_RETURN("HcclGetRankId", HcclResult);
    return hc::rank_id(comm, rank);
}

HCCL_EXPORT HcclResult HcclGetCommName(HcclComm comm, char* commName) {
    NPUSIM_FAULT_RETURN("HcclGetCommName", HcclResult);
    return hc::comm_name(comm, commName);
}

HCCL_EXPORT uint32_t HcclGetCommConfigCapability(void) {
    (void)NPUSIM_FAULT("HcclGetCommConfigCapability");  // counted; the result carries no error code
    return hc::config_capability();
}

HCCL_EXPORT HcclResult HcclBarrier(HcclComm comm, aclrtStream stream) {
    NPUSIM_FAULT_RETURN("HcclBarrier", HcclResult);
    return hc::barrier(comm, stream);
}

HCCL_EXPORT HcclResult HcclGetCommAsyncError(HcclComm comm, HcclResult* asyncError) {
    NPUSIM_FAULT_RETURN("HcclGetCommAsyncError", HcclResult);
    return hc::async_error(comm, asyncError);
}

HCCL_EXPORT const char* HcclGetErrorString(HcclResult code) {
    (void)NPUSIM_FAULT("HcclGetErrorString");  // counted; a string result cannot carry an error code
    return hc::error_string(code);
}

HCCL_EXPORT HcclResult HcclSetConfig(HcclConfig config, HcclConfigValue configValue) {
    NPUSIM_FAULT_RETURN("HcclSetConfig", HcclResult);
    return hc::set_config(config, configValue);
}

HCCL_EXPORT HcclResult HcclGetConfig(HcclConfig config, HcclConfigValue* configValue) {
    NPUSIM_FAULT_RETURN("HcclGetConfig", HcclResult);
    return hc::get_config(config, configValue);
}

HCCL_EXPORT HcclResult HcclGroupStart(void) {
    NPUSIM_FAULT_RETURN("HcclGroupStart", HcclResult);
    return HCCL_E_NOT_SUPPORT;
}

HCCL_EXPORT HcclResult HcclGroupEnd(void) {
    NPUSIM_FAULT_RETURN("HcclGroupEnd", HcclResult);
    return HCCL_E_NOT_SUPPORT;
}
