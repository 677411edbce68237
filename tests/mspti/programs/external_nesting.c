/* External correlation: nesting, several kinds at once, no records while the kind is off. */
#include <acl/acl.h>

#include "collector.h"

static uint64_t alloc_and_free(void) {
    void* p = NULL;
    CHECK_EQ(aclrtMalloc(&p, 16, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    CHECK_EQ(aclrtFree(p), ACL_SUCCESS);
    return (uint64_t)(uintptr_t)p;
}

int main(void) {
    CHECK_EQ(aclInit(NULL), ACL_SUCCESS);
    CHECK_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    CHECK(collector_register());
    CHECK_EQ(msptiActivityEnable(MSPTI_ACTIVITY_KIND_MEMORY), MSPTI_SUCCESS);
    /* Off: no external records, and none appear retroactively when switched on. */
    CHECK_EQ(msptiActivityPushExternalCorrelationId(MSPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, 1), MSPTI_SUCCESS);
    alloc_and_free();
    printf("P phase=off\n");
    CHECK_EQ(msptiActivityEnable(MSPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION), MSPTI_SUCCESS);
    /* Nested: the inner id while pushed, the outer again after the pop. */
    CHECK_EQ(msptiActivityPushExternalCorrelationId(MSPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, 2), MSPTI_SUCCESS);
    alloc_and_free();
    uint64_t last = 0;
    CHECK_EQ(msptiActivityPopExternalCorrelationId(MSPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, &last), MSPTI_SUCCESS);
    alloc_and_free();
    /* Several kinds: one record per non-empty kind per id, in kind order. */
    CHECK_EQ(msptiActivityPushExternalCorrelationId(MSPTI_EXTERNAL_CORRELATION_KIND_CUSTOM2, 30), MSPTI_SUCCESS);
    CHECK_EQ(msptiActivityPushExternalCorrelationId(MSPTI_EXTERNAL_CORRELATION_KIND_UNKNOWN, 10), MSPTI_SUCCESS);
    alloc_and_free();
    CHECK_EQ(msptiActivityPopExternalCorrelationId(MSPTI_EXTERNAL_CORRELATION_KIND_UNKNOWN, NULL), MSPTI_SUCCESS);
    CHECK_EQ(msptiActivityPopExternalCorrelationId(MSPTI_EXTERNAL_CORRELATION_KIND_CUSTOM2, NULL), MSPTI_SUCCESS);
    CHECK_EQ(msptiActivityPopExternalCorrelationId(MSPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, NULL), MSPTI_SUCCESS);
    /* All stacks empty: no external records. */
    alloc_and_free();
    CHECK_EQ(msptiActivityFlushAll(1), MSPTI_SUCCESS);
    return 0;
}
