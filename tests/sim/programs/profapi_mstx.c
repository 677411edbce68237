/*
 * libprofapi as the mstx injection hub: a fake mstx front end (the slot tables
 * an application's header-only mstx code keeps) and fake tools for the msprof
 * (1) and msPTI (2) modules. Every call that reaches a tool is printed.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "seam/mstx_table.h"
#include "seam/profapi.h"

typedef void (*MarkAFn)(const char*, void*);
typedef uint64_t (*RangeStartAFn)(const char*, void*);
typedef void (*RangeEndFn)(uint64_t);
typedef void (*GetToolIdFn)(uint64_t*);
typedef void* (*DomainCreateAFn)(const char*);
typedef void (*DomainDestroyFn)(void*);
typedef void (*DomainMarkAFn)(void*, const char*, void*);
typedef uint64_t (*DomainRangeStartAFn)(void*, const char*, void*);
typedef void (*DomainRangeEndFn)(void*, uint64_t);

/* ---- the front end: function slots plus pointer-to-slot tables, null at both ends ---- */
static struct {
    MarkAFn markA;
    RangeStartAFn rangeStartA;
    RangeEndFn rangeEnd;
    GetToolIdFn getToolId;
    DomainCreateAFn domainCreateA;
    DomainDestroyFn domainDestroy;
    DomainMarkAFn domainMarkA;
    DomainRangeStartAFn domainRangeStartA;
    DomainRangeEndFn domainRangeEnd;
} fe;

static MstxFuncPointer* fe_core[MSTX_API_CORE_SIZE + 1] = {0,
                                                           (MstxFuncPointer*)&fe.markA,
                                                           (MstxFuncPointer*)&fe.rangeStartA,
                                                           (MstxFuncPointer*)&fe.rangeEnd,
                                                           (MstxFuncPointer*)&fe.getToolId,
                                                           0};
static MstxFuncPointer* fe_domain[MSTX_API_CORE2_SIZE + 1] = {0,
                                                              (MstxFuncPointer*)&fe.domainCreateA,
                                                              (MstxFuncPointer*)&fe.domainDestroy,
                                                              (MstxFuncPointer*)&fe.domainMarkA,
                                                              (MstxFuncPointer*)&fe.domainRangeStartA,
                                                              (MstxFuncPointer*)&fe.domainRangeEnd,
                                                              0};

static int fe_get_table(uint32_t module, MstxFuncPointer*** table, uint32_t* size) {
    switch (module) {
        case MSTX_API_MODULE_CORE:
            *table = fe_core;
            *size = MSTX_API_CORE_SIZE;
            return 0;
        case MSTX_API_MODULE_CORE_DOMAIN:
            *table = fe_domain;
            *size = MSTX_API_CORE2_SIZE;
            return 0;
        default: return 1;
    }
}

/* Front-end calls: a slot left null is a no-op, as in the real front end. */
static void mark(const char* m, void* s) {
    if (fe.markA) fe.markA(m, s);
}
static uint64_t range_start(const char* m, void* s) { return fe.rangeStartA ? fe.rangeStartA(m, s) : 0; }
static void range_end(uint64_t id) {
    if (fe.rangeEnd) fe.rangeEnd(id);
}
static void* domain_create(const char* n) { return fe.domainCreateA ? fe.domainCreateA(n) : NULL; }
static void domain_destroy(void* d) {
    if (fe.domainDestroy) fe.domainDestroy(d);
}
static void domain_mark(void* d, const char* m, void* s) {
    if (fe.domainMarkA) fe.domainMarkA(d, m, s);
}
static uint64_t domain_range_start(void* d, const char* m, void* s) {
    return fe.domainRangeStartA ? fe.domainRangeStartA(d, m, s) : 0;
}
static void domain_range_end(void* d, uint64_t id) {
    if (fe.domainRangeEnd) fe.domainRangeEnd(d, id);
}

/* ---- the tools: module 1 prints "msprof", module 2 "mspti"; their domain handles name their owner ---- */
struct ToolDomain {
    char owner[8];
    char name[32];
};
static struct ToolDomain g_domains[16];
static int g_domain_count;
static uint64_t g_next_range = 100;

static const char* dname(void* d) {
    static char buf[64];
    if (d == NULL) return "(null)";
    const struct ToolDomain* td = (const struct ToolDomain*)d;
    snprintf(buf, sizeof buf, "%s:%s", td->owner, td->name);
    return buf;
}

#define TOOL(prefix, label)                                                                                      \
    static void prefix##_markA(const char* m, void* s) { printf(label " markA %s %p\n", m, s); }                 \
    static uint64_t prefix##_rangeStartA(const char* m, void* s) {                                               \
        printf(label " rangeStartA %s %p -> %llu\n", m, s, (unsigned long long)g_next_range);                    \
        return g_next_range++;                                                                                   \
    }                                                                                                            \
    static void prefix##_rangeEnd(uint64_t id) { printf(label " rangeEnd %llu\n", (unsigned long long)id); }     \
    static void* prefix##_domainCreateA(const char* n) {                                                         \
        if (strcmp(n, "default") == 0) {                                                                         \
            printf(label " domainCreateA %s -> (null)\n", n);                                                    \
            return NULL;                                                                                         \
        }                                                                                                        \
        struct ToolDomain* d = &g_domains[g_domain_count++];                                                     \
        snprintf(d->owner, sizeof d->owner, "%s", label);                                                        \
        snprintf(d->name, sizeof d->name, "%s", n);                                                              \
        printf(label " domainCreateA %s -> %s\n", n, dname(d));                                                  \
        return d;                                                                                                \
    }                                                                                                            \
    static void prefix##_domainDestroy(void* d) { printf(label " domainDestroy %s\n", dname(d)); }               \
    static void prefix##_domainMarkA(void* d, const char* m, void* s) {                                          \
        printf(label " domainMarkA %s %s %p\n", dname(d), m, s);                                                 \
    }                                                                                                            \
    static uint64_t prefix##_domainRangeStartA(void* d, const char* m, void* s) {                                \
        printf(label " domainRangeStartA %s %s %p -> %llu\n", dname(d), m, s, (unsigned long long)g_next_range); \
        return g_next_range++;                                                                                   \
    }                                                                                                            \
    static void prefix##_domainRangeEnd(void* d, uint64_t id) {                                                  \
        printf(label " domainRangeEnd %s %llu\n", dname(d), (unsigned long long)id);                             \
    }                                                                                                            \
    static int prefix##_init(MstxGetModuleFuncTableFunc get) {                                                   \
        MstxFuncPointer** t = NULL;                                                                              \
        uint32_t n = 0;                                                                                          \
        printf(label " init\n");                                                                                 \
        if (get(MSTX_API_MODULE_CORE, &t, &n) != 0 || n != MSTX_API_CORE_SIZE || t[0] || t[n]) return 1;         \
        *t[MSTX_API_CORE_MARK_A] = (MstxFuncPointer)prefix##_markA;                                              \
        *t[MSTX_API_CORE_RANGE_START_A] = (MstxFuncPointer)prefix##_rangeStartA;                                 \
        *t[MSTX_API_CORE_RANGE_END] = (MstxFuncPointer)prefix##_rangeEnd;                                        \
        if (get(MSTX_API_MODULE_CORE_DOMAIN, &t, &n) != 0 || n != MSTX_API_CORE2_SIZE || t[0] || t[n]) return 1; \
        *t[MSTX_API_CORE2_DOMAIN_CREATE_A] = (MstxFuncPointer)prefix##_domainCreateA;                            \
        *t[MSTX_API_CORE2_DOMAIN_DESTROY] = (MstxFuncPointer)prefix##_domainDestroy;                             \
        *t[MSTX_API_CORE2_DOMAIN_MARK_A] = (MstxFuncPointer)prefix##_domainMarkA;                                \
        *t[MSTX_API_CORE2_DOMAIN_RANGE_START_A] = (MstxFuncPointer)prefix##_domainRangeStartA;                   \
        *t[MSTX_API_CORE2_DOMAIN_RANGE_END] = (MstxFuncPointer)prefix##_domainRangeEnd;                          \
        printf(label " other module -> %d\n", get(MSTX_API_MODULE_CORE_MEM, &t, &n));                            \
        return 0;                                                                                                \
    }

TOOL(pti, "mspti")
TOOL(prof, "msprof")

/* A tool that only marks: it has no domainCreateA, so domain calls cannot be translated for it. */
static void markonly_markA(const char* m, void* s) { printf("markonly markA %s %p\n", m, s); }
static void markonly_domainMarkA(void* d, const char* m, void* s) {
    printf("markonly domainMarkA %s %s %p\n", dname(d), m, s);
}
static int markonly_init(MstxGetModuleFuncTableFunc get) {
    MstxFuncPointer** t = NULL;
    uint32_t n = 0;
    get(MSTX_API_MODULE_CORE, &t, &n);
    *t[MSTX_API_CORE_MARK_A] = (MstxFuncPointer)markonly_markA;
    get(MSTX_API_MODULE_CORE_DOMAIN, &t, &n);
    *t[MSTX_API_CORE2_DOMAIN_MARK_A] = (MstxFuncPointer)markonly_domainMarkA;
    return 0;
}

static int never_init(MstxGetModuleFuncTableFunc get) {
    (void)get;
    printf("never init\n");
    return 0;
}

static void* const S = (void*)0x10;

static int routing(void) {
    printf("inject=%d\n", InitInjectionMstx(fe_get_table));
    printf("slots core=%d%d%d tool_id=%d domain=%d%d%d%d%d\n", fe.markA != NULL, fe.rangeStartA != NULL,
           fe.rangeEnd != NULL, fe.getToolId != NULL, fe.domainCreateA != NULL, fe.domainDestroy != NULL,
           fe.domainMarkA != NULL, fe.domainRangeStartA != NULL, fe.domainRangeEnd != NULL);
    printf("inject null=%d\n", InitInjectionMstx(NULL));

    printf("-- no tool\n");
    mark("m0", S);
    printf("range=%llu\n", (unsigned long long)range_start("r0", NULL));
    range_end(1);
    void* d1 = domain_create("d1");
    printf("d1 set=%d\n", d1 != NULL);
    domain_mark(d1, "dm0", NULL);
    printf("drange=%llu\n", (unsigned long long)domain_range_start(d1, "dr0", NULL));

    printf("-- attach mspti\n");
    ProfRegisterMstxFunc(pti_init, PROF_MODULE_MSPTI);
    mark("m1", S); /* msprof (module 1) is still current and has no tool */

    printf("-- enable mspti\n");
    ProfEnableMstxFunc(PROF_MODULE_MSPTI);
    mark("m2", S);
    const uint64_t r = range_start("r2", NULL);
    printf("range=%llu\n", (unsigned long long)r);
    range_end(r);
    domain_mark(d1, "dm2", S); /* d1 was created before mspti was current: created now */
    const uint64_t dr = domain_range_start(d1, "dr2", NULL);
    domain_range_end(d1, dr);
    void* d2 = domain_create("d2"); /* the current tool learns of it at once */
    printf("d2 distinct=%d\n", d2 != NULL && d2 != d1);
    void* dd = domain_create("default");
    domain_mark(dd, "dm-default", NULL);
    domain_mark(NULL, "dm-null", NULL);
    domain_destroy(d2);
    domain_mark(d2, "dm-destroyed", NULL);
    printf("drange destroyed=%llu\n", (unsigned long long)domain_range_start(d2, "dr", NULL));
    domain_destroy(d2);
    domain_mark((void*)0xdead, "dm-foreign", NULL);
    domain_mark((void*)(uintptr_t)0x300000001ULL, "dm-forged", NULL);
    domain_range_end((void*)0xbeef, 5);
    domain_destroy((void*)0xdead);
    void* d3 = domain_create("d3"); /* may reuse d2's slot: the handle still differs */
    printf("d3 differs from d2=%d\n", d3 != d2);
    domain_mark(d2, "dm-stale", NULL);
    domain_mark(d3, "dm3", NULL);

    printf("-- enable msprof (no tool)\n");
    ProfEnableMstxFunc(PROF_MODULE_MSPROF);
    mark("m3", S);
    printf("range=%llu\n", (unsigned long long)range_start("r3", NULL));
    domain_mark(d1, "dm3", NULL);

    printf("-- attach msprof\n");
    ProfRegisterMstxFunc(prof_init, PROF_MODULE_MSPROF);
    mark("m4", NULL);
    domain_mark(d1, "dm4", NULL); /* msprof gets its own handle for d1 */
    domain_mark(d1, "dm4b", NULL);

    printf("-- back to mspti\n");
    ProfEnableMstxFunc(PROF_MODULE_MSPTI);
    domain_mark(d1, "dm5", NULL); /* mspti's handle, created earlier */
    domain_destroy(d1);
    printf("-- msprof after destroy\n");
    ProfEnableMstxFunc(PROF_MODULE_MSPROF);
    domain_mark(d1, "dm6", NULL);

    printf("-- invalid modules\n");
    ProfEnableMstxFunc(0);
    ProfEnableMstxFunc(3);
    mark("m7", NULL); /* still msprof */
    ProfRegisterMstxFunc(never_init, 0);
    ProfRegisterMstxFunc(never_init, 3);
    ProfRegisterMstxFunc(NULL, PROF_MODULE_MSPTI);
    ProfEnableMstxFunc(PROF_MODULE_MSPTI);
    mark("m8", NULL); /* mspti's table survived the null registration */

    printf("-- replace mspti with a mark-only tool\n");
    ProfRegisterMstxFunc(markonly_init, PROF_MODULE_MSPTI);
    mark("m9", NULL);
    printf("range=%llu\n", (unsigned long long)range_start("r9", NULL));
    void* d4 = domain_create("d4");
    domain_mark(d4, "dm9", NULL);  /* no domainCreateA in this table: not translatable, ignored */
    domain_mark(NULL, "dm9-null", NULL);
    printf("-- end\n");
    return 0;
}

int main(int argc, char** argv) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    const char* mode = argc > 1 ? argv[1] : "";
    if (strcmp(mode, "routing") == 0) return routing();
    fprintf(stderr, "unknown mode '%s'\n", mode);
    return 2;
}
