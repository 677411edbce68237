/*
 * Lifecycle torture for msPTI on the simulated runtime (run with libmspti.so preloaded).
 * argv[1] names the scenario:
 *   subscribe-loop      subscribe / work / flush / unsubscribe, many times; every cycle accounted
 *   stale-handle        a handle of an earlier subscription is refused, however many came after
 *   enable-storm        many threads switch kinds on and off while two others record (a round per 8
 *                       switches at most); then a clean phase
 *   flush-under-load    FlushAll and Disable/Enable(KERNEL) while four threads launch without pause,
 *                       then 3 s of FlushAll with KERNEL off and STARS on (unmatched device logs):
 *                       each call returns (a drain reads what was pending, not what keeps coming)
 *   flush-in-complete   CompleteFunc calls msptiActivityFlushAll (small buffers: many completions)
 *   request-markers     RequestFunc emits an mstx marker (its record is dropped and counted)
 *   exit-without-flush  records made, no flush: delivered at exit (printed by CompleteFunc)
 *   exit-from-thread    as above, exit(0) called by a second thread while the first records
 *   fork                fork after init: the child records and flushes, or fails cleanly
 *   two-tools           a second tool: subscribe refused, its callbacks replace the first's
 * Output: E lines (failed checks), S lines (figures) and P lines (progress, for the hang detector); exit 0.
 */
#define _GNU_SOURCE 1
#include <signal.h>
#include <sys/wait.h>
#include <time.h>

#include "torture.h"

static const int kHostKinds[] = {MSPTI_ACTIVITY_KIND_MARKER, MSPTI_ACTIVITY_KIND_MEMORY};

static void enable_common(void) {
    EXPECT_RESULT(g_mspti.enable(MSPTI_ACTIVITY_KIND_MARKER), MSPTI_SUCCESS);
    EXPECT_RESULT(g_mspti.enable(MSPTI_ACTIVITY_KIND_MEMORY), MSPTI_SUCCESS);
    EXPECT_RESULT(g_mspti.enable(MSPTI_ACTIVITY_KIND_KERNEL), MSPTI_SUCCESS);
    EXPECT_RESULT(g_mspti.enable(MSPTI_ACTIVITY_KIND_API), MSPTI_SUCCESS);
}

/* Tool A's buffers, a subscription without callbacks and the common kinds: most scenarios' start. */
static msptiSubscriberHandle start_tool_a(void) {
    EXPECT_RESULT(g_mspti.register_callbacks(request_a, complete_a), MSPTI_SUCCESS);
    msptiSubscriberHandle h = NULL;
    EXPECT_RESULT(g_mspti.subscribe(&h, NULL, NULL), MSPTI_SUCCESS);
    enable_common();
    return h;
}

/* Accounting of one window: MEMORY exactly, MARKER at least, KERNEL at least (device side). */
typedef struct {
    uint64_t start[KINDS];
} Window;

static void window_open(Window* w) {
    for (int k = 1; k < KINDS; ++k) w->start[k] = accounted(k);
}

static void window_check(const Window* w, const char* what, uint64_t memory, uint64_t markers, uint64_t kernels) {
    EXPECT_RESULT(g_mspti.flush_all(1), MSPTI_SUCCESS);
    const uint64_t mem = accounted(MSPTI_ACTIVITY_KIND_MEMORY) - w->start[MSPTI_ACTIVITY_KIND_MEMORY];
    const uint64_t mark = accounted(MSPTI_ACTIVITY_KIND_MARKER) - w->start[MSPTI_ACTIVITY_KIND_MARKER];
    const uint64_t kern = accounted(MSPTI_ACTIVITY_KIND_KERNEL) - w->start[MSPTI_ACTIVITY_KIND_KERNEL];
    if (mem != memory) fail("%s: MEMORY accounted %" PRIu64 ", produced %" PRIu64, what, mem, memory);
    if (mark < markers) fail("%s: MARKER accounted %" PRIu64 " < produced %" PRIu64, what, mark, markers);
    if (kern < kernels) fail("%s: KERNEL accounted %" PRIu64 " < launched %" PRIu64, what, kern, kernels);
}

/* ------------------------------------------------------------------------------------------ */

static void subscribe_loop(int cycles) {
    EXPECT_RESULT(g_mspti.register_callbacks(request_a, complete_a), MSPTI_SUCCESS);
    enable_common();
    for (int i = 0; i < cycles; ++i) {
        Window w;
        window_open(&w);
        msptiSubscriberHandle h = NULL;
        EXPECT_RESULT(g_mspti.subscribe(&h, NULL, NULL), MSPTI_SUCCESS);
        launch(2);
        alloc_free(1);
        marks(1, "cycle");
        sync_stream();
        EXPECT_RESULT(g_mspti.flush_all(0), MSPTI_SUCCESS);
        EXPECT_RESULT(g_mspti.unsubscribe(h), MSPTI_SUCCESS);
        EXPECT_RESULT(g_mspti.unsubscribe(h), MSPTI_ERROR_INVALID_PARAMETER);
        window_check(&w, "cycle", 2, 1, 2);
    }
    printf("S cycles=%d kernel=%" PRIu64 " memory=%" PRIu64 " marker=%" PRIu64 " dropped=%" PRIu64 "\n", cycles,
           delivered(&g_tool_a, MSPTI_ACTIVITY_KIND_KERNEL), delivered(&g_tool_a, MSPTI_ACTIVITY_KIND_MEMORY),
           delivered(&g_tool_a, MSPTI_ACTIVITY_KIND_MARKER), dropped(MSPTI_ACTIVITY_KIND_INVALID));
}

static void stale_handle(int cycles) {
    msptiSubscriberHandle first = NULL;
    EXPECT_RESULT(g_mspti.subscribe(&first, NULL, NULL), MSPTI_SUCCESS);
    EXPECT_RESULT(g_mspti.unsubscribe(first), MSPTI_SUCCESS);
    int accepted_at = -1;
    for (int i = 1; i <= cycles && accepted_at < 0; ++i) {
        msptiSubscriberHandle h = NULL;
        EXPECT_RESULT(g_mspti.subscribe(&h, NULL, NULL), MSPTI_SUCCESS);
        /* Documented: a handle of an earlier subscription is refused (docs/mspti-deviations.md §4). */
        const msptiResult rc = g_mspti.unsubscribe(first);
        if (rc != MSPTI_ERROR_INVALID_PARAMETER) {
            accepted_at = i;
            fail("the stale handle of subscription 0 was accepted (%d) during subscription %d", rc, i);
        } else {
            EXPECT_RESULT(g_mspti.unsubscribe(h), MSPTI_SUCCESS);
        }
    }
    printf("S cycles=%d stale_accepted_at=%d\n", cycles, accepted_at);
}

/* ------------------------------------------------------------------------------------------ */

typedef struct {
    unsigned seed;
    int iterations;
    uint64_t toggles;
} StormArgs;

static int g_storm_running = 1; /* accessed atomically */
/* Bounded work: in the storm, the recording threads go at most a few rounds ahead of the switching
 * threads (one round per 8 switches, plus a start), so that the records to deliver grow with the
 * storm's progress, not with the wall time a loaded machine stretches it to. 0: no bound. */
static uint64_t g_storm_toggles;     /* accessed atomically */
static int g_paced_workers;          /* set before the workers start */

static void* storm_thread(void* p) {
    StormArgs* a = (StormArgs*)p;
    for (int i = 0; i < a->iterations; ++i) {
        const int kind = (int)(rand_r(&a->seed) % 16) - 1; /* -1..14: invalid ones too */
        const int valid = kind >= 1 && kind < MSPTI_ACTIVITY_KIND_COUNT;
        const msptiResult want = valid ? MSPTI_SUCCESS : MSPTI_ERROR_INVALID_PARAMETER;
        if (rand_r(&a->seed) & 1) {
            EXPECT_RESULT(g_mspti.enable((msptiActivityKind)kind), want);
        } else {
            EXPECT_RESULT(g_mspti.disable((msptiActivityKind)kind), want);
        }
        if (!valid) CHECK(!g_mspti.is_enabled((msptiActivityKind)kind));
        if ((i & 63) == 0) {
            EXPECT_RESULT(g_mspti.flush_all(0), MSPTI_SUCCESS);
            progress("storm_iteration", i);
        }
        a->toggles++;
        __atomic_add_fetch(&g_storm_toggles, 1, __ATOMIC_RELAXED);
    }
    return NULL;
}

static void* worker_thread(void* p) {
    (void)p;
    if (aclrtSetDevice(0) != ACL_SUCCESS) fail("worker aclrtSetDevice failed");
    uint64_t rounds = 0;
    while (__atomic_load_n(&g_storm_running, __ATOMIC_ACQUIRE)) {
        if (g_paced_workers && rounds * 8 > __atomic_load_n(&g_storm_toggles, __ATOMIC_RELAXED) + 512) {
            usleep(100); /* ahead of the switching threads: let them catch up */
            continue;
        }
        ++rounds;
        launch(1);
        alloc_free(1);
        marks(1, "storm");
    }
    sync_stream();
    return NULL;
}

static void enable_storm(int threads, int iterations) {
    EXPECT_RESULT(g_mspti.register_callbacks(request_a, complete_a), MSPTI_SUCCESS);
    msptiSubscriberHandle h = NULL;
    EXPECT_RESULT(g_mspti.subscribe(&h, NULL, NULL), MSPTI_SUCCESS);
    EXPECT_RESULT(g_mspti.flush_period(5), MSPTI_SUCCESS);
    pthread_t storm[16], workers[2];
    StormArgs args[16];
    g_paced_workers = 1;
    for (int w = 0; w < 2; ++w) pthread_create(&workers[w], NULL, worker_thread, NULL);
    for (int t = 0; t < threads; ++t) {
        args[t].seed = (unsigned)(t * 7919 + 1);
        args[t].iterations = iterations;
        args[t].toggles = 0;
        pthread_create(&storm[t], NULL, storm_thread, &args[t]);
    }
    uint64_t toggles = 0;
    for (int t = 0; t < threads; ++t) {
        pthread_join(storm[t], NULL);
        toggles += args[t].toggles;
    }
    progress("storm_threads_joined", threads);
    __atomic_store_n(&g_storm_running, 0, __ATOMIC_RELEASE);
    for (int w = 0; w < 2; ++w) pthread_join(workers[w], NULL);
    g_paced_workers = 0;
    progress("workers_joined", 2);
    EXPECT_RESULT(g_mspti.flush_period(0), MSPTI_SUCCESS);

    /* The switches are consistent and work again: a clean, accounted phase. */
    for (int k = 1; k < KINDS; ++k) EXPECT_RESULT(g_mspti.disable((msptiActivityKind)k), MSPTI_SUCCESS);
    for (int k = 1; k < KINDS; ++k) CHECK(!g_mspti.is_enabled((msptiActivityKind)k));
    EXPECT_RESULT(g_mspti.flush_all(0), MSPTI_SUCCESS);
    enable_common();
    Window w;
    window_open(&w);
    launch(5);
    alloc_free(5);
    marks(5, "after-storm");
    sync_stream();
    window_check(&w, "after the storm", 10, 5, 5);
    EXPECT_RESULT(g_mspti.unsubscribe(h), MSPTI_SUCCESS);
    printf("S threads=%d toggles=%" PRIu64 " delivered_kernel=%" PRIu64 " delivered_memory=%" PRIu64 " dropped=%" PRIu64
           "\n",
           threads, toggles, delivered(&g_tool_a, MSPTI_ACTIVITY_KIND_KERNEL),
           delivered(&g_tool_a, MSPTI_ACTIVITY_KIND_MEMORY), dropped(MSPTI_ACTIVITY_KIND_INVALID));
}

/* ------------------------------------------------------------------------------------------ */

static double seconds_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* More launching threads than cores: the producers can outrun a drain that parses what they write. */
enum { kLoadWorkers = 4 };

static void flush_under_load(int rounds) {
    const msptiSubscriberHandle h = start_tool_a();
    pthread_t workers[kLoadWorkers];
    for (int w = 0; w < kLoadWorkers; ++w) pthread_create(&workers[w], NULL, worker_thread, NULL);
    /* Kernels launched while KERNEL is on reach the tool before the rounds start: on a loaded machine
     * the workers may not run at all within the rounds' short enabled windows, and the delivered
     * count would say nothing. Bounded: a delivery path that never delivers fails the count below. */
    for (const double until = seconds_now() + 30.0;
         delivered(&g_tool_a, MSPTI_ACTIVITY_KIND_KERNEL) == 0 && seconds_now() < until;) {
        EXPECT_RESULT(g_mspti.flush_all(1), MSPTI_SUCCESS);
    }
    double longest = 0;
    for (int r = 0; r < rounds; ++r) {
        const double start = seconds_now();
        EXPECT_RESULT(g_mspti.flush_all(0), MSPTI_SUCCESS);
        EXPECT_RESULT(g_mspti.disable(MSPTI_ACTIVITY_KIND_KERNEL), MSPTI_SUCCESS);
        EXPECT_RESULT(g_mspti.enable(MSPTI_ACTIVITY_KIND_KERNEL), MSPTI_SUCCESS);
        const double took = seconds_now() - start;
        if (took > longest) longest = took;
        progress("round", r);
    }
    /* KERNEL off, STARS kept on by COMMUNICATION: every kernel's device logs come without a track and
     * wait unmatched on their task key, which comes back with every task-id wrap. */
    EXPECT_RESULT(g_mspti.disable(MSPTI_ACTIVITY_KIND_KERNEL), MSPTI_SUCCESS);
    EXPECT_RESULT(g_mspti.enable(MSPTI_ACTIVITY_KIND_COMMUNICATION), MSPTI_SUCCESS);
    int unmatched_rounds = 0;
    for (const double until = seconds_now() + 3.0; seconds_now() < until; ++unmatched_rounds) {
        const double start = seconds_now();
        EXPECT_RESULT(g_mspti.flush_all(0), MSPTI_SUCCESS);
        const double took = seconds_now() - start;
        if (took > longest) longest = took;
        progress("unmatched_round", unmatched_rounds);
    }
    EXPECT_RESULT(g_mspti.disable(MSPTI_ACTIVITY_KIND_COMMUNICATION), MSPTI_SUCCESS);
    __atomic_store_n(&g_storm_running, 0, __ATOMIC_RELEASE);
    for (int w = 0; w < kLoadWorkers; ++w) pthread_join(workers[w], NULL);
    progress("workers_joined", kLoadWorkers);
    EXPECT_RESULT(g_mspti.flush_all(0), MSPTI_SUCCESS);
    EXPECT_RESULT(g_mspti.unsubscribe(h), MSPTI_SUCCESS);
    printf("S rounds=%d unmatched_rounds=%d longest_ms=%.1f delivered_kernel=%" PRIu64 " dropped_kernel=%" PRIu64 "\n",
           rounds, unmatched_rounds, longest * 1e3, delivered(&g_tool_a, MSPTI_ACTIVITY_KIND_KERNEL),
           dropped(MSPTI_ACTIVITY_KIND_KERNEL));
}

/* ------------------------------------------------------------------------------------------ */

static void flush_in_complete(void) {
    g_tool_a.buffer_size = 1024; /* a few records per buffer: many completions */
    g_tool_a.flush_in_complete = 1;
    const msptiSubscriberHandle h = start_tool_a();
    Window w;
    window_open(&w);
    launch(50);
    alloc_free(200);
    marks(100, "flush-in-complete");
    sync_stream();
    window_check(&w, "FlushAll inside CompleteFunc", 400, 100, 50);
    EXPECT_RESULT(g_mspti.unsubscribe(h), MSPTI_SUCCESS);
    EXPECT_RESULT(g_mspti.flush_all(0), MSPTI_SUCCESS);
    pthread_mutex_lock(&g_tool_a.lock);
    const uint64_t completes = g_tool_a.completes;
    pthread_mutex_unlock(&g_tool_a.lock);
    const uint64_t flushes = __atomic_load_n(&g_tool_a.flush_in_complete_calls, __ATOMIC_RELAXED);
    printf("S completes=%" PRIu64 " flushes_in_complete=%" PRIu64 " delivered_memory=%" PRIu64 "\n", completes, flushes,
           delivered(&g_tool_a, MSPTI_ACTIVITY_KIND_MEMORY));
    CHECK(flushes > 1);
}

static void request_markers(void) {
    g_tool_a.buffer_size = 2048;
    g_tool_a.mark_in_request = 1;
    const msptiSubscriberHandle h = start_tool_a();
    Window w;
    window_open(&w);
    alloc_free(100);
    marks(100, "outside-request");
    sync_stream();
    EXPECT_RESULT(g_mspti.flush_all(0), MSPTI_SUCCESS);
    const uint64_t inside = __atomic_load_n(&g_tool_a.marks_in_request, __ATOMIC_RELAXED);
    /* Every marker, also the ones made inside RequestFunc, is delivered or counted as dropped. */
    window_check(&w, "markers inside RequestFunc", 200, 100 + inside, 0);
    EXPECT_RESULT(g_mspti.unsubscribe(h), MSPTI_SUCCESS);
    pthread_mutex_lock(&g_tool_a.lock);
    const uint64_t requests = g_tool_a.requests;
    pthread_mutex_unlock(&g_tool_a.lock);
    printf("S requests=%" PRIu64 " marks_in_request=%" PRIu64 " dropped_marker=%" PRIu64 "\n", requests, inside,
           dropped(MSPTI_ACTIVITY_KIND_MARKER));
    CHECK(inside > 0);
}

/* ------------------------------------------------------------------------------------------ */

/* Prints the running totals from CompleteFunc, so they are visible even when exit delivers them. */
static void complete_printing(uint8_t* b, size_t s, size_t v) {
    collector_complete(&g_tool_a, b, s, v);
    printf("D memory=%" PRIu64 " marker=%" PRIu64 " kernel=%" PRIu64 "\n",
           delivered(&g_tool_a, MSPTI_ACTIVITY_KIND_MEMORY), delivered(&g_tool_a, MSPTI_ACTIVITY_KIND_MARKER),
           delivered(&g_tool_a, MSPTI_ACTIVITY_KIND_KERNEL));
    fflush(stdout);
}

static void exit_without_flush(int from_thread);

static void* exit_thread(void* p) {
    (void)p;
    fflush(stdout);
    exit(0);
}

static void exit_without_flush(int from_thread) {
    EXPECT_RESULT(g_mspti.register_callbacks(request_a, complete_printing), MSPTI_SUCCESS);
    msptiSubscriberHandle h = NULL;
    EXPECT_RESULT(g_mspti.subscribe(&h, NULL, NULL), MSPTI_SUCCESS);
    enable_common();
    launch(3);
    alloc_free(7);
    marks(4, "before-exit");
    sync_stream();
    printf("S produced_memory=14 produced_marker=4 produced_kernel=3\n");
    fflush(stdout);
    if (from_thread) {
        pthread_t t;
        pthread_create(&t, NULL, exit_thread, NULL);
        /* Still recording (markers: msPTI's own path) when the other thread exits; not counted. */
        for (;;) marks(1, "while-exiting");
    }
    /* No FlushAll, no Unsubscribe: return from main. */
}

/* ------------------------------------------------------------------------------------------ */

static void fork_after_init(void) {
    const msptiSubscriberHandle h = start_tool_a();
    launch(2);
    alloc_free(2);
    sync_stream();
    EXPECT_RESULT(g_mspti.flush_all(0), MSPTI_SUCCESS);
    fflush(stdout);
    const pid_t child = fork();
    if (child == 0) {
        /* The child: works (records delivered or counted) or fails with documented results. */
        alarm(5);
        memset(g_tool_a.delivered, 0, sizeof g_tool_a.delivered);
        const uint64_t dropped_before = dropped(MSPTI_ACTIVITY_KIND_MEMORY);
        alloc_free(5);
        marks(3, "child");
        EXPECT_RESULT(g_mspti.flush_all(0), MSPTI_SUCCESS);
        const uint64_t mem =
            delivered(&g_tool_a, MSPTI_ACTIVITY_KIND_MEMORY) + dropped(MSPTI_ACTIVITY_KIND_MEMORY) - dropped_before;
        printf("S child_memory_accounted=%" PRIu64 " child_memory_delivered=%" PRIu64 "\n", mem,
               delivered(&g_tool_a, MSPTI_ACTIVITY_KIND_MEMORY));
        if (mem != 10) fail("child: MEMORY accounted %" PRIu64 ", produced 10", mem);
        EXPECT_RESULT(g_mspti.unsubscribe(h), MSPTI_SUCCESS);
        fflush(stdout);
        _exit(g_failures == 0 ? 0 : 3);
    }
    int status = 0;
    const time_t deadline = time(NULL) + 10;
    pid_t done = 0;
    while ((done = waitpid(child, &status, WNOHANG)) == 0 && time(NULL) < deadline) usleep(10000);
    if (done == 0) {
        kill(child, SIGKILL);
        waitpid(child, &status, 0);
        fail("fork: the child hung (killed after 10 s)");
    } else if (WIFSIGNALED(status)) {
        fail("fork: the child died of signal %d", WTERMSIG(status));
    } else if (WEXITSTATUS(status) != 0) {
        fail("fork: the child exited with %d", WEXITSTATUS(status));
    }
    /* The parent goes on as before. */
    Window w;
    window_open(&w);
    launch(2);
    alloc_free(3);
    marks(2, "parent-after-fork");
    sync_stream();
    window_check(&w, "parent after fork", 6, 2, 2);
    EXPECT_RESULT(g_mspti.unsubscribe(h), MSPTI_SUCCESS);
    printf("S child_status=%d parent_memory=%" PRIu64 "\n", status, delivered(&g_tool_a, MSPTI_ACTIVITY_KIND_MEMORY));
}

/* ------------------------------------------------------------------------------------------ */

static void two_tools(void) {
    /* Tool A. */
    const msptiSubscriberHandle a = start_tool_a();
    Window w;
    window_open(&w);
    alloc_free(10);
    marks(5, "tool-a");
    /* Tool B arrives: its subscribe is refused, A's subscription is untouched. */
    msptiSubscriberHandle b = NULL;
    EXPECT_RESULT(g_mspti.subscribe(&b, NULL, NULL), MSPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED);
    CHECK(b == NULL);
    EXPECT_RESULT(g_mspti.unsubscribe(b), MSPTI_ERROR_INVALID_PARAMETER);
    /* Its callbacks replace A's ("calling again replaces the pair"): buffers A handed out still go
       back to A, new buffers come from B. */
    EXPECT_RESULT(g_mspti.register_callbacks(request_b, complete_b), MSPTI_SUCCESS);
    alloc_free(10);
    marks(5, "tool-b");
    EXPECT_RESULT(g_mspti.flush_all(0), MSPTI_SUCCESS);
    const uint64_t b_before = delivered(&g_tool_b, MSPTI_ACTIVITY_KIND_MEMORY);
    alloc_free(5);
    sync_stream();
    /* Nothing is lost: A and B together hold every record, or it is counted as dropped. */
    window_check(&w, "two tools", 50, 10, 0);
    if (delivered(&g_tool_b, MSPTI_ACTIVITY_KIND_MEMORY) - b_before != 10)
        fail("records after B's registration and a flush did not go to B");
    EXPECT_RESULT(g_mspti.unsubscribe(a), MSPTI_SUCCESS);
    printf("S a_memory=%" PRIu64 " b_memory=%" PRIu64 " a_marker=%" PRIu64 " b_marker=%" PRIu64 " dropped=%" PRIu64
           "\n",
           delivered(&g_tool_a, MSPTI_ACTIVITY_KIND_MEMORY), delivered(&g_tool_b, MSPTI_ACTIVITY_KIND_MEMORY),
           delivered(&g_tool_a, MSPTI_ACTIVITY_KIND_MARKER), delivered(&g_tool_b, MSPTI_ACTIVITY_KIND_MARKER),
           dropped(MSPTI_ACTIVITY_KIND_INVALID));
}

int main(int argc, char** argv) {
    const char* scenario = argc > 1 ? argv[1] : "";
    const int n = argc > 2 ? atoi(argv[2]) : 0;
    setvbuf(stdout, NULL, _IOLBF, 0);
    use_linked_mspti();
    runtime_init();
    (void)kHostKinds;
    if (strcmp(scenario, "subscribe-loop") == 0) {
        subscribe_loop(n > 0 ? n : 200);
    } else if (strcmp(scenario, "stale-handle") == 0) {
        stale_handle(n > 0 ? n : 130);
    } else if (strcmp(scenario, "enable-storm") == 0) {
        enable_storm(8, n > 0 ? n : 2000);
    } else if (strcmp(scenario, "flush-under-load") == 0) {
        flush_under_load(n > 0 ? n : 200);
    } else if (strcmp(scenario, "flush-in-complete") == 0) {
        flush_in_complete();
    } else if (strcmp(scenario, "request-markers") == 0) {
        request_markers();
    } else if (strcmp(scenario, "exit-without-flush") == 0) {
        exit_without_flush(0);
    } else if (strcmp(scenario, "exit-from-thread") == 0) {
        exit_without_flush(1);
    } else if (strcmp(scenario, "fork") == 0) {
        fork_after_init();
    } else if (strcmp(scenario, "two-tools") == 0) {
        two_tools();
    } else {
        fail("unknown scenario '%s'", scenario);
    }
    printf("S failures=%lu\n", g_failures);
    return 0;
}
