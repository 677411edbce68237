/*
 * mstx calls with bad arguments: every record they would have made is delivered or counted as
 * dropped, never lost silently and never truncated.
 *
 *   mstxMarkA(NULL), a message of 255 characters, one of 300, mstxRangeStartA(NULL) and
 *   mstxDomainMarkA(domain, NULL): no record; each counted as one dropped MARKER
 *   a message of 254 characters: delivered whole
 *   a mark and a range on a stream that does not exist: the host records are delivered, the
 *   device halves (which can never come) are counted as dropped MARKER
 * Prints "S delivered=<MARKER delivered> dropped=<MARKER dropped> bad_argument=<of them, for a bad
 * argument> longest=<longest name>".
 */
#include "torture.h"

static size_t g_longest;

static void complete(uint8_t* buffer, size_t size, size_t valid) {
    msptiActivity* r = NULL;
    while (g_mspti.next_record(buffer, valid, &r) == MSPTI_SUCCESS) {
        if (r->kind != MSPTI_ACTIVITY_KIND_MARKER) continue;
        const msptiActivityMarker* m = (const msptiActivityMarker*)r;
        const size_t n = m->name != NULL ? strlen(m->name) : 0;
        if (n > g_longest) g_longest = n;
    }
    collector_complete(&g_tool_a, buffer, size, valid);
}

int main(void) {
    use_linked_mspti();
    runtime_init();
    EXPECT_RESULT(g_mspti.register_callbacks(request_a, complete), MSPTI_SUCCESS);
    msptiSubscriberHandle h = NULL;
    EXPECT_RESULT(g_mspti.subscribe(&h, NULL, NULL), MSPTI_SUCCESS);
    EXPECT_RESULT(g_mspti.enable(MSPTI_ACTIVITY_KIND_MARKER), MSPTI_SUCCESS);
    char longest_valid[255], too_long[256], much_too_long[301];
    memset(longest_valid, 'a', sizeof longest_valid - 1);
    longest_valid[sizeof longest_valid - 1] = '\0';
    memset(too_long, 'b', sizeof too_long - 1);
    too_long[sizeof too_long - 1] = '\0';
    memset(much_too_long, 'c', sizeof much_too_long - 1);
    much_too_long[sizeof much_too_long - 1] = '\0';

    mstxMarkA(NULL, NULL);
    mstxMarkA(too_long, NULL);
    mstxMarkA(much_too_long, NULL);
    mstxMarkA(longest_valid, NULL);
    CHECK(mstxRangeStartA(NULL, NULL) == 0);
    mstxDomainHandle_t domain = mstxDomainCreateA("bad-arguments");
    CHECK(domain != NULL);
    mstxDomainMarkA(domain, NULL, NULL);

    aclrtStream bogus = (aclrtStream)(uintptr_t)0x5157000000007777ULL; /* no such stream */
    mstxMarkA("on a bogus stream", bogus);
    const mstxRangeId range = mstxRangeStartA("range on a bogus stream", bogus);
    mstxRangeEnd(range);

    EXPECT_RESULT(g_mspti.flush_all(1), MSPTI_SUCCESS);
    const uint64_t got = delivered(&g_tool_a, MSPTI_ACTIVITY_KIND_MARKER);
    const uint64_t lost = dropped(MSPTI_ACTIVITY_KIND_MARKER);
    uint64_t bad = 0;
    EXPECT_RESULT(
        msptiActivityGetDroppedRecordsByReason(MSPTI_ACTIVITY_KIND_MARKER, MSPTI_DROP_REASON_BAD_ARGUMENT, &bad),
        MSPTI_SUCCESS);
    printf("S delivered=%" PRIu64 " dropped=%" PRIu64 " bad_argument=%" PRIu64 " longest=%zu\n", got, lost, bad,
           g_longest);
    EXPECT_RESULT(g_mspti.unsubscribe(h), MSPTI_SUCCESS);
    return g_failures == 0 ? 0 : 1;
}
