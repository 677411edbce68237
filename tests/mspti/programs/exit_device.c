/*
 * Kernels launched, then the program just returns: the exit flush drains the device and delivers.
 * argv[1] = "flushed": a FlushAll (its device drain runs on the main thread) comes first, then more
 * kernels, whose device data the exit drain may parse on the same thread, now exiting.
 */
#include <string.h>

#include <acl/acl.h>

#include "collector.h"
#include "mstx/ms_tools_ext.h"

int main(int argc, char** argv) {
    const int flushed = argc > 1 && strcmp(argv[1], "flushed") == 0;
    CHECK_EQ(aclInit(NULL), ACL_SUCCESS);
    msptiSubscriberHandle sub = NULL;
    CHECK_EQ(msptiSubscribe(&sub, NULL, NULL), MSPTI_SUCCESS);
    CHECK(collector_register());
    CHECK_EQ(msptiActivityEnable(MSPTI_ACTIVITY_KIND_KERNEL), MSPTI_SUCCESS);
    CHECK_EQ(msptiActivityEnable(MSPTI_ACTIVITY_KIND_MARKER), MSPTI_SUCCESS);
    CHECK_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    aclrtStream stream = NULL;
    CHECK_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    static const char image[] = "image";
    aclrtBinHandle bin = NULL;
    aclrtFuncHandle fn = NULL;
    CHECK_EQ(aclrtBinaryLoadFromData(image, sizeof image, NULL, &bin), ACL_SUCCESS);
    CHECK_EQ(aclrtBinaryGetFunction(bin, "exit_kernel", &fn), ACL_SUCCESS);
    uint64_t args[2] = {0, 0};
    for (int i = 0; i < 5; ++i) CHECK_EQ(aclrtLaunchKernel(fn, 2, args, sizeof args, stream), ACL_SUCCESS);
    if (flushed) {
        CHECK_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
        CHECK_EQ(msptiActivityFlushAll(1), MSPTI_SUCCESS);
        for (int i = 0; i < 200; ++i) CHECK_EQ(aclrtLaunchKernel(fn, 2, args, sizeof args, stream), ACL_SUCCESS);
    }
    mstxMarkA("device-at-exit", stream);
    CHECK_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    printf("P exiting=1\n");
    fflush(stdout);
    return 0; /* no FlushAll, no Disable, no Unsubscribe */
}
