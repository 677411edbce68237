/*
 * CANN's host clock failing (run with NPU_SIM_FAULTS=MsprofSysCycleTime:error=0, on every call or
 * @every=2):
 * msPTI reads CANN's clock for its own times (it adopts it when its first reading is good), and
 * CANN stamps its reports with it. A failed reading returns 0. Every record must still carry a time
 * inside the run, and no device half that came may be counted as lost.
 *
 * The workload: rounds of a kernel launch, an asynchronous copy and a host mark, a flush, then the
 * synchronisation and a flush. Output: E lines (failed checks) and one S line:
 *   S marker=<n> api=<n> kernel=<n> memcpy=<n> early=<records timed before the run began>
 *     late=<records timed after their delivery (wall clock only)> lost=<DEVICE_HALF_LOST drops>
 */
#define _GNU_SOURCE 1
#include <time.h>

#include "torture.h"

static uint64_t g_t0;     /* CLOCK_REALTIME ns before msPTI was subscribed: no record is older */
static int g_wall;        /* the wall clock: no record lies after its delivery either */
static uint64_t g_early, g_late;

static uint64_t realtime_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static void check_time(uint64_t t, uint64_t now) {
    if (t < g_t0) __atomic_add_fetch(&g_early, 1, __ATOMIC_RELAXED);
    if (g_wall && t > now) __atomic_add_fetch(&g_late, 1, __ATOMIC_RELAXED);
}

static void complete_timed(uint8_t* buffer, size_t size, size_t valid) {
    const uint64_t now = realtime_ns();
    msptiActivity* r = NULL;
    while (buffer != NULL && g_mspti.next_record(buffer, valid, &r) == MSPTI_SUCCESS) {
        if (r->kind == MSPTI_ACTIVITY_KIND_MARKER) {
            check_time(((msptiActivityMarker*)r)->timestamp, now);
        } else if (r->kind == MSPTI_ACTIVITY_KIND_RUNTIME_API) {
            const msptiActivityApi* api = (const msptiActivityApi*)r;
            check_time(api->start, now);
            check_time(api->end, now);
        }
    }
    collector_complete(&g_tool_a, buffer, size, valid);
}

int main(int argc, char** argv) {
    const int rounds = argc > 1 ? atoi(argv[1]) : 40;
    const char* clock = getenv("NPU_SIM_CLOCK");
    g_wall = clock != NULL && strcmp(clock, "wall") == 0;
    use_linked_mspti();
    runtime_init();
    void *src = NULL, *dst = NULL;
    if (aclrtMalloc(&src, 4096, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS ||
        aclrtMalloc(&dst, 4096, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS)
        fail("aclrtMalloc failed");
    g_t0 = realtime_ns();
    EXPECT_RESULT(g_mspti.register_callbacks(request_a, complete_timed), MSPTI_SUCCESS);
    msptiSubscriberHandle h = NULL;
    EXPECT_RESULT(g_mspti.subscribe(&h, NULL, NULL), MSPTI_SUCCESS);
    const msptiActivityKind kinds[] = {MSPTI_ACTIVITY_KIND_MARKER, MSPTI_ACTIVITY_KIND_RUNTIME_API,
                                       MSPTI_ACTIVITY_KIND_KERNEL, MSPTI_ACTIVITY_KIND_MEMCPY};
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; ++k) EXPECT_RESULT(g_mspti.enable(kinds[k]), MSPTI_SUCCESS);
    for (int r = 0; r < rounds; ++r) {
        launch(1);
        if (aclrtMemcpyAsync(dst, 4096, src, 4096, ACL_MEMCPY_DEVICE_TO_DEVICE, g_stream) != ACL_SUCCESS)
            fail("aclrtMemcpyAsync failed");
        marks(1, "clock");
        /* Before the synchronisation the device work may not have run: its host halves wait. */
        EXPECT_RESULT(g_mspti.flush_all(0), MSPTI_SUCCESS);
        sync_stream();
        EXPECT_RESULT(g_mspti.flush_all(0), MSPTI_SUCCESS);
    }
    EXPECT_RESULT(g_mspti.unsubscribe(h), MSPTI_SUCCESS);
    EXPECT_RESULT(g_mspti.flush_all(0), MSPTI_SUCCESS);
    uint64_t lost = 0;
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; ++k) {
        uint64_t n = 0;
        EXPECT_RESULT(msptiActivityGetDroppedRecordsByReason(kinds[k], MSPTI_DROP_REASON_DEVICE_HALF_LOST, &n),
                      MSPTI_SUCCESS);
        lost += n;
    }
    printf("S marker=%" PRIu64 " api=%" PRIu64 " kernel=%" PRIu64 " memcpy=%" PRIu64 " early=%" PRIu64 " late=%" PRIu64
           " lost=%" PRIu64 "\n",
           delivered(&g_tool_a, MSPTI_ACTIVITY_KIND_MARKER), delivered(&g_tool_a, MSPTI_ACTIVITY_KIND_RUNTIME_API),
           delivered(&g_tool_a, MSPTI_ACTIVITY_KIND_KERNEL), delivered(&g_tool_a, MSPTI_ACTIVITY_KIND_MEMCPY),
           __atomic_load_n(&g_early, __ATOMIC_RELAXED), __atomic_load_n(&g_late, __ATOMIC_RELAXED), lost);
    return 0;
}
