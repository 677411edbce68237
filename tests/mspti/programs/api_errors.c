/*
 * Every documented error code of the public API (no workload needed).
 * argv[1] (argv[2]) = "interposed" when the process resolves msPTI's aclrt (Hccl) wrappers, else "plain".
 */
#include "collector.h"

#ifdef USE_ACL
#include <acl/acl.h>
#endif

static void request(uint8_t** b, size_t* s, size_t* m) {
    *b = NULL;
    *s = 0;
    *m = 0;
}
static void complete(uint8_t* b, size_t s, size_t v) {
    (void)b;
    (void)s;
    (void)v;
}

int main(int argc, char** argv) {
    const int interposed = argc > 1 && strcmp(argv[1], "interposed") == 0;
    const int hccl_interposed = argc > 2 ? strcmp(argv[2], "interposed") == 0 : interposed;
    const msptiResult preload_rc = interposed ? MSPTI_SUCCESS : MSPTI_ERROR_WITHOUT_LD_PRELOAD;
    const msptiResult hccl_rc = hccl_interposed ? MSPTI_SUCCESS : MSPTI_ERROR_WITHOUT_LD_PRELOAD;

#ifdef USE_ACL
    uint32_t devices = 0;
    (void)aclrtGetDeviceCount(&devices); /* the runtime is a real dependency of this build */
#endif
    /* Fresh process: nothing enabled, nothing out of range is enabled. */
    for (int k = 0; k <= 13; ++k) CHECK(!msptiActivityIsEnabled((msptiActivityKind)k));
    CHECK(!msptiActivityIsEnabled((msptiActivityKind)0x7fffffff));
    CHECK(!msptiActivityIsEnabled((msptiActivityKind)-1));

    /* RegisterCallbacks */
    CHECK_EQ(msptiActivityRegisterCallbacks(NULL, complete), MSPTI_ERROR_INVALID_PARAMETER);
    CHECK_EQ(msptiActivityRegisterCallbacks(request, NULL), MSPTI_ERROR_INVALID_PARAMETER);
    CHECK_EQ(msptiActivityRegisterCallbacks(NULL, NULL), MSPTI_ERROR_INVALID_PARAMETER);
    CHECK_EQ(msptiActivityRegisterCallbacks(request, complete), MSPTI_SUCCESS);

    /* Enable / Disable ranges, idempotence, LD_PRELOAD-dependent kinds */
    const int bad_kinds[] = {0, 14, 100, 0x7fffffff, -1};
    for (size_t i = 0; i < sizeof bad_kinds / sizeof bad_kinds[0]; ++i) {
        CHECK_EQ(msptiActivityEnable((msptiActivityKind)bad_kinds[i]), MSPTI_ERROR_INVALID_PARAMETER);
        CHECK_EQ(msptiActivityDisable((msptiActivityKind)bad_kinds[i]), MSPTI_ERROR_INVALID_PARAMETER);
    }
    for (int k = 1; k <= 12; ++k) {
        const int needs_preload =
            k == MSPTI_ACTIVITY_KIND_MEMORY || k == MSPTI_ACTIVITY_KIND_MEMSET || k == MSPTI_ACTIVITY_KIND_MEMCPY;
        const msptiResult expected = k == MSPTI_ACTIVITY_KIND_HCCL ? hccl_rc
                                     : needs_preload               ? preload_rc
                                                                   : MSPTI_SUCCESS;
        CHECK_EQ(msptiActivityEnable((msptiActivityKind)k), expected);
        CHECK_EQ(msptiActivityEnable((msptiActivityKind)k), expected);
        CHECK_EQ(msptiActivityIsEnabled((msptiActivityKind)k), expected == MSPTI_SUCCESS);
        CHECK_EQ(msptiActivityDisable((msptiActivityKind)k), MSPTI_SUCCESS);
        CHECK_EQ(msptiActivityDisable((msptiActivityKind)k), MSPTI_SUCCESS);
        CHECK(!msptiActivityIsEnabled((msptiActivityKind)k));
    }

    /* Marker domains */
    char long_name[300];
    memset(long_name, 'd', sizeof long_name);
    long_name[255] = '\0';
    CHECK_EQ(msptiActivityEnableMarkerDomain(NULL), MSPTI_ERROR_INVALID_PARAMETER);
    CHECK_EQ(msptiActivityDisableMarkerDomain(NULL), MSPTI_ERROR_INVALID_PARAMETER);
    CHECK_EQ(msptiActivityEnableMarkerDomain(""), MSPTI_ERROR_INVALID_PARAMETER);
    CHECK_EQ(msptiActivityDisableMarkerDomain(""), MSPTI_ERROR_INVALID_PARAMETER);
    CHECK_EQ(msptiActivityEnableMarkerDomain(long_name), MSPTI_ERROR_INVALID_PARAMETER);
    CHECK_EQ(msptiActivityDisableMarkerDomain(long_name), MSPTI_ERROR_INVALID_PARAMETER);
    long_name[254] = '\0';
    CHECK_EQ(msptiActivityDisableMarkerDomain(long_name), MSPTI_SUCCESS);
    CHECK_EQ(msptiActivityEnableMarkerDomain(long_name), MSPTI_SUCCESS);
    CHECK_EQ(msptiActivityDisableMarkerDomain("never-created"), MSPTI_SUCCESS);
    CHECK_EQ(msptiActivityDisableMarkerDomain("never-created"), MSPTI_SUCCESS);
    CHECK_EQ(msptiActivityEnableMarkerDomain("default"), MSPTI_SUCCESS);

    /* GetNextRecord */
    uint8_t buffer[64] = {0};
    msptiActivity* rec = NULL;
    CHECK_EQ(msptiActivityGetNextRecord(NULL, 64, &rec), MSPTI_ERROR_INVALID_PARAMETER);
    CHECK_EQ(msptiActivityGetNextRecord(NULL, 0, &rec), MSPTI_ERROR_INVALID_PARAMETER);
    CHECK_EQ(msptiActivityGetNextRecord(buffer, 64, NULL), MSPTI_ERROR_INVALID_PARAMETER);
    CHECK_EQ(msptiActivityGetNextRecord(buffer, 0, &rec), MSPTI_ERROR_MAX_LIMIT_REACHED);

    /* Flush */
    CHECK_EQ(msptiActivityFlushAll(0), MSPTI_SUCCESS);
    CHECK_EQ(msptiActivityFlushAll(1), MSPTI_SUCCESS);
    CHECK_EQ(msptiActivityFlushAll(99), MSPTI_SUCCESS);
    CHECK_EQ(msptiActivityFlushPeriod(0), MSPTI_SUCCESS);
    CHECK_EQ(msptiActivityFlushPeriod(1000), MSPTI_SUCCESS);
    CHECK_EQ(msptiActivityFlushPeriod(0), MSPTI_SUCCESS);

    /* External correlation */
    uint64_t last = 77;
    const int bad_ext[] = {0, 5, 0x7fffffff, -1};
    for (size_t i = 0; i < sizeof bad_ext / sizeof bad_ext[0]; ++i) {
        CHECK_EQ(msptiActivityPushExternalCorrelationId((msptiExternalCorrelationKind)bad_ext[i], 1),
                 MSPTI_ERROR_INVALID_PARAMETER);
        CHECK_EQ(msptiActivityPopExternalCorrelationId((msptiExternalCorrelationKind)bad_ext[i], &last),
                 MSPTI_ERROR_INVALID_PARAMETER);
    }
    for (int k = 1; k <= 4; ++k) {
        CHECK_EQ(msptiActivityPopExternalCorrelationId((msptiExternalCorrelationKind)k, &last),
                 MSPTI_ERROR_QUEUE_EMPTY);
        CHECK_EQ(last, 77);
    }
    CHECK_EQ(msptiActivityPushExternalCorrelationId(MSPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, 10), MSPTI_SUCCESS);
    CHECK_EQ(msptiActivityPushExternalCorrelationId(MSPTI_EXTERNAL_CORRELATION_KIND_CUSTOM1, 20), MSPTI_SUCCESS);
    CHECK_EQ(msptiActivityPushExternalCorrelationId(MSPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, 11), MSPTI_SUCCESS);
    CHECK_EQ(msptiActivityPushExternalCorrelationId(MSPTI_EXTERNAL_CORRELATION_KIND_UNKNOWN, UINT64_MAX),
             MSPTI_SUCCESS);
    CHECK_EQ(msptiActivityPopExternalCorrelationId(MSPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, &last), MSPTI_SUCCESS);
    CHECK_EQ(last, 11);
    CHECK_EQ(msptiActivityPopExternalCorrelationId(MSPTI_EXTERNAL_CORRELATION_KIND_CUSTOM1, &last), MSPTI_SUCCESS);
    CHECK_EQ(last, 20);
    CHECK_EQ(msptiActivityPopExternalCorrelationId(MSPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, NULL), MSPTI_SUCCESS);
    CHECK_EQ(msptiActivityPopExternalCorrelationId(MSPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, &last),
             MSPTI_ERROR_QUEUE_EMPTY);
    CHECK(msptiActivityPopExternalCorrelationId(MSPTI_EXTERNAL_CORRELATION_KIND_UNKNOWN, &last) == MSPTI_SUCCESS &&
          last == UINT64_MAX);

    /* Callback API before any subscriber */
    msptiSubscriberHandle sub = NULL;
    msptiSubscriberHandle bogus = (msptiSubscriberHandle)0x10;
    CHECK_EQ(msptiUnsubscribe(NULL), MSPTI_ERROR_INVALID_PARAMETER);
    CHECK_EQ(msptiUnsubscribe(bogus), MSPTI_ERROR_INVALID_PARAMETER);
    CHECK_EQ(msptiEnableCallback(1, bogus, MSPTI_CB_DOMAIN_RUNTIME, 1),
             interposed ? MSPTI_ERROR_INVALID_PARAMETER : MSPTI_ERROR_WITHOUT_LD_PRELOAD);
    CHECK_EQ(msptiEnableDomain(1, bogus, MSPTI_CB_DOMAIN_RUNTIME),
             interposed ? MSPTI_ERROR_INVALID_PARAMETER : MSPTI_ERROR_WITHOUT_LD_PRELOAD);

    /* Subscribe */
    CHECK_EQ(msptiSubscribe(NULL, NULL, NULL), MSPTI_ERROR_INVALID_PARAMETER);
    CHECK_EQ(msptiSubscribe(&sub, NULL, NULL), MSPTI_SUCCESS);
    CHECK(sub != NULL);
    msptiSubscriberHandle second = NULL;
    CHECK_EQ(msptiSubscribe(&second, NULL, NULL), MSPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED);
    CHECK(second == NULL);

    /* EnableCallback / EnableDomain argument checks */
    const int bad_domains[] = {0, 3, 0x7fffffff, -1};
    for (size_t i = 0; i < sizeof bad_domains / sizeof bad_domains[0]; ++i) {
        CHECK_EQ(msptiEnableCallback(1, sub, (msptiCallbackDomain)bad_domains[i], 1), MSPTI_ERROR_INVALID_PARAMETER);
        CHECK_EQ(msptiEnableDomain(1, sub, (msptiCallbackDomain)bad_domains[i]), MSPTI_ERROR_INVALID_PARAMETER);
    }
    if (interposed && hccl_interposed) {
        CHECK_EQ(msptiEnableCallback(1, sub, MSPTI_CB_DOMAIN_RUNTIME, MSPTI_CBID_RUNTIME_MALLOC), MSPTI_SUCCESS);
        CHECK_EQ(msptiEnableCallback(0, sub, MSPTI_CB_DOMAIN_RUNTIME, MSPTI_CBID_RUNTIME_MALLOC), MSPTI_SUCCESS);
        CHECK_EQ(msptiEnableCallback(7, sub, MSPTI_CB_DOMAIN_RUNTIME, 36), MSPTI_SUCCESS);
        CHECK_EQ(msptiEnableCallback(1, sub, MSPTI_CB_DOMAIN_HCCL, MSPTI_CBID_HCCL_SENDRECV), MSPTI_SUCCESS);
        CHECK_EQ(msptiEnableCallback(1, sub, MSPTI_CB_DOMAIN_RUNTIME, 0), MSPTI_ERROR_INVALID_PARAMETER);
        CHECK_EQ(msptiEnableCallback(1, sub, MSPTI_CB_DOMAIN_RUNTIME, 37), MSPTI_ERROR_INVALID_PARAMETER);
        CHECK_EQ(msptiEnableCallback(1, sub, MSPTI_CB_DOMAIN_RUNTIME, 1024), MSPTI_ERROR_INVALID_PARAMETER);
        CHECK_EQ(msptiEnableCallback(1, sub, MSPTI_CB_DOMAIN_HCCL, 13), MSPTI_ERROR_INVALID_PARAMETER);
        CHECK_EQ(msptiEnableCallback(1, bogus, MSPTI_CB_DOMAIN_RUNTIME, 1), MSPTI_ERROR_INVALID_PARAMETER);
        CHECK_EQ(msptiEnableCallback(1, NULL, MSPTI_CB_DOMAIN_RUNTIME, 1), MSPTI_ERROR_INVALID_PARAMETER);
        CHECK_EQ(msptiEnableDomain(1, sub, MSPTI_CB_DOMAIN_RUNTIME), MSPTI_SUCCESS);
        CHECK_EQ(msptiEnableDomain(0, sub, MSPTI_CB_DOMAIN_HCCL), MSPTI_SUCCESS);
        CHECK_EQ(msptiEnableDomain(1, bogus, MSPTI_CB_DOMAIN_RUNTIME), MSPTI_ERROR_INVALID_PARAMETER);
    } else {
        CHECK_EQ(msptiEnableCallback(1, sub, MSPTI_CB_DOMAIN_RUNTIME, 1), preload_rc);
        CHECK_EQ(msptiEnableDomain(1, sub, MSPTI_CB_DOMAIN_RUNTIME), preload_rc);
        CHECK_EQ(msptiEnableDomain(1, sub, MSPTI_CB_DOMAIN_HCCL), hccl_rc);
    }

    /* Unsubscribe: wrong handle keeps the subscription; a stale handle is refused after re-subscribing. */
    CHECK_EQ(msptiUnsubscribe(bogus), MSPTI_ERROR_INVALID_PARAMETER);
    CHECK_EQ(msptiUnsubscribe(NULL), MSPTI_ERROR_INVALID_PARAMETER);
    CHECK_EQ(msptiSubscribe(&second, NULL, NULL), MSPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED);
    CHECK_EQ(msptiUnsubscribe(sub), MSPTI_SUCCESS);
    CHECK_EQ(msptiUnsubscribe(sub), MSPTI_ERROR_INVALID_PARAMETER);
    CHECK_EQ(msptiSubscribe(&second, NULL, NULL), MSPTI_SUCCESS);
    CHECK_EQ(msptiUnsubscribe(sub), MSPTI_ERROR_INVALID_PARAMETER);
    CHECK_EQ(msptiUnsubscribe(second), MSPTI_SUCCESS);

    /* Extensions */
    uint64_t dropped = 0;
    CHECK_EQ(msptiActivityGetDroppedRecords(MSPTI_ACTIVITY_KIND_INVALID, NULL), MSPTI_ERROR_INVALID_PARAMETER);
    CHECK_EQ(msptiActivityGetDroppedRecords((msptiActivityKind)14, &dropped), MSPTI_ERROR_INVALID_PARAMETER);
    CHECK_EQ(msptiActivityGetDroppedRecords(MSPTI_ACTIVITY_KIND_INVALID, &dropped), MSPTI_SUCCESS);
    CHECK_EQ(msptiActivityGetDroppedRecords(MSPTI_ACTIVITY_KIND_MARKER, &dropped), MSPTI_SUCCESS);
    CHECK_EQ(msptiGetTimestamp(NULL), MSPTI_ERROR_INVALID_PARAMETER);
    uint64_t ts = 0;
    CHECK_EQ(msptiGetTimestamp(&ts), MSPTI_SUCCESS);
    CHECK(ts > 1500000000ULL * 1000000000ULL); /* epoch ns */
    uint32_t version = 0;
    CHECK_EQ(msptiGetVersion(&version), MSPTI_SUCCESS);
    CHECK_EQ(msptiGetVersion(NULL), MSPTI_ERROR_INVALID_PARAMETER);
    CHECK(strcmp(msptiResultGetString(MSPTI_ERROR_WITHOUT_LD_PRELOAD), "MSPTI_ERROR_WITHOUT_LD_PRELOAD") == 0);
    CHECK(strcmp(msptiResultGetString((msptiResult)12345), "MSPTI_ERROR_UNKNOWN") == 0);
    printf("P version=%u\n", version);
    printf("P done=1\n");
    return 0;
}
