/*
 * The newer Activity API: version, struct sizes, enabled kinds, attributes, the timestamp callback,
 * the dropped-record count, result strings, and OVERHEAD records. argv[1] = mode:
 *   args       every function with valid and invalid arguments (no runtime work)
 *   overhead   OVERHEAD + MARKER: buffer request and flush records
 *   resource   OVERHEAD + KERNEL on device 0: device collection start/stop records
 *   timestamp  a client clock registered before Enable: records and msptiGetTimestamp follow it
 *   dropped    declined buffers: msptiActivityGetNumDroppedRecords counts and restarts
 */
#include <acl/acl.h>
#include <time.h>
#include <unistd.h>

#include "collector.h"
#include "mstx/ms_tools_ext.h"

#define CLIENT_EPOCH 4000000000000000000ULL /* far from CLOCK_REALTIME (about 1.8e18 in 2026) */

static unsigned long g_clock_calls;

static uint64_t client_clock(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    __atomic_add_fetch(&g_clock_calls, 1, __ATOMIC_RELAXED);
    return CLIENT_EPOCH + (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static void marks(int n) {
    for (int i = 0; i < n; ++i) mstxMarkA("newer-api", NULL);
}

static void check_args(void) {
    /* msptiGetVersion */
    uint32_t version = 0;
    CHECK_EQ(msptiGetVersion(NULL), MSPTI_ERROR_INVALID_PARAMETER);
    CHECK_EQ(msptiGetVersion(&version), MSPTI_SUCCESS);
    CHECK(version >= 10000 && version <= 999999);
    printf("P version=%u\n", version);

    /* msptiActivityGetStructSize */
    for (int k = 1; k < MSPTI_ACTIVITY_KIND_COUNT; ++k) {
        size_t size = 0;
        CHECK_EQ(msptiActivityGetStructSize((msptiActivityKind)k, version, &size), MSPTI_SUCCESS);
        CHECK_EQ(size, collector_record_size(k));
        CHECK_EQ(msptiActivityGetStructSize((msptiActivityKind)k, 0, NULL), MSPTI_ERROR_INVALID_PARAMETER);
    }
    const int bad_kinds[] = {MSPTI_ACTIVITY_KIND_INVALID, MSPTI_ACTIVITY_KIND_COUNT, -1, 100,
                             MSPTI_ACTIVITY_KIND_FORCE_INT};
    for (size_t i = 0; i < sizeof bad_kinds / sizeof bad_kinds[0]; ++i) {
        size_t size = 1234;
        CHECK_EQ(msptiActivityGetStructSize((msptiActivityKind)bad_kinds[i], 0, &size), MSPTI_ERROR_INVALID_KIND);
        CHECK_EQ(size, 1234);
    }

    /* msptiActivityGetEnabledKinds */
    msptiSubscriberHandle sub = NULL;
    CHECK_EQ(msptiSubscribe(&sub, NULL, NULL), MSPTI_SUCCESS);
    msptiActivityKind kinds[MSPTI_ACTIVITY_KIND_COUNT];
    uint32_t buffer_size = MSPTI_ACTIVITY_KIND_COUNT;
    uint32_t count = 99;
    CHECK_EQ(msptiActivityGetEnabledKinds(sub, kinds, &buffer_size, NULL), MSPTI_ERROR_INVALID_PARAMETER);
    CHECK_EQ(msptiActivityGetEnabledKinds(sub, kinds, NULL, &count), MSPTI_ERROR_INVALID_PARAMETER);
    CHECK_EQ(msptiActivityGetEnabledKinds(sub, NULL, NULL, &count), MSPTI_SUCCESS);
    CHECK_EQ(count, 0);
    CHECK_EQ(msptiActivityEnable(MSPTI_ACTIVITY_KIND_OVERHEAD), MSPTI_SUCCESS);
    CHECK(msptiActivityIsEnabled(MSPTI_ACTIVITY_KIND_OVERHEAD));
    CHECK_EQ(msptiActivityEnable(MSPTI_ACTIVITY_KIND_MARKER), MSPTI_SUCCESS);
    CHECK_EQ(msptiActivityEnable(MSPTI_ACTIVITY_KIND_API), MSPTI_SUCCESS);
    CHECK_EQ(msptiActivityGetEnabledKinds(sub, kinds, &buffer_size, &count), MSPTI_SUCCESS);
    CHECK_EQ(count, 3);
    CHECK_EQ(kinds[0], MSPTI_ACTIVITY_KIND_MARKER);
    CHECK_EQ(kinds[1], MSPTI_ACTIVITY_KIND_API);
    CHECK_EQ(kinds[2], MSPTI_ACTIVITY_KIND_OVERHEAD);
    /* A buffer too small: filled as far as it goes, the count is still the whole. */
    msptiActivityKind two[2] = {MSPTI_ACTIVITY_KIND_INVALID, MSPTI_ACTIVITY_KIND_INVALID};
    uint32_t two_size = 1;
    CHECK_EQ(msptiActivityGetEnabledKinds(sub, two, &two_size, &count), MSPTI_SUCCESS);
    CHECK_EQ(count, 3);
    CHECK_EQ(two[0], MSPTI_ACTIVITY_KIND_MARKER);
    CHECK_EQ(two[1], MSPTI_ACTIVITY_KIND_INVALID);
    CHECK_EQ(msptiActivityGetEnabledKinds(NULL, NULL, NULL, &count), MSPTI_SUCCESS); /* subscriber not used */
    CHECK_EQ(count, 3);
    CHECK_EQ(msptiActivityDisable(MSPTI_ACTIVITY_KIND_API), MSPTI_SUCCESS);
    CHECK_EQ(msptiActivityDisable(MSPTI_ACTIVITY_KIND_OVERHEAD), MSPTI_SUCCESS);
    CHECK(!msptiActivityIsEnabled(MSPTI_ACTIVITY_KIND_OVERHEAD));
    CHECK_EQ(msptiActivityGetEnabledKinds(sub, kinds, &buffer_size, &count), MSPTI_SUCCESS);
    CHECK_EQ(count, 1);
    CHECK_EQ(kinds[0], MSPTI_ACTIVITY_KIND_MARKER);
    CHECK_EQ(msptiActivityDisable(MSPTI_ACTIVITY_KIND_MARKER), MSPTI_SUCCESS);

    /* msptiActivitySetAttribute / msptiActivityGetAttribute: CHANNEL_BUFFER_SIZE */
    uint32_t channel = 0;
    size_t value_size = sizeof channel;
    CHECK_EQ(msptiActivityGetAttribute(MSPTI_ACTIVITY_ATTR_CHANNEL_BUFFER_SIZE, NULL, &channel),
             MSPTI_ERROR_INVALID_PARAMETER);
    CHECK_EQ(msptiActivityGetAttribute(MSPTI_ACTIVITY_ATTR_CHANNEL_BUFFER_SIZE, &value_size, NULL),
             MSPTI_ERROR_INVALID_PARAMETER);
    CHECK_EQ(msptiActivityGetAttribute(MSPTI_ACTIVITY_ATTR_FORCE_INT, &value_size, &channel),
             MSPTI_ERROR_INVALID_PARAMETER);
    CHECK_EQ(msptiActivityGetAttribute((msptiActivityAttribute)2, &value_size, &channel),
             MSPTI_ERROR_INVALID_PARAMETER);
    value_size = 16;
    CHECK_EQ(msptiActivityGetAttribute(MSPTI_ACTIVITY_ATTR_CHANNEL_BUFFER_SIZE, &value_size, &channel), MSPTI_SUCCESS);
    CHECK_EQ(value_size, sizeof(uint32_t)); /* set to the attribute's size */
    CHECK_EQ(channel, 2u << 20);            /* the default */
    value_size = 2;
    CHECK_EQ(msptiActivityGetAttribute(MSPTI_ACTIVITY_ATTR_CHANNEL_BUFFER_SIZE, &value_size, &channel),
             MSPTI_ERROR_PARAMETER_SIZE_NOT_SUFFICIENT);
    CHECK_EQ(msptiActivitySetAttribute(MSPTI_ACTIVITY_ATTR_CHANNEL_BUFFER_SIZE, &value_size, &channel),
             MSPTI_ERROR_PARAMETER_SIZE_NOT_SUFFICIENT);
    value_size = sizeof channel;
    CHECK_EQ(msptiActivitySetAttribute(MSPTI_ACTIVITY_ATTR_CHANNEL_BUFFER_SIZE, NULL, &channel),
             MSPTI_ERROR_INVALID_PARAMETER);
    CHECK_EQ(msptiActivitySetAttribute(MSPTI_ACTIVITY_ATTR_CHANNEL_BUFFER_SIZE, &value_size, NULL),
             MSPTI_ERROR_INVALID_PARAMETER);
    CHECK_EQ(msptiActivitySetAttribute(MSPTI_ACTIVITY_ATTR_FORCE_INT, &value_size, &channel),
             MSPTI_ERROR_INVALID_PARAMETER);
    const uint32_t out_of_range[] = {0, (2u << 20) - 1, (10u << 20) + 1, 11u << 20, 0xFFFFFFFFu};
    for (size_t i = 0; i < sizeof out_of_range / sizeof out_of_range[0]; ++i) {
        uint32_t v = out_of_range[i];
        CHECK_EQ(msptiActivitySetAttribute(MSPTI_ACTIVITY_ATTR_CHANNEL_BUFFER_SIZE, &value_size, &v),
                 MSPTI_ERROR_INVALID_PARAMETER);
    }
    const uint32_t in_range[] = {2u << 20, 10u << 20, 4u << 20};
    for (size_t i = 0; i < sizeof in_range / sizeof in_range[0]; ++i) {
        uint32_t v = in_range[i];
        CHECK_EQ(msptiActivitySetAttribute(MSPTI_ACTIVITY_ATTR_CHANNEL_BUFFER_SIZE, &value_size, &v), MSPTI_SUCCESS);
        uint32_t got = 0;
        size_t got_size = sizeof got;
        CHECK_EQ(msptiActivityGetAttribute(MSPTI_ACTIVITY_ATTR_CHANNEL_BUFFER_SIZE, &got_size, &got), MSPTI_SUCCESS);
        CHECK_EQ(got, v);
    }

    /* TIMESTAMP_CALLBACK and msptiActivityRegisterTimestampCallback */
    msptiTimestampCallbackFunc fn = client_clock;
    size_t fn_size = sizeof fn;
    CHECK_EQ(msptiActivityGetAttribute(MSPTI_ACTIVITY_ATTR_TIMESTAMP_CALLBACK, &fn_size, &fn), MSPTI_SUCCESS);
    CHECK(fn == NULL); /* none registered */
    CHECK_EQ(fn_size, sizeof(msptiTimestampCallbackFunc));
    fn_size = sizeof fn - 1;
    CHECK_EQ(msptiActivityGetAttribute(MSPTI_ACTIVITY_ATTR_TIMESTAMP_CALLBACK, &fn_size, &fn),
             MSPTI_ERROR_PARAMETER_SIZE_NOT_SUFFICIENT);
    CHECK_EQ(msptiActivityRegisterTimestampCallback(NULL), MSPTI_ERROR_INVALID_PARAMETER);
    fn = NULL;
    fn_size = sizeof fn;
    CHECK_EQ(msptiActivitySetAttribute(MSPTI_ACTIVITY_ATTR_TIMESTAMP_CALLBACK, &fn_size, &fn),
             MSPTI_ERROR_INVALID_PARAMETER);
    fn = client_clock;
    CHECK_EQ(msptiActivitySetAttribute(MSPTI_ACTIVITY_ATTR_TIMESTAMP_CALLBACK, &fn_size, &fn), MSPTI_SUCCESS);
    fn = NULL;
    CHECK_EQ(msptiActivityGetAttribute(MSPTI_ACTIVITY_ATTR_TIMESTAMP_CALLBACK, &fn_size, &fn), MSPTI_SUCCESS);
    CHECK(fn == client_clock);
    CHECK_EQ(msptiActivityRegisterTimestampCallback(client_clock), MSPTI_SUCCESS);

    /* msptiActivityGetNumDroppedRecords */
    size_t dropped = 7;
    CHECK_EQ(msptiActivityGetNumDroppedRecords(NULL, 0, NULL), MSPTI_ERROR_INVALID_PARAMETER);
    CHECK_EQ(msptiActivityGetNumDroppedRecords(NULL, 0, &dropped), MSPTI_SUCCESS);
    CHECK_EQ(dropped, 0);

    /* msptiGetResultString */
    const int codes[] = {MSPTI_SUCCESS,
                         MSPTI_ERROR_INVALID_PARAMETER,
                         MSPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED,
                         MSPTI_ERROR_MAX_LIMIT_REACHED,
                         MSPTI_ERROR_DEVICE_OFFLINE,
                         MSPTI_ERROR_QUEUE_EMPTY,
                         MSPTI_ERROR_WITHOUT_LD_PRELOAD,
                         MSPTI_ERROR_NOT_INITIALIZED,
                         MSPTI_ERROR_INVALID_KIND,
                         MSPTI_ERROR_PARAMETER_SIZE_NOT_SUFFICIENT,
                         MSPTI_ERROR_INNER};
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; ++i) {
        const char* text = NULL;
        CHECK_EQ(msptiGetResultString((msptiResult)codes[i], &text), MSPTI_SUCCESS);
        CHECK(text != NULL && text[0] != '\0');
    }
    const int bad_codes[] = {10, 998, 1000, -1, MSPTI_ERROR_FORCE_INT};
    for (size_t i = 0; i < sizeof bad_codes / sizeof bad_codes[0]; ++i) {
        const char* text = "unchanged";
        CHECK_EQ(msptiGetResultString((msptiResult)bad_codes[i], &text), MSPTI_ERROR_INVALID_PARAMETER);
        CHECK(strcmp(text, "unchanged") == 0);
    }
    CHECK_EQ(msptiGetResultString(MSPTI_SUCCESS, NULL), MSPTI_ERROR_INVALID_PARAMETER);
    CHECK_EQ(MSPTI_ERROR_NOT_INITIALIZED, 7);
    CHECK_EQ(MSPTI_ERROR_INVALID_KIND, 8);
    CHECK_EQ(MSPTI_ERROR_PARAMETER_SIZE_NOT_SUFFICIENT, 9);
    CHECK_EQ(msptiUnsubscribe(sub), MSPTI_SUCCESS);
}

int main(int argc, char** argv) {
    const char* mode = argc > 1 ? argv[1] : "args";
    const int n = argc > 2 ? atoi(argv[2]) : 10;
    if (strcmp(mode, "args") == 0) {
        check_args();
        printf("P done=1\n");
        return 0;
    }
    if (strcmp(mode, "timestamp") == 0) {
        CHECK_EQ(msptiActivityRegisterTimestampCallback(client_clock), MSPTI_SUCCESS);
    }
    msptiSubscriberHandle sub = NULL;
    CHECK_EQ(msptiSubscribe(&sub, NULL, NULL), MSPTI_SUCCESS);
    if (strcmp(mode, "dropped") == 0) g_collector.decline_remaining = 1;
    CHECK(collector_register());
    if (strcmp(mode, "timestamp") != 0 && strcmp(mode, "dropped") != 0) {
        CHECK_EQ(msptiActivityEnable(MSPTI_ACTIVITY_KIND_OVERHEAD), MSPTI_SUCCESS);
    }
    if (strcmp(mode, "resource") == 0) {
        CHECK_EQ(aclInit(NULL), ACL_SUCCESS);
        CHECK_EQ(aclrtSetDevice(0), ACL_SUCCESS);
        CHECK_EQ(msptiActivityEnable(MSPTI_ACTIVITY_KIND_KERNEL), MSPTI_SUCCESS); /* starts device collection */
        CHECK_EQ(msptiActivityDisable(MSPTI_ACTIVITY_KIND_KERNEL), MSPTI_SUCCESS); /* stops it */
        CHECK_EQ(msptiActivityFlushAll(1), MSPTI_SUCCESS);
        CHECK_EQ(aclrtResetDevice(0), ACL_SUCCESS);
        CHECK_EQ(aclFinalize(), ACL_SUCCESS);
        collector_summary();
        CHECK_EQ(msptiUnsubscribe(sub), MSPTI_SUCCESS);
        printf("P done=1\n");
        return 0;
    }
    CHECK_EQ(msptiActivityEnable(MSPTI_ACTIVITY_KIND_MARKER), MSPTI_SUCCESS);
    uint64_t before = 0;
    CHECK_EQ(msptiGetTimestamp(&before), MSPTI_SUCCESS);
    marks(n);
    CHECK_EQ(msptiActivityFlushAll(1), MSPTI_SUCCESS);
    uint64_t after = 0;
    CHECK_EQ(msptiGetTimestamp(&after), MSPTI_SUCCESS);
    if (strcmp(mode, "dropped") == 0) {
        size_t dropped = 0;
        CHECK_EQ(msptiActivityGetNumDroppedRecords(NULL, 0, &dropped), MSPTI_SUCCESS);
        printf("P dropped_first=%zu\n", dropped);
        CHECK_EQ(msptiActivityGetNumDroppedRecords(NULL, 0, &dropped), MSPTI_SUCCESS);
        printf("P dropped_second=%zu\n", dropped);
    }
    marks(n); /* a second buffer; the first flush's record comes with it */
    CHECK_EQ(msptiActivityFlushAll(1), MSPTI_SUCCESS);
    CHECK_EQ(msptiActivityFlushAll(1), MSPTI_SUCCESS);
    printf("P before=%" PRIu64 " after=%" PRIu64 " clock_calls=%lu pid=%d\n", before, after,
           __atomic_load_n(&g_clock_calls, __ATOMIC_RELAXED), (int)getpid());
    collector_summary();
    CHECK_EQ(msptiUnsubscribe(sub), MSPTI_SUCCESS);
    printf("P done=1\n");
    return 0;
}
