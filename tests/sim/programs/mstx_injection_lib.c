/* A minimal injection library for MSTX_INJECTION_PATH: describes the tables the front end hands
 * to InitInjectionMstx and fills only CORE markA and rangeStartA (everything else stays a no-op). */
#include <stdio.h>
#include <string.h>

#include "mstx/ms_tools_ext.h"

static int g_inits;

static void lib_mark(const char* message, aclrtStream stream) { printf("lib markA %s stream=%p\n", message, stream); }
static mstxRangeId lib_range_start(const char* message, aclrtStream stream) {
    printf("lib rangeStartA %s stream=%p\n", message, stream);
    return 7;
}

static void describe(mstxGetModuleFuncTableFunc get, uint32_t module) {
    mstxFuncPointer** table = NULL;
    uint32_t size = 0;
    const int rc = get(module, &table, &size);
    int filled = 1;
    if (rc != MSTX_SUCCESS) {
        printf("module %u rc %d\n", module, rc);
        return;
    }
    for (uint32_t i = 1; i < size; ++i) filled = filled && table[i] != NULL && *table[i] == NULL;
    printf("module %u rc %d size %u first %s last %s slots %s\n", module, rc, size, table[0] ? "set" : "null",
           table[size] ? "set" : "null", filled ? "empty" : "bad");
}

__attribute__((visibility("default"))) int InitInjectionMstx(mstxGetModuleFuncTableFunc get) {
    mstxFuncPointer** table = NULL;
    uint32_t size = 0;
    void* fn;
    printf("init %d\n", ++g_inits);
    describe(get, MSTX_API_MODULE_CORE);
    describe(get, MSTX_API_MODULE_CORE_DOMAIN);
    describe(get, MSTX_API_MODULE_CORE_MEM);
    describe(get, 9);
    if (get(MSTX_API_MODULE_CORE, &table, &size) != MSTX_SUCCESS) return MSTX_FAIL;
    fn = (void*)lib_mark;
    memcpy(table[MSTX_API_CORE_MARK_A], &fn, sizeof fn);
    fn = (void*)lib_range_start;
    memcpy(table[MSTX_API_CORE_RANGE_START_A], &fn, sizeof fn);
    return MSTX_SUCCESS;
}
