/*
 * libmspti.so dlopen'ed (neither linked nor preloaded), used, dlclose'd and loaded again,
 * argv[1] rounds. Each round: subscribe, enable MARKER / KERNEL / API, work, flush, unsubscribe,
 * flush, dlclose. Without interposition MEMORY must be refused with MSPTI_ERROR_WITHOUT_LD_PRELOAD.
 * After the last dlclose the application keeps using CANN and mstx (which knew msPTI's callbacks),
 * and exits normally. argv[2] is the path of libmspti.so.
 * Output: E lines (failed checks), S lines (figures).
 */
#define _GNU_SOURCE 1
#include <dlfcn.h>

#include "torture.h"

static void* load(const char* path) {
    void* lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (lib == NULL) {
        fail("dlopen(%s): %s", path, dlerror());
        return NULL;
    }
#define RESOLVE(field, name)                                       \
    do {                                                           \
        *(void**)(&g_mspti.field) = dlsym(lib, name);              \
        if (g_mspti.field == NULL) fail("dlsym(%s) failed", name); \
    } while (0)
    RESOLVE(subscribe, "msptiSubscribe");
    RESOLVE(unsubscribe, "msptiUnsubscribe");
    RESOLVE(register_callbacks, "msptiActivityRegisterCallbacks");
    RESOLVE(enable, "msptiActivityEnable");
    RESOLVE(disable, "msptiActivityDisable");
    RESOLVE(is_enabled, "msptiActivityIsEnabled");
    RESOLVE(flush_all, "msptiActivityFlushAll");
    RESOLVE(flush_period, "msptiActivityFlushPeriod");
    RESOLVE(next_record, "msptiActivityGetNextRecord");
    RESOLVE(dropped, "msptiActivityGetDroppedRecords");
#undef RESOLVE
    return lib;
}

int main(int argc, char** argv) {
    const int rounds = argc > 1 ? atoi(argv[1]) : 3;
    const char* path = argc > 2 ? argv[2] : "libmspti.so";
    setvbuf(stdout, NULL, _IOLBF, 0);
    runtime_init();
    for (int round = 0; round < rounds; ++round) {
        void* lib = load(path);
        if (lib == NULL) break;
        memset(g_tool_a.delivered, 0, sizeof g_tool_a.delivered);
        EXPECT_RESULT(g_mspti.register_callbacks(request_a, complete_a), MSPTI_SUCCESS);
        msptiSubscriberHandle h = NULL;
        EXPECT_RESULT(g_mspti.subscribe(&h, NULL, NULL), MSPTI_SUCCESS);
        EXPECT_RESULT(g_mspti.enable(MSPTI_ACTIVITY_KIND_MARKER), MSPTI_SUCCESS);
        EXPECT_RESULT(g_mspti.enable(MSPTI_ACTIVITY_KIND_KERNEL), MSPTI_SUCCESS);
        EXPECT_RESULT(g_mspti.enable(MSPTI_ACTIVITY_KIND_API), MSPTI_SUCCESS);
        EXPECT_RESULT(g_mspti.enable(MSPTI_ACTIVITY_KIND_MEMORY), MSPTI_ERROR_WITHOUT_LD_PRELOAD);
        const uint64_t dropped_before = dropped(MSPTI_ACTIVITY_KIND_MARKER) + dropped(MSPTI_ACTIVITY_KIND_KERNEL);
        launch(3);
        marks(4, "dlopen-round");
        sync_stream();
        EXPECT_RESULT(g_mspti.flush_all(0), MSPTI_SUCCESS);
        EXPECT_RESULT(g_mspti.unsubscribe(h), MSPTI_SUCCESS);
        EXPECT_RESULT(g_mspti.flush_all(0), MSPTI_SUCCESS);
        const uint64_t markers = delivered(&g_tool_a, MSPTI_ACTIVITY_KIND_MARKER);
        const uint64_t kernels = delivered(&g_tool_a, MSPTI_ACTIVITY_KIND_KERNEL);
        const uint64_t lost =
            dropped(MSPTI_ACTIVITY_KIND_MARKER) + dropped(MSPTI_ACTIVITY_KIND_KERNEL) - dropped_before;
        printf("S round=%d marker=%" PRIu64 " kernel=%" PRIu64 " dropped=%" PRIu64 "\n", round, markers, kernels, lost);
        if (markers + lost < 4) fail("round %d: %" PRIu64 " markers accounted, 4 made", round, markers + lost);
        if (kernels + lost < 3) fail("round %d: %" PRIu64 " kernels accounted, 3 launched", round, kernels + lost);
        if (dlclose(lib) != 0) fail("dlclose: %s", dlerror());
    }
    /* msPTI is unloaded (or kept loaded by the loader): CANN and mstx go on without it. */
    static const char image[] = "after unload";
    aclrtBinHandle bin = NULL;
    aclrtFuncHandle fn = NULL;
    if (aclrtBinaryLoadFromData(image, sizeof image, NULL, &bin) != ACL_SUCCESS ||
        aclrtBinaryGetFunction(bin, "kernel_after_unload", &fn) != ACL_SUCCESS)
        fail("kernel load after unload failed");
    g_kernel = fn;
    launch(2);
    marks(2, "after-unload");
    mstxDomainHandle_t d = mstxDomainCreateA("after-unload");
    mstxDomainMarkA(d, "in-domain", NULL);
    sync_stream();
    if (aclrtResetDevice(0) != ACL_SUCCESS) fail("aclrtResetDevice after unload failed");
    printf("S unloaded_and_continued=1 failures=%lu\n", g_failures);
    return 0;
}
