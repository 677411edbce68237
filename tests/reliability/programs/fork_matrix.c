/*
 * Fork matrix: records made before a fork belong to the parent.
 *
 * The parent subscribes, enables KERNEL, MARKER and MEMORY, has 3 markers dropped (a declined
 * buffer), then launches and synchronises 100 kernels, makes 5 allocations, 5 host markers and 5
 * device markers, and forks without flushing. The child then, by scenario:
 *   silent     makes no msPTI or CANN call and returns from main (msPTI's exit flush runs)
 *   exits      calls exit(0) at once
 *   flushes    calls msptiActivityFlushAll(1), then msptiUnsubscribe, then exits
 *   launches   launches 20 kernels, makes 5 allocations, 5 host and 5 device markers of its own,
 *              synchronises, flushes, unsubscribes, exits
 * The child prints what it was delivered ("C" lines, one per completed buffer, and a final
 * "S child ..." line where it flushes) and checks: nothing of the parent's is delivered, its own
 * records are delivered exactly, and its drop counters start at zero and stay there. The parent
 * then flushes and must get all of its own records ("S parent ..."). Failed checks are "E" lines.
 */
#include <sys/wait.h>
#include <time.h>

#include "torture.h"

static int g_is_child;
static uint64_t g_child_delivered[KINDS];
static uint64_t g_parent_max_kernel_id; /* the parent's largest KERNEL correlation id */
static uint64_t g_child_min_kernel_id = UINT64_MAX;

static void request(uint8_t** buffer, size_t* size, size_t* max_records) {
    collector_request(&g_tool_a, buffer, size, max_records);
}

static void complete(uint8_t* buffer, size_t size, size_t valid) {
    uint64_t counts[KINDS] = {0};
    msptiActivity* r = NULL;
    while (buffer != NULL && g_mspti.next_record(buffer, valid, &r) == MSPTI_SUCCESS) {
        if (r->kind <= 0 || r->kind >= KINDS) continue;
        counts[r->kind]++;
        if (r->kind == MSPTI_ACTIVITY_KIND_KERNEL) {
            const uint64_t id = ((msptiActivityKernel*)r)->correlationId;
            if (g_is_child && id < g_child_min_kernel_id) g_child_min_kernel_id = id;
            if (!g_is_child && id > g_parent_max_kernel_id) g_parent_max_kernel_id = id;
        }
    }
    if (g_is_child) {
        /* Printed at once: at exit nobody else can report what the exit flush delivered. */
        printf("C kernel=%" PRIu64 " marker=%" PRIu64 " memory=%" PRIu64 " min_kernel_id=%" PRIu64 "\n",
               counts[MSPTI_ACTIVITY_KIND_KERNEL], counts[MSPTI_ACTIVITY_KIND_MARKER],
               counts[MSPTI_ACTIVITY_KIND_MEMORY], g_child_min_kernel_id);
        fflush(stdout);
        for (int k = 0; k < KINDS; ++k) g_child_delivered[k] += counts[k];
    }
    collector_complete(&g_tool_a, buffer, size, valid);
}

static void device_marks(int n, const char* text) {
    for (int i = 0; i < n; ++i) mstxMarkA(text, g_stream);
}

/* The parent's work before the fork; it is never flushed before the fork. */
static void parent_work(void) {
    launch(100);
    alloc_free(5);
    marks(5, "parent-host");
    device_marks(5, "parent-device");
    sync_stream();
}

static void expect_no_drops(const char* when) {
    const uint64_t total = dropped(MSPTI_ACTIVITY_KIND_INVALID);
    if (total != 0) fail("child %s: %" PRIu64 " records counted as dropped, expected 0", when, total);
}

static void child_report(const char* scenario) {
    printf("S child scenario=%s kernel=%" PRIu64 " marker=%" PRIu64 " memory=%" PRIu64 " dropped=%" PRIu64 "\n",
           scenario, g_child_delivered[MSPTI_ACTIVITY_KIND_KERNEL], g_child_delivered[MSPTI_ACTIVITY_KIND_MARKER],
           g_child_delivered[MSPTI_ACTIVITY_KIND_MEMORY], dropped(MSPTI_ACTIVITY_KIND_INVALID));
    fflush(stdout);
}

static void expect_child(uint64_t kernels, uint64_t markers, uint64_t memory) {
    if (g_child_delivered[MSPTI_ACTIVITY_KIND_KERNEL] != kernels)
        fail("child: %" PRIu64 " KERNEL delivered, its own %" PRIu64, g_child_delivered[MSPTI_ACTIVITY_KIND_KERNEL],
             kernels);
    if (g_child_delivered[MSPTI_ACTIVITY_KIND_MARKER] != markers)
        fail("child: %" PRIu64 " MARKER delivered, its own %" PRIu64, g_child_delivered[MSPTI_ACTIVITY_KIND_MARKER],
             markers);
    if (g_child_delivered[MSPTI_ACTIVITY_KIND_MEMORY] != memory)
        fail("child: %" PRIu64 " MEMORY delivered, its own %" PRIu64, g_child_delivered[MSPTI_ACTIVITY_KIND_MEMORY],
             memory);
}

static void child(const char* scenario, msptiSubscriberHandle h) {
    alarm(10);
    g_is_child = 1;
    if (strcmp(scenario, "exits") == 0) exit(0);
    if (strcmp(scenario, "silent") == 0) return;
    expect_no_drops("after the fork");
    if (strcmp(scenario, "launches") == 0) {
        launch(20);
        alloc_free(5);
        marks(5, "child-host");
        device_marks(5, "child-device");
        sync_stream();
    }
    EXPECT_RESULT(g_mspti.flush_all(1), MSPTI_SUCCESS);
    expect_no_drops("after FlushAll");
    const int own = strcmp(scenario, "launches") == 0;
    expect_child(own ? 20 : 0, own ? 15 : 0, own ? 10 : 0);
    EXPECT_RESULT(g_mspti.unsubscribe(h), MSPTI_SUCCESS);
    expect_no_drops("after Unsubscribe");
    expect_child(own ? 20 : 0, own ? 15 : 0, own ? 10 : 0);
    child_report(scenario);
    exit(g_failures == 0 ? 0 : 3);
}

int main(int argc, char** argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: fork_matrix silent|exits|flushes|launches\n");
        return 2;
    }
    const char* scenario = argv[1];
    setvbuf(stdout, NULL, _IOLBF, 0);
    use_linked_mspti();
    runtime_init();
    EXPECT_RESULT(g_mspti.register_callbacks(request, complete), MSPTI_SUCCESS);
    msptiSubscriberHandle h = NULL;
    EXPECT_RESULT(g_mspti.subscribe(&h, NULL, NULL), MSPTI_SUCCESS);
    EXPECT_RESULT(g_mspti.enable(MSPTI_ACTIVITY_KIND_KERNEL), MSPTI_SUCCESS);
    EXPECT_RESULT(g_mspti.enable(MSPTI_ACTIVITY_KIND_MARKER), MSPTI_SUCCESS);
    EXPECT_RESULT(g_mspti.enable(MSPTI_ACTIVITY_KIND_MEMORY), MSPTI_SUCCESS);
    /* Three markers dropped before the fork: the parent's drop count is not the child's. */
    g_tool_a.decline = 1;
    marks(3, "declined");
    g_tool_a.decline = 0;
    const uint64_t parent_dropped = dropped(MSPTI_ACTIVITY_KIND_INVALID);
    if (parent_dropped != 3) fail("parent: %" PRIu64 " dropped before the fork, expected 3", parent_dropped);
    parent_work();
    fflush(stdout);

    const pid_t pid = fork();
    if (pid < 0) {
        fail("fork failed");
        return 1;
    }
    if (pid == 0) {
        child(scenario, h);
        return g_failures == 0 ? 0 : 3; /* silent: returns from main */
    }
    int status = 0;
    const time_t deadline = time(NULL) + 20;
    pid_t done = 0;
    while ((done = waitpid(pid, &status, WNOHANG)) == 0 && time(NULL) < deadline) usleep(10000);
    if (done == 0) {
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
        fail("the child hung (killed after 20 s)");
    } else if (WIFSIGNALED(status)) {
        fail("the child died of signal %d", WTERMSIG(status));
    } else if (WEXITSTATUS(status) != 0) {
        fail("the child exited with %d", WEXITSTATUS(status));
    }
    /* The parent keeps every record it made before the fork. */
    EXPECT_RESULT(g_mspti.flush_all(1), MSPTI_SUCCESS);
    const uint64_t kernels = delivered(&g_tool_a, MSPTI_ACTIVITY_KIND_KERNEL);
    const uint64_t markers = delivered(&g_tool_a, MSPTI_ACTIVITY_KIND_MARKER);
    const uint64_t memory = delivered(&g_tool_a, MSPTI_ACTIVITY_KIND_MEMORY);
    const uint64_t drops = dropped(MSPTI_ACTIVITY_KIND_INVALID);
    printf("S parent kernel=%" PRIu64 " marker=%" PRIu64 " memory=%" PRIu64 " dropped=%" PRIu64
           " max_kernel_id=%" PRIu64 "\n",
           kernels, markers, memory, drops, g_parent_max_kernel_id);
    if (kernels != 100) fail("parent: %" PRIu64 " KERNEL delivered of 100", kernels);
    if (markers != 15) fail("parent: %" PRIu64 " MARKER delivered of 15", markers);
    if (memory != 10) fail("parent: %" PRIu64 " MEMORY delivered of 10", memory);
    if (drops != 3) fail("parent: %" PRIu64 " dropped, expected the 3 of before the fork", drops);
    EXPECT_RESULT(g_mspti.unsubscribe(h), MSPTI_SUCCESS);
    return g_failures == 0 ? 0 : 1;
}
