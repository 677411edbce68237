/* The mstx front end (header-only) routed through libprofapi to a tool.
 *
 *   mstx_frontend tool     a fake tool registers with libprofapi (ProfRegisterMstxFunc(init, 2) +
 *                          ProfEnableMstxFunc(2)); every mstx call is then printed by the tool;
 *                          after ProfEnableMstxFunc(1) calls reach nobody
 *   mstx_frontend plain    no tool: every call is a no-op (range ids 0, domain NULL, tool id 0)
 *   mstx_frontend threads  a tool, then 8 threads race into the first mstx call: all marks arrive
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "mstx/ms_tools_ext.h"
#include "seam/profapi.h"

static struct {
    int marks;
    pthread_mutex_t lock;
} g_tool = {0, PTHREAD_MUTEX_INITIALIZER};

struct FakeDomain {
    char name[64];
};
static struct FakeDomain g_domains[4];
static int g_domain_count;

static void tool_mark(const char* message, aclrtStream stream) {
    pthread_mutex_lock(&g_tool.lock);
    if (++g_tool.marks <= 4) printf("tool markA %s stream=%p\n", message, stream);
    pthread_mutex_unlock(&g_tool.lock);
}
static mstxRangeId tool_range_start(const char* message, aclrtStream stream) {
    printf("tool rangeStartA %s stream=%p\n", message, stream);
    return 42;
}
static void tool_range_end(mstxRangeId id) { printf("tool rangeEnd %llu\n", (unsigned long long)id); }
static void* tool_domain_create(const char* name) {
    struct FakeDomain* d = &g_domains[g_domain_count++ % 4];
    snprintf(d->name, sizeof d->name, "%s", name);
    printf("tool domainCreateA %s\n", name);
    return d;
}
static void tool_domain_destroy(void* domain) {
    printf("tool domainDestroy %s\n", domain ? ((struct FakeDomain*)domain)->name : "(null)");
}
static void tool_domain_mark(void* domain, const char* message, aclrtStream stream) {
    printf("tool domainMarkA %s %s stream=%p\n", domain ? ((struct FakeDomain*)domain)->name : "(null)", message,
           stream);
}
static mstxRangeId tool_domain_range_start(void* domain, const char* message, aclrtStream stream) {
    printf("tool domainRangeStartA %s %s stream=%p\n", domain ? ((struct FakeDomain*)domain)->name : "(null)", message,
           stream);
    return 77;
}
static void tool_domain_range_end(void* domain, mstxRangeId id) {
    printf("tool domainRangeEnd %s %llu\n", domain ? ((struct FakeDomain*)domain)->name : "(null)",
           (unsigned long long)id);
}

static void put(MstxFuncPointer** table, uint32_t size, uint32_t id, void* fn) {
    if (id < size && table[id] != NULL) memcpy(table[id], &fn, sizeof fn);
}

static int tool_init(MstxGetModuleFuncTableFunc get) {
    MstxFuncPointer** table = NULL;
    uint32_t size = 0;
    if (get(MSTX_API_MODULE_CORE, &table, &size) != 0) return 1;
    put(table, size, MSTX_API_CORE_MARK_A, (void*)tool_mark);
    put(table, size, MSTX_API_CORE_RANGE_START_A, (void*)tool_range_start);
    put(table, size, MSTX_API_CORE_RANGE_END, (void*)tool_range_end);
    if (get(MSTX_API_MODULE_CORE_DOMAIN, &table, &size) != 0) return 1;
    put(table, size, MSTX_API_CORE2_DOMAIN_CREATE_A, (void*)tool_domain_create);
    put(table, size, MSTX_API_CORE2_DOMAIN_DESTROY, (void*)tool_domain_destroy);
    put(table, size, MSTX_API_CORE2_DOMAIN_MARK_A, (void*)tool_domain_mark);
    put(table, size, MSTX_API_CORE2_DOMAIN_RANGE_START_A, (void*)tool_domain_range_start);
    put(table, size, MSTX_API_CORE2_DOMAIN_RANGE_END, (void*)tool_domain_range_end);
    return 0;
}

static void* marker_thread(void* arg) {
    (void)arg;
    for (int i = 0; i < 200; ++i) mstxMarkA("t", NULL);
    return NULL;
}

static void workload(void) {
    aclrtStream stream = (aclrtStream)0x1234;
    uint64_t tool_id = 99;
    mstxMarkA("first", NULL);
    mstxMarkA("on-stream", stream);
    mstxRangeId r = mstxRangeStartA("range", NULL);
    printf("range id %llu\n", (unsigned long long)r);
    mstxRangeEnd(r);
    mstxDomainHandle_t d = mstxDomainCreateA("dom");
    printf("domain %s\n", d == NULL ? "null" : "handle");
    mstxDomainMarkA(d, "dmark", NULL);
    mstxRangeId dr = mstxDomainRangeStartA(d, "drange", stream);
    printf("domain range id %llu\n", (unsigned long long)dr);
    mstxDomainRangeEnd(d, dr);
    mstxDomainDestroy(d);
    mstxGetToolId(&tool_id);
    printf("tool id %llu\n", (unsigned long long)tool_id);
}

int main(int argc, char** argv) {
    const char* mode = argc > 1 ? argv[1] : "plain";
    if (strcmp(mode, "tool") == 0 || strcmp(mode, "threads") == 0) {
        ProfRegisterMstxFunc(tool_init, PROF_MODULE_MSPTI);
        ProfEnableMstxFunc(PROF_MODULE_MSPTI);
    }
    if (strcmp(mode, "threads") == 0) {
        pthread_t threads[8];
        for (int i = 0; i < 8; ++i) pthread_create(&threads[i], NULL, marker_thread, NULL);
        for (int i = 0; i < 8; ++i) pthread_join(threads[i], NULL);
        printf("marks %d\n", g_tool.marks);
        return 0;
    }
    workload();
    if (strcmp(mode, "tool") == 0) {
        ProfEnableMstxFunc(PROF_MODULE_MSPROF);
        mstxMarkA("after-switch", NULL);
        printf("marks %d\n", g_tool.marks);
    }
    printf("end\n");
    return 0;
}
