/*
 * mstx front end: types, constants and the module / slot ids of the injection
 * tables (the ids are an ABI shared with every tool that fills the tables).
 */
#ifndef NPU_SIM_MSTX_TYPES_H
#define NPU_SIM_MSTX_TYPES_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef uint64_t mstxRangeId;                                  /* 0: not recorded */
#ifndef NPU_SIM_ACL_BASE_H /* acl/acl_base.h declares the same type */
typedef void *aclrtStream;
#endif
typedef struct mstxDomainRegistration_st mstxDomainRegistration_t;
typedef mstxDomainRegistration_t *mstxDomainHandle_t;

#define MSTX_SUCCESS 0
#define MSTX_FAIL 1

/* Ids a tool reports through mstxGetToolId. */
#define MSTX_TOOL_INVALID_ID 0x0ULL
#define MSTX_TOOL_MSPROF_ID 0x1000ULL
#define MSTX_TOOL_MSOPPROF_ID 0x1001ULL
#define MSTX_TOOL_MSSANITIZER_ID 0x1002ULL
#define MSTX_TOOL_MSLEAKS_ID 0x1003ULL

/*
 * Injection table modules and slot ids. The simulator's internal seam header
 * (seam/mstx_table.h) defines the module, CORE and CORE_DOMAIN ids as macros with the
 * same names and values; when it was included first, only the type names are declared.
 */
#ifndef SEAM_MSTX_TABLE_H
typedef enum {
    MSTX_API_MODULE_INVALID = 0,
    MSTX_API_MODULE_CORE = 1,
    MSTX_API_MODULE_CORE_DOMAIN = 2,
    MSTX_API_MODULE_CORE_MEM = 3,
    MSTX_API_MODULE_SIZE = 4
} mstxFuncModule;

/* Slots of the CORE module (valid ids 1 .. MSTX_API_CORE_SIZE - 1). */
typedef enum {
    MSTX_API_CORE_INVALID = 0,
    MSTX_API_CORE_MARK_A = 1,
    MSTX_API_CORE_RANGE_START_A = 2,
    MSTX_API_CORE_RANGE_END = 3,
    MSTX_API_CORE_GET_TOOL_ID = 4,
    MSTX_API_CORE_SIZE = 5
} mstxImplCoreFuncId;

/* Slots of the CORE_DOMAIN module. */
typedef enum {
    MSTX_API_CORE2_INVALID = 0,
    MSTX_API_CORE2_DOMAIN_CREATE_A = 1,
    MSTX_API_CORE2_DOMAIN_DESTROY = 2,
    MSTX_API_CORE2_DOMAIN_MARK_A = 3,
    MSTX_API_CORE2_DOMAIN_RANGE_START_A = 4,
    MSTX_API_CORE2_DOMAIN_RANGE_END = 5,
    MSTX_API_CORE2_SIZE = 6
} mstxImplCoreDomainFuncId;
#else
typedef uint32_t mstxFuncModule;
typedef uint32_t mstxImplCoreFuncId;
typedef uint32_t mstxImplCoreDomainFuncId;
#endif

/* Slots of the CORE_MEM module (the front end offers the table; this header declares no memory API). */
typedef enum {
    MSTX_API_CORE_MEM_INVALID = 0,
    MSTX_API_CORE_MEM_HEAP_REGISTER = 1,
    MSTX_API_CORE_MEM_HEAP_UNREGISTER = 2,
    MSTX_API_CORE_MEM_REGIONS_REGISTER = 3,
    MSTX_API_CORE_MEM_REGIONS_UNREGISTER = 4,
    MSTX_API_CORE_MEM_SIZE = 5
} mstxImplCoreMemFuncId;

/* What a tool writes into a slot, and the table getter it is handed. */
typedef void (*mstxFuncPointer)(void);
typedef int (*mstxGetModuleFuncTableFunc)(uint32_t module, mstxFuncPointer ***outTable, uint32_t *outSize);
/* The entry point a tool library exports under the name "InitInjectionMstx". */
typedef int (*mstxInitInjectionFunc)(mstxGetModuleFuncTableFunc getFuncTable);

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

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_MSTX_TYPES_H */
