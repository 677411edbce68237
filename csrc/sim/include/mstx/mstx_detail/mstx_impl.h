/*
 * mstx front end: the header-only implementation (included by ms_tools_ext.h
 * unless MSTX_NO_IMPL is defined).
 *
 * Every module of a program (each executable or shared object) has one front-end
 * context: a weak, hidden global, so all translation units of the module share it.
 * The context holds one live slot per API function. Before initialisation a slot
 * holds a trampoline that runs the one-time initialisation and then calls through
 * the slot again; after it, a slot holds either the tool's function or NULL. An
 * API call therefore costs one atomic load and a branch once initialised, and is
 * a no-op when no tool filled its slot.
 *
 * Initialisation (once, thread-safe): the first caller wins a compare-and-swap on
 * the context's state (0 not started, 1 running, 2 done, 3 failed); other threads
 * yield until it leaves "running". The winner reads MSTX_INJECTION_PATH, loads that
 * library with dlopen(RTLD_LAZY | RTLD_LOCAL), looks up "InitInjectionMstx" and
 * calls it with a table getter. The getter hands the tool, per module, an array of
 * pointers to the context's staging slots: entry 0 and the last entry are NULL,
 * valid ids are 1 .. size - 1, and *outSize is the array length minus one. The
 * tool stores its functions through those pointers. Finally every live slot is
 * published from its staging slot (NULL where the tool wrote nothing, everywhere
 * when there was no path, no library, no entry point or the entry point failed).
 * A call made on the initialising thread while the tool's init runs is a no-op.
 *
 * Programs using this header link with -ldl on C libraries older than glibc 2.34.
 */
#ifndef NPU_SIM_MSTX_IMPL_H
#define NPU_SIM_MSTX_IMPL_H
#ifndef MSTX_IMPL_GUARD
#error Do not include this file directly, please include ms_tools_ext.h instead(except when MSTX_NO_IMPL is defined).
#endif

#include <dlfcn.h>
#include <sched.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mstx/mstx_detail/mstx_types.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MSTX_DETAIL_STATE_NOT_STARTED 0
#define MSTX_DETAIL_STATE_RUNNING 1
#define MSTX_DETAIL_STATE_DONE 2
#define MSTX_DETAIL_STATE_FAILED 3

typedef struct mstxDetailContext_st {
    int state;
    /* Live slots, read by the API functions. */
    mstxFuncPointer core[MSTX_API_CORE_SIZE];
    mstxFuncPointer domain[MSTX_API_CORE2_SIZE];
    mstxFuncPointer mem[MSTX_API_CORE_MEM_SIZE];
    /* Staging slots, written by the tool during its init. */
    mstxFuncPointer coreStage[MSTX_API_CORE_SIZE];
    mstxFuncPointer domainStage[MSTX_API_CORE2_SIZE];
    mstxFuncPointer memStage[MSTX_API_CORE_MEM_SIZE];
    /* Pointer-to-slot tables handed to the tool (one extra NULL entry at the end). */
    mstxFuncPointer *coreTable[MSTX_API_CORE_SIZE + 1];
    mstxFuncPointer *domainTable[MSTX_API_CORE2_SIZE + 1];
    mstxFuncPointer *memTable[MSTX_API_CORE_MEM_SIZE + 1];
} mstxDetailContext;

/* ---- trampolines: first call of each function ---- */
static void mstxDetailMarkAFirst(const char *message, aclrtStream stream);
static mstxRangeId mstxDetailRangeStartAFirst(const char *message, aclrtStream stream);
static void mstxDetailRangeEndFirst(mstxRangeId id);
static void mstxDetailGetToolIdFirst(uint64_t *id);
static mstxDomainHandle_t mstxDetailDomainCreateAFirst(const char *name);
static void mstxDetailDomainDestroyFirst(mstxDomainHandle_t domain);
static void mstxDetailDomainMarkAFirst(mstxDomainHandle_t domain, const char *message, aclrtStream stream);
static mstxRangeId mstxDetailDomainRangeStartAFirst(mstxDomainHandle_t domain, const char *message, aclrtStream stream);
static void mstxDetailDomainRangeEndFirst(mstxDomainHandle_t domain, mstxRangeId id);

#define MSTX_DETAIL_FN(f) ((mstxFuncPointer)(f))

/* The module's context; the linker keeps one of the identical weak definitions. */
__attribute__((weak, visibility("hidden"))) mstxDetailContext mstxDetailCtx = {
    MSTX_DETAIL_STATE_NOT_STARTED,
    {NULL, MSTX_DETAIL_FN(mstxDetailMarkAFirst), MSTX_DETAIL_FN(mstxDetailRangeStartAFirst),
     MSTX_DETAIL_FN(mstxDetailRangeEndFirst), MSTX_DETAIL_FN(mstxDetailGetToolIdFirst)},
    {NULL, MSTX_DETAIL_FN(mstxDetailDomainCreateAFirst), MSTX_DETAIL_FN(mstxDetailDomainDestroyFirst),
     MSTX_DETAIL_FN(mstxDetailDomainMarkAFirst), MSTX_DETAIL_FN(mstxDetailDomainRangeStartAFirst),
     MSTX_DETAIL_FN(mstxDetailDomainRangeEndFirst)},
    {NULL, NULL, NULL, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL, NULL},
};

/* Set on the thread that runs the initialisation, so that a tool calling mstx from its init does not wait on itself. */
__attribute__((weak, visibility("hidden"))) __thread int mstxDetailInitThread = 0;

static inline mstxFuncPointer mstxDetailLoad(mstxFuncPointer *slot) {
    return __atomic_load_n(slot, __ATOMIC_ACQUIRE);
}

static int mstxDetailGetTable(mstxFuncModule module, mstxFuncTable *outTable, unsigned int *outSize) {
    if (outTable == NULL || outSize == NULL) return MSTX_FAIL;
    switch (module) {
        case MSTX_API_MODULE_CORE:
            *outTable = mstxDetailCtx.coreTable;
            *outSize = MSTX_API_CORE_SIZE;
            return MSTX_SUCCESS;
        case MSTX_API_MODULE_CORE_DOMAIN:
            *outTable = mstxDetailCtx.domainTable;
            *outSize = MSTX_API_CORE2_SIZE;
            return MSTX_SUCCESS;
        case MSTX_API_MODULE_CORE_MEM:
            *outTable = mstxDetailCtx.memTable;
            *outSize = MSTX_API_CORE_MEM_SIZE;
            return MSTX_SUCCESS;
        default:
            return MSTX_FAIL;
    }
}

/* The tool's entry point as the injection seam defines it: the module travels as an unsigned int
 * (seam/profapi.h). The tool is called through this type, not mstxInitInjectionFunc, so that the call's
 * type is the definition's (a call through a different function type is undefined in C++). */
typedef int (*mstxDetailSeamGetTable)(unsigned int module, mstxFuncTable *outTable, unsigned int *outSize);
typedef int (*mstxDetailSeamInit)(mstxDetailSeamGetTable getFuncTable);

static int mstxDetailSeamGetTableOf(unsigned int module, mstxFuncTable *outTable, unsigned int *outSize) {
    return mstxDetailGetTable((mstxFuncModule)module, outTable, outSize);
}

/* Loads the tool named by MSTX_INJECTION_PATH and lets it fill the staging slots; 1 on success. */
static int mstxDetailAttachTool(void) {
    const char *path = getenv("MSTX_INJECTION_PATH");
    void *library;
    void *symbol;
    mstxDetailSeamInit init;
    uint32_t i;
    if (path == NULL || path[0] == '\0') return 0;
    for (i = 1; i < MSTX_API_CORE_SIZE; ++i) mstxDetailCtx.coreTable[i] = &mstxDetailCtx.coreStage[i];
    for (i = 1; i < MSTX_API_CORE2_SIZE; ++i) mstxDetailCtx.domainTable[i] = &mstxDetailCtx.domainStage[i];
    for (i = 1; i < MSTX_API_CORE_MEM_SIZE; ++i) mstxDetailCtx.memTable[i] = &mstxDetailCtx.memStage[i];
    library = dlopen(path, RTLD_LAZY | RTLD_LOCAL);
    if (library == NULL) return 0;
    symbol = dlsym(library, "InitInjectionMstx");
    if (symbol == NULL) return 0; /* the library stays loaded: it may be in use elsewhere */
    memcpy(&init, &symbol, sizeof init);
    return init(mstxDetailSeamGetTableOf) == MSTX_SUCCESS;
}

static void mstxDetailPublish(mstxFuncPointer *live, const mstxFuncPointer *stage, uint32_t size, int attached) {
    uint32_t i;
    for (i = 1; i < size; ++i) __atomic_store_n(&live[i], attached ? stage[i] : (mstxFuncPointer)NULL, __ATOMIC_RELEASE);
}

/* Runs the initialisation once per module. Returns 1 when the live slots are final, 0 on a re-entrant call. */
static int mstxDetailInitOnce(void) {
    int expected = MSTX_DETAIL_STATE_NOT_STARTED;
    int attached;
    int state = __atomic_load_n(&mstxDetailCtx.state, __ATOMIC_ACQUIRE);
    if (state == MSTX_DETAIL_STATE_DONE || state == MSTX_DETAIL_STATE_FAILED) return 1;
    if (mstxDetailInitThread) return 0;
    if (__atomic_compare_exchange_n(&mstxDetailCtx.state, &expected, MSTX_DETAIL_STATE_RUNNING, 0, __ATOMIC_ACQ_REL,
                                    __ATOMIC_ACQUIRE)) {
        mstxDetailInitThread = 1;
        attached = mstxDetailAttachTool();
        mstxDetailPublish(mstxDetailCtx.core, mstxDetailCtx.coreStage, MSTX_API_CORE_SIZE, attached);
        mstxDetailPublish(mstxDetailCtx.domain, mstxDetailCtx.domainStage, MSTX_API_CORE2_SIZE, attached);
        mstxDetailPublish(mstxDetailCtx.mem, mstxDetailCtx.memStage, MSTX_API_CORE_MEM_SIZE, attached);
        mstxDetailInitThread = 0;
        __atomic_store_n(&mstxDetailCtx.state, attached ? MSTX_DETAIL_STATE_DONE : MSTX_DETAIL_STATE_FAILED,
                         __ATOMIC_RELEASE);
        return 1;
    }
    while (__atomic_load_n(&mstxDetailCtx.state, __ATOMIC_ACQUIRE) == MSTX_DETAIL_STATE_RUNNING) sched_yield();
    return 1;
}

/* ---- the public API ---- */

static inline void mstxMarkA(const char *message, aclrtStream stream) {
    mstxMarkAFunc fn = (mstxMarkAFunc)mstxDetailLoad(&mstxDetailCtx.core[MSTX_API_CORE_MARK_A]);
    if (fn != NULL) fn(message, stream);
}

static inline mstxRangeId mstxRangeStartA(const char *message, aclrtStream stream) {
    mstxRangeStartAFunc fn = (mstxRangeStartAFunc)mstxDetailLoad(&mstxDetailCtx.core[MSTX_API_CORE_RANGE_START_A]);
    return fn != NULL ? fn(message, stream) : 0;
}

static inline void mstxRangeEnd(mstxRangeId id) {
    mstxRangeEndFunc fn = (mstxRangeEndFunc)mstxDetailLoad(&mstxDetailCtx.core[MSTX_API_CORE_RANGE_END]);
    if (fn != NULL) fn(id);
}

static inline void mstxGetToolId(uint64_t *id) {
    mstxGetToolIdFunc fn = (mstxGetToolIdFunc)mstxDetailLoad(&mstxDetailCtx.core[MSTX_API_CORE_GET_TOOL_ID]);
    if (fn != NULL) {
        fn(id);
    } else if (id != NULL) {
        *id = MSTX_TOOL_INVALID_ID;
    }
}

static inline mstxDomainHandle_t mstxDomainCreateA(const char *name) {
    mstxDomainCreateAFunc fn =
        (mstxDomainCreateAFunc)mstxDetailLoad(&mstxDetailCtx.domain[MSTX_API_CORE2_DOMAIN_CREATE_A]);
    return fn != NULL ? fn(name) : (mstxDomainHandle_t)NULL;
}

static inline void mstxDomainDestroy(mstxDomainHandle_t domain) {
    mstxDomainDestroyFunc fn =
        (mstxDomainDestroyFunc)mstxDetailLoad(&mstxDetailCtx.domain[MSTX_API_CORE2_DOMAIN_DESTROY]);
    if (fn != NULL) fn(domain);
}

static inline void mstxDomainMarkA(mstxDomainHandle_t domain, const char *message, aclrtStream stream) {
    mstxDomainMarkAFunc fn = (mstxDomainMarkAFunc)mstxDetailLoad(&mstxDetailCtx.domain[MSTX_API_CORE2_DOMAIN_MARK_A]);
    if (fn != NULL) fn(domain, message, stream);
}

static inline mstxRangeId mstxDomainRangeStartA(mstxDomainHandle_t domain, const char *message, aclrtStream stream) {
    mstxDomainRangeStartAFunc fn =
        (mstxDomainRangeStartAFunc)mstxDetailLoad(&mstxDetailCtx.domain[MSTX_API_CORE2_DOMAIN_RANGE_START_A]);
    return fn != NULL ? fn(domain, message, stream) : 0;
}

static inline void mstxDomainRangeEnd(mstxDomainHandle_t domain, mstxRangeId id) {
    mstxDomainRangeEndFunc fn =
        (mstxDomainRangeEndFunc)mstxDetailLoad(&mstxDetailCtx.domain[MSTX_API_CORE2_DOMAIN_RANGE_END]);
    if (fn != NULL) fn(domain, id);
}

/* ---- trampolines ---- */

static void mstxDetailMarkAFirst(const char *message, aclrtStream stream) {
    if (mstxDetailInitOnce()) mstxMarkA(message, stream);
}
static mstxRangeId mstxDetailRangeStartAFirst(const char *message, aclrtStream stream) {
    return mstxDetailInitOnce() ? mstxRangeStartA(message, stream) : 0;
}
static void mstxDetailRangeEndFirst(mstxRangeId id) {
    if (mstxDetailInitOnce()) mstxRangeEnd(id);
}
static void mstxDetailGetToolIdFirst(uint64_t *id) {
    if (mstxDetailInitOnce()) {
        mstxGetToolId(id);
    } else if (id != NULL) {
        *id = MSTX_TOOL_INVALID_ID;
    }
}
static mstxDomainHandle_t mstxDetailDomainCreateAFirst(const char *name) {
    return mstxDetailInitOnce() ? mstxDomainCreateA(name) : (mstxDomainHandle_t)NULL;
}
static void mstxDetailDomainDestroyFirst(mstxDomainHandle_t domain) {
    if (mstxDetailInitOnce()) mstxDomainDestroy(domain);
}
static void mstxDetailDomainMarkAFirst(mstxDomainHandle_t domain, const char *message, aclrtStream stream) {
    if (mstxDetailInitOnce()) mstxDomainMarkA(domain, message, stream);
}
static mstxRangeId mstxDetailDomainRangeStartAFirst(mstxDomainHandle_t domain, const char *message, aclrtStream stream) {
    return mstxDetailInitOnce() ? mstxDomainRangeStartA(domain, message, stream) : 0;
}
static void mstxDetailDomainRangeEndFirst(mstxDomainHandle_t domain, mstxRangeId id) {
    if (mstxDetailInitOnce()) mstxDomainRangeEnd(domain, id);
}

#undef MSTX_DETAIL_FN

#ifdef __cplusplus
}
#endif

#endif /* NPU_SIM_MSTX_IMPL_H */
