/*
 * HCCL communicator management: creating communicators (root info, rank table,
 * all devices of one process), querying them, destroying them, and process-wide
 * settings. Compatible with CANN's C ABI.
 *
 * The simulator implements these in libhcomm and also exports them from libhccl,
 * so a program linked only with -lhccl resolves them as well.
 */
#ifndef NPU_SIM_HCCL_COMM_H
#define NPU_SIM_HCCL_COMM_H

#include "acl/acl.h"
#include "hccl/hccl_types.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define HCOMM_WEAK_SYMBOL __attribute__((weak))
#else
#define HCOMM_WEAK_SYMBOL
#endif

/* Creates the root info of a new communicator; the calling process hosts its rendezvous. */
extern HcclResult HcclGetRootInfo(HcclRootInfo *rootInfo) HCOMM_WEAK_SYMBOL;

/* Joins rank `rank` of an `nRanks` communicator described by `rootInfo` (blocks until all ranks joined). */
extern HcclResult HcclCommInitRootInfo(uint32_t nRanks, const HcclRootInfo *rootInfo, uint32_t rank,
                                       HcclComm *comm) HCOMM_WEAK_SYMBOL;
extern HcclResult HcclCommInitRootInfoConfig(uint32_t nRanks, const HcclRootInfo *rootInfo, uint32_t rank,
                                             const HcclCommConfig *config, HcclComm *comm) HCOMM_WEAK_SYMBOL;

/* Joins rank `rank` of the communicator a rank-table JSON file describes. */
extern HcclResult HcclCommInitClusterInfo(const char *clusterInfo, uint32_t rank, HcclComm *comm) HCOMM_WEAK_SYMBOL;
extern HcclResult HcclCommInitClusterInfoConfig(const char *clusterInfo, uint32_t rank, HcclCommConfig *config,
                                                HcclComm *comm) HCOMM_WEAK_SYMBOL;

/* One communicator over `ndev` devices of this process; comms[i] is rank i on devices[i]. */
extern HcclResult HcclCommInitAll(uint32_t ndev, int32_t *devices, HcclComm *comms) HCOMM_WEAK_SYMBOL;

/* A communicator over a subset of an existing one. */
extern HcclResult HcclCreateSubCommConfig(HcclComm *comm, uint32_t rankNum, uint32_t *rankIds, uint64_t subCommId,
                                          uint32_t subCommRankId, HcclCommConfig *config,
                                          HcclComm *subComm) HCOMM_WEAK_SYMBOL;

extern HcclResult HcclCommDestroy(HcclComm comm) HCOMM_WEAK_SYMBOL;
extern HcclResult HcclGetRankSize(HcclComm comm, uint32_t *rankSize) HCOMM_WEAK_SYMBOL;
extern HcclResult HcclGetRankId(HcclComm comm, uint32_t *rank) HCOMM_WEAK_SYMBOL;
/* Writes the communicator's name (at most COMM_NAME_MAX_LENGTH bytes with its NUL). */
extern HcclResult HcclGetCommName(HcclComm comm, char *commName) HCOMM_WEAK_SYMBOL;
extern HcclResult HcclBarrier(HcclComm comm, aclrtStream stream) HCOMM_WEAK_SYMBOL;
extern HcclResult HcclGetCommAsyncError(HcclComm comm, HcclResult *asyncError) HCOMM_WEAK_SYMBOL;
extern const char *HcclGetErrorString(HcclResult code) HCOMM_WEAK_SYMBOL;

extern HcclResult HcclSetConfig(HcclConfig config, HcclConfigValue configValue) HCOMM_WEAK_SYMBOL;
extern HcclResult HcclGetConfig(HcclConfig config, HcclConfigValue *configValue) HCOMM_WEAK_SYMBOL;
/* How many HcclCommConfig fields (HcclCommConfigCapability, in order) this library honours. */
extern uint32_t HcclGetCommConfigCapability(void) HCOMM_WEAK_SYMBOL;

/* Operation grouping (not supported by the simulator: operations run eagerly). */
extern HcclResult HcclGroupStart(void) HCOMM_WEAK_SYMBOL;
extern HcclResult HcclGroupEnd(void) HCOMM_WEAK_SYMBOL;

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* NPU_SIM_HCCL_COMM_H */
