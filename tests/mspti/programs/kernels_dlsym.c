/*
 * Kernel launches that do not go through msPTI's interposer: the program opens libascendcl
 * itself and calls the aclrtLaunchKernel it finds there (as ctypes, frameworks, JITs and plugin
 * loaders do), with interposed calls in between (aclrtMemsetAsync, aclrtSynchronizeStream)
 * whose ids a stale correlation would pick up.
 * argv[1] = launches, argv[2] = "dlsym" (libascendcl's own aclrtLaunchKernel) or "linked" (the
 * symbol the program links, i.e. msPTI's wrapper when preloaded), argv[3] = bit mask of the kinds
 * to enable. Prints the records and callbacks (collector.h, callback_log.h).
 */
#include <acl/acl.h>
#include <dlfcn.h>

#include "callback_log.h"

typedef aclError (*launch_fn)(aclrtFuncHandle, uint32_t, const void*, size_t, aclrtStream);

int main(int argc, char** argv) {
    const int launches = argc > 1 ? atoi(argv[1]) : 10;
    const int via_dlsym = argc > 2 && strcmp(argv[2], "dlsym") == 0;
    const unsigned long mask = argc > 3 ? strtoul(argv[3], NULL, 0) : (1UL << MSPTI_ACTIVITY_KIND_KERNEL);

    launch_fn launch = aclrtLaunchKernel;
    if (via_dlsym) {
        void* acl = dlopen("libascendcl.so", RTLD_NOW | RTLD_LOCAL);
        CHECK(acl != NULL);
        launch = (launch_fn)dlsym(acl, "aclrtLaunchKernel");
        CHECK(launch != NULL);
    }
    CHECK_EQ(aclInit(NULL), ACL_SUCCESS);
    msptiSubscriberHandle sub = NULL;
    CHECK_EQ(msptiSubscribe(&sub, callback_log, (void*)0x1234), MSPTI_SUCCESS);
    CHECK_EQ(msptiEnableDomain(1, sub, MSPTI_CB_DOMAIN_RUNTIME), MSPTI_SUCCESS);
    CHECK(collector_register());
    for (int k = 1; k < MSPTI_ACTIVITY_KIND_COUNT; ++k) {
        if (mask & (1UL << k)) CHECK_EQ(msptiActivityEnable((msptiActivityKind)k), MSPTI_SUCCESS);
    }
    CHECK_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    aclrtStream stream = NULL;
    CHECK_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    static const char image[] = "simulated kernel image";
    aclrtBinHandle bin = NULL;
    aclrtFuncHandle fn = NULL;
    CHECK_EQ(aclrtBinaryLoadFromData(image, sizeof image, NULL, &bin), ACL_SUCCESS);
    CHECK_EQ(aclrtBinaryGetFunction(bin, "add_custom", &fn), ACL_SUCCESS);
    void* dev = NULL;
    CHECK_EQ(aclrtMalloc(&dev, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);

    uint64_t args[4] = {0};
    for (int i = 0; i < launches; ++i) {
        CHECK_EQ(launch(fn, 8, args, sizeof args, stream), ACL_SUCCESS);
        if (i % 3 == 1) CHECK_EQ(aclrtMemsetAsync(dev, 4096, 0, 4096, stream), ACL_SUCCESS);
        if (i % 3 == 2) CHECK_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    }
    CHECK_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    CHECK_EQ(msptiActivityFlushAll(1), MSPTI_SUCCESS);
    printf("P launches=%d dlsym=%d\n", launches, via_dlsym);
    CHECK_EQ(aclrtFree(dev), ACL_SUCCESS);
    CHECK_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
    CHECK_EQ(aclrtResetDevice(0), ACL_SUCCESS);
    CHECK_EQ(msptiUnsubscribe(sub), MSPTI_SUCCESS);
    CHECK_EQ(msptiActivityFlushAll(1), MSPTI_SUCCESS);
    collector_summary();
    return 0;
}
