/*
 * msptiActivityGetDroppedRecordsByReason (mspti_ext.h): its documented results, and every drop
 * counted under exactly one reason.
 *
 *   2 markers with no buffer callbacks registered            -> 2 NO_BUFFER
 *   3 markers while RequestFunc declines                      -> 3 NO_BUFFER
 *   1 marker into a buffer smaller than a record              -> 1 BUFFER_TOO_SMALL
 * Prints "S no_buffer=.. too_small=.. device_half_lost=.. collection_failed=.. bad_argument=..
 * kind_disabled=.. total=.. sum=..".
 */
#include "torture.h"

static size_t g_small;

static void request_small(uint8_t** buffer, size_t* size, size_t* max_records) {
    *buffer = (uint8_t*)malloc(8);
    *size = 8;
    *max_records = 0;
    g_small++;
}

static void complete_small(uint8_t* buffer, size_t size, size_t valid) {
    (void)size;
    if (valid != 0) fail("a buffer of 8 bytes came back with %zu valid bytes", valid);
    free(buffer);
}

static uint64_t by_reason(int kind, int reason) {
    uint64_t n = 0;
    EXPECT_RESULT(msptiActivityGetDroppedRecordsByReason((msptiActivityKind)kind, (msptiDropReason)reason, &n),
                  MSPTI_SUCCESS);
    return n;
}

int main(void) {
    use_linked_mspti();
    runtime_init();
    uint64_t n = 0;
    EXPECT_RESULT(msptiActivityGetDroppedRecordsByReason(MSPTI_ACTIVITY_KIND_MARKER, MSPTI_DROP_REASON_ANY, NULL),
                  MSPTI_ERROR_INVALID_PARAMETER);
    EXPECT_RESULT(msptiActivityGetDroppedRecordsByReason((msptiActivityKind)99, MSPTI_DROP_REASON_ANY, &n),
                  MSPTI_ERROR_INVALID_PARAMETER);
    EXPECT_RESULT(msptiActivityGetDroppedRecordsByReason((msptiActivityKind)-1, MSPTI_DROP_REASON_ANY, &n),
                  MSPTI_ERROR_INVALID_PARAMETER);
    EXPECT_RESULT(msptiActivityGetDroppedRecordsByReason(MSPTI_ACTIVITY_KIND_MARKER, MSPTI_DROP_REASON_COUNT, &n),
                  MSPTI_ERROR_INVALID_PARAMETER);
    EXPECT_RESULT(msptiActivityGetDroppedRecordsByReason(MSPTI_ACTIVITY_KIND_MARKER, (msptiDropReason)-1, &n),
                  MSPTI_ERROR_INVALID_PARAMETER);
    CHECK(by_reason(MSPTI_ACTIVITY_KIND_INVALID, MSPTI_DROP_REASON_ANY) == 0);

    msptiSubscriberHandle h = NULL;
    EXPECT_RESULT(g_mspti.subscribe(&h, NULL, NULL), MSPTI_SUCCESS);
    EXPECT_RESULT(g_mspti.enable(MSPTI_ACTIVITY_KIND_MARKER), MSPTI_SUCCESS);
    marks(2, "no callbacks");
    EXPECT_RESULT(g_mspti.register_callbacks(request_a, complete_a), MSPTI_SUCCESS);
    g_tool_a.decline = 1;
    marks(3, "declined");
    g_tool_a.decline = 0;
    EXPECT_RESULT(g_mspti.flush_all(1), MSPTI_SUCCESS);
    EXPECT_RESULT(g_mspti.register_callbacks(request_small, complete_small), MSPTI_SUCCESS);
    marks(1, "too small");
    EXPECT_RESULT(g_mspti.flush_all(1), MSPTI_SUCCESS);

    static const char* const names[] = {
        "", "no_buffer", "too_small", "device_half_lost", "collection_failed", "bad_argument", "kind_disabled"};
    uint64_t sum = 0;
    printf("S");
    for (int r = 1; r < MSPTI_DROP_REASON_COUNT; ++r) {
        const uint64_t count = by_reason(MSPTI_ACTIVITY_KIND_MARKER, r);
        sum += count;
        printf(" %s=%" PRIu64, names[r], count);
        CHECK(by_reason(MSPTI_ACTIVITY_KIND_INVALID, r) == count); /* only markers were dropped */
    }
    const uint64_t total = dropped(MSPTI_ACTIVITY_KIND_MARKER);
    CHECK(by_reason(MSPTI_ACTIVITY_KIND_MARKER, MSPTI_DROP_REASON_ANY) == total);
    CHECK(by_reason(MSPTI_ACTIVITY_KIND_INVALID, MSPTI_DROP_REASON_ANY) == dropped(MSPTI_ACTIVITY_KIND_INVALID));
    printf(" total=%" PRIu64 " sum=%" PRIu64 "\n", total, sum);
    EXPECT_RESULT(g_mspti.unsubscribe(h), MSPTI_SUCCESS);
    return g_failures == 0 ? 0 : 1;
}
