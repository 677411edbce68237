/*
 * After msptiUnsubscribe no kind produces records, though the switches stay on; the next
 * msptiSubscribe restarts collection (docs/mspti-deviations.md §4, §5).
 *
 * Three phases of the same work (allocations, copies, fills, host and device markers, kernel
 * launches, external correlation): subscribed, after Unsubscribe, subscribed again. Prints per
 * phase and kind what was accounted (delivered + dropped): "S phase=<n> <kind>=<count> ...".
 */
#include "torture.h"

static const int kKinds[] = {MSPTI_ACTIVITY_KIND_MARKER, MSPTI_ACTIVITY_KIND_KERNEL,
                             MSPTI_ACTIVITY_KIND_MEMORY, MSPTI_ACTIVITY_KIND_MEMSET,
                             MSPTI_ACTIVITY_KIND_MEMCPY, MSPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION,
                             MSPTI_ACTIVITY_KIND_API};
static const char* const kNames[] = {"marker", "kernel", "memory", "memset", "memcpy", "external_correlation", "api"};
#define NKINDS (sizeof kKinds / sizeof kKinds[0])

static void work(void) {
    void* dev = NULL;
    char host[64] = {0};
    if (aclrtMalloc(&dev, sizeof host, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) fail("aclrtMalloc failed");
    msptiActivityPushExternalCorrelationId(MSPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, 7);
    if (aclrtMemcpy(dev, sizeof host, host, sizeof host, ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS)
        fail("aclrtMemcpy failed");
    uint64_t last = 0;
    msptiActivityPopExternalCorrelationId(MSPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, &last);
    if (aclrtMemset(dev, sizeof host, 0, sizeof host) != ACL_SUCCESS) fail("aclrtMemset failed");
    if (aclrtFree(dev) != ACL_SUCCESS) fail("aclrtFree failed");
    marks(2, "host");
    mstxMarkA("device", g_stream);
    launch(3);
    sync_stream();
}

static void phase(int n, uint64_t* start) {
    work();
    EXPECT_RESULT(g_mspti.flush_all(1), MSPTI_SUCCESS);
    printf("S phase=%d", n);
    for (size_t i = 0; i < NKINDS; ++i) {
        const uint64_t now = accounted(kKinds[i]);
        printf(" %s=%" PRIu64, kNames[i], now - start[i]);
        start[i] = now;
    }
    printf("\n");
    fflush(stdout);
}

int main(void) {
    use_linked_mspti();
    runtime_init();
    EXPECT_RESULT(g_mspti.register_callbacks(request_a, complete_a), MSPTI_SUCCESS);
    msptiSubscriberHandle h = NULL;
    EXPECT_RESULT(g_mspti.subscribe(&h, NULL, NULL), MSPTI_SUCCESS);
    for (size_t i = 0; i < NKINDS; ++i) EXPECT_RESULT(g_mspti.enable((msptiActivityKind)kKinds[i]), MSPTI_SUCCESS);
    uint64_t start[NKINDS] = {0};
    phase(1, start);
    EXPECT_RESULT(g_mspti.unsubscribe(h), MSPTI_SUCCESS);
    EXPECT_RESULT(g_mspti.flush_all(1), MSPTI_SUCCESS);
    for (size_t i = 0; i < NKINDS; ++i) start[i] = accounted(kKinds[i]);
    for (size_t i = 0; i < NKINDS; ++i) CHECK(g_mspti.is_enabled((msptiActivityKind)kKinds[i]));
    phase(2, start);
    EXPECT_RESULT(g_mspti.subscribe(&h, NULL, NULL), MSPTI_SUCCESS);
    phase(3, start);
    EXPECT_RESULT(g_mspti.unsubscribe(h), MSPTI_SUCCESS);
    return g_failures == 0 ? 0 : 1;
}
