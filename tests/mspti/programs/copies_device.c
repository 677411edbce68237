/*
 * Asynchronous copies and fills timed on the device, reached through msPTI's interposer
 * ("linked") or through libascendcl's own functions ("dlsym", as ctypes and plugin loaders reach
 * them). On one stream, `rounds` times: a long kernel (interposed), an asynchronous H2D copy of
 * 1 MiB and an asynchronous fill of 4 KiB (both through the chosen path), then a synchronous D2H
 * copy (interposed) bracketed by msptiGetTimestamp. Between rounds an interposed aclrtMalloc and
 * aclrtSynchronizeStream, whose ids a stale correlation would pick up.
 * argv[1] = rounds, argv[2] = "linked" | "dlsym". Prints records and callbacks (collector.h,
 * callback_log.h) and one fact line per synchronous copy: "P sync<i>=<before>,<after>".
 */
#include <acl/acl.h>
#include <dlfcn.h>

#include "callback_log.h"

typedef aclError (*copy_fn)(void*, size_t, const void*, size_t, aclrtMemcpyKind, aclrtStream);
typedef aclError (*fill_fn)(void*, size_t, int32_t, size_t, aclrtStream);

int main(int argc, char** argv) {
    const int rounds = argc > 1 ? atoi(argv[1]) : 4;
    const int via_dlsym = argc > 2 && strcmp(argv[2], "dlsym") == 0;
    copy_fn copy = aclrtMemcpyAsync;
    fill_fn fill = aclrtMemsetAsync;
    if (via_dlsym) {
        void* acl = dlopen("libascendcl.so", RTLD_NOW | RTLD_LOCAL);
        CHECK(acl != NULL);
        copy = (copy_fn)dlsym(acl, "aclrtMemcpyAsync");
        fill = (fill_fn)dlsym(acl, "aclrtMemsetAsync");
        CHECK(copy != NULL && fill != NULL);
    }
    CHECK_EQ(aclInit(NULL), ACL_SUCCESS);
    msptiSubscriberHandle sub = NULL;
    CHECK_EQ(msptiSubscribe(&sub, callback_log, (void*)0x1234), MSPTI_SUCCESS);
    CHECK_EQ(msptiEnableDomain(1, sub, MSPTI_CB_DOMAIN_RUNTIME), MSPTI_SUCCESS);
    CHECK(collector_register());
    CHECK_EQ(msptiActivityEnable(MSPTI_ACTIVITY_KIND_KERNEL), MSPTI_SUCCESS);
    CHECK_EQ(msptiActivityEnable(MSPTI_ACTIVITY_KIND_MEMCPY), MSPTI_SUCCESS);
    CHECK_EQ(msptiActivityEnable(MSPTI_ACTIVITY_KIND_MEMSET), MSPTI_SUCCESS);
    CHECK_EQ(msptiActivityEnable(MSPTI_ACTIVITY_KIND_MEMORY), MSPTI_SUCCESS);
    CHECK_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    aclrtStream stream = NULL;
    CHECK_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    static const char image[] = "simulated kernel image";
    aclrtBinHandle bin = NULL;
    aclrtFuncHandle fn = NULL;
    CHECK_EQ(aclrtBinaryLoadFromData(image, sizeof image, NULL, &bin), ACL_SUCCESS);
    CHECK_EQ(aclrtBinaryGetFunction(bin, "add_custom", &fn), ACL_SUCCESS);
    enum { kCopyBytes = 1 << 20, kFillBytes = 4096 };
    void* dev = NULL;
    CHECK_EQ(aclrtMalloc(&dev, kCopyBytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    static unsigned char host[kCopyBytes];

    uint64_t args[4] = {0};
    for (int i = 0; i < rounds; ++i) {
        CHECK_EQ(aclrtLaunchKernel(fn, 8, args, sizeof args, stream), ACL_SUCCESS);
        CHECK_EQ(copy(dev, kCopyBytes, host, kCopyBytes, ACL_MEMCPY_HOST_TO_DEVICE, stream), ACL_SUCCESS);
        CHECK_EQ(fill(dev, kCopyBytes, 300 + i, kFillBytes, stream), ACL_SUCCESS);
        uint64_t before = 0, after = 0;
        CHECK_EQ(msptiGetTimestamp(&before), MSPTI_SUCCESS);
        CHECK_EQ(aclrtMemcpy(host, kCopyBytes, dev, 2048, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
        CHECK_EQ(msptiGetTimestamp(&after), MSPTI_SUCCESS);
        printf("P sync%d=%" PRIu64 ",%" PRIu64 "\n", i, before, after);
        void* scratch = NULL;
        CHECK_EQ(aclrtMalloc(&scratch, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
        CHECK_EQ(aclrtFree(scratch), ACL_SUCCESS);
        CHECK_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    }
    CHECK_EQ(msptiActivityFlushAll(1), MSPTI_SUCCESS);
    printf("P rounds=%d dlsym=%d\n", rounds, via_dlsym);
    CHECK_EQ(aclrtFree(dev), ACL_SUCCESS);
    CHECK_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
    CHECK_EQ(aclrtResetDevice(0), ACL_SUCCESS);
    CHECK_EQ(msptiUnsubscribe(sub), MSPTI_SUCCESS);
    CHECK_EQ(msptiActivityFlushAll(1), MSPTI_SUCCESS);
    collector_summary();
    return 0;
}
