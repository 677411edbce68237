/*
 * mstx front end: the module / slot ids of the injection tables and the function types. Included
 * by ms_tools_ext.h only, as CANN's (which refuses a direct include).
 */
#ifndef NPU_SIM_MSTX_TYPES_H
#define NPU_SIM_MSTX_TYPES_H
#ifndef MSTX_IMPL_GUARD
#error Do not include this file directly, please include ms_tools_ext.h instead.
#endif

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Injection table modules and slot ids (an ABI shared with every tool that fills the tables). */
typedef enum mstxFuncModule {
    MSTX_API_MODULE_INVALID = 0,
    MSTX_API_MODULE_CORE = 1,
    MSTX_API_MODULE_CORE_DOMAIN = 2,
    MSTX_API_MODULE_CORE_MEM = 3,
    MSTX_API_MODULE_SIZE = 4,
    MSTX_API_MODULE_FORCE_INT = 0x7fffffff
} mstxFuncModule;

/* Slots of the CORE_MEM module (the front end offers the table; the memory API is not simulated). */
typedef enum mstxImplCoreMemFuncId {
    MSTX_API_CORE_MEM_INVALID = 0,
    MSTX_API_CORE_MEMHEAP_REGISTER = 1,
    MSTX_API_CORE_MEMHEAP_UNREGISTER = 2,
    MSTX_API_CORE_MEM_REGIONS_REGISTER = 3,
    MSTX_API_CORE_MEM_REGIONS_UNREGISTER = 4,
    MSTX_API_CORE_MEM_PERMISSIONS_ASSIGN = 5,
    MSTX_API_CORE_MEM_SIZE = 6,
    MSTX_API_CORE_MEM_FORCE_INT = 0x7fffffff
} mstxImplCoreMemFuncId;

/* Slots of the CORE module (valid ids 1 .. MSTX_API_CORE_SIZE - 1). */
typedef enum mstxImplCoreFuncId {
    MSTX_API_CORE_INVALID = 0,
    MSTX_API_CORE_MARK_A = 1,
    MSTX_API_CORE_RANGE_START_A = 2,
    MSTX_API_CORE_RANGE_END = 3,
    MSTX_API_CORE_GET_TOOL_ID = 4,
    MSTX_API_CORE_SIZE = 5,
    MSTX_API_CORE_FORCE_INT = 0x7fffffff
} mstxImplCoreFuncId;

/* Slots of the CORE_DOMAIN module. */
typedef enum mstxImplCoreDomainFuncId {
    MSTX_API_CORE2_INVALID = 0,
    MSTX_API_CORE2_DOMAIN_CREATE_A = 1,
    MSTX_API_CORE2_DOMAIN_DESTROY = 2,
    MSTX_API_CORE2_DOMAIN_MARK_A = 3,
    MSTX_API_CORE2_DOMAIN_RANGE_START_A = 4,
    MSTX_API_CORE2_DOMAIN_RANGE_END = 5,
    MSTX_API_CORE2_SIZE = 6,
    MSTX_API_CORE2_FORCE_INT = 0x7fffffff
} mstxImplCoreDomainFuncId;

/* Signatures of the slots. */
typedef void (*mstxMarkAFunc)(const char *message, aclrtStream stream);
typedef mstxRangeId (*mstxRangeStartAFunc)(const char *message, aclrtStream stream);
typedef void (*mstxRangeEndFunc)(mstxRangeId id);
typedef void (*mstxGetToolIdFunc)(uint64_t *id);
typedef mstxDomainHandle_t (*mstxDomainCreateAFunc)(const char *name);
typedef void (*mstxDomainDestroyFunc)(mstxDomainHandle_t domain);
typedef void (*mstxDomainMarkAFunc)(mstxDomainHandle_t domain, const char *message, aclrtStream stream);
typedef mstxRangeId (*mstxDomainRangeStartAFunc)(mstxDomainHandle_t domain, const char *message, aclrtStream stream);
typedef void (*mstxDomainRangeEndFunc)(mstxDomainHandle_t domain, mstxRangeId id);

/* What a tool writes into a slot, the table getter it is handed, and the entry point a tool library
 * exports under the name "InitInjectionMstx". */
typedef void (*mstxFuncPointer)(void);
typedef mstxFuncPointer **mstxFuncTable;
typedef int (*mstxGetModuleFuncTableFunc)(mstxFuncModule module, mstxFuncTable *outTable, unsigned int *outSize);
typedef int (*mstxInitInjectionFunc)(mstxGetModuleFuncTableFunc getFuncTable);

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_MSTX_TYPES_H */
