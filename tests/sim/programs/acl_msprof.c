/* msprof's collection API end to end (with argv[1] "-": only the launches and the async copy, for
 * msprof's application mode, and "case app_init" for the program's own aclprofInit): aclprofInit(argv[1]), a config for device 0 with ACL_API |
 * TASK_TIME, aclprofStart, three launches of kern_alpha and one of kern_beta, an async copy, a
 * synchronisation, a synchronous 1 KiB copy back, aclprofStop, one more launch (not collected), aclprofFinalize.
 * Before that, the calls a caller can get wrong, each printed as "case NAME = CODE". */
#include <stdio.h>
#include <string.h>

#include "acl/acl.h"
#include "acl/acl_prof.h"

#define CHECK(call)                                                  \
    do {                                                             \
        const int rc_ = (int)(call);                                 \
        if (rc_ != 0) {                                              \
            printf("FAIL line %d: %s = %d\n", __LINE__, #call, rc_); \
            return 1;                                                \
        }                                                            \
    } while (0)

int main(int argc, char** argv) {
    if (argc != 2) {
        printf("usage: acl_msprof OUTPUT_DIR\n");
        return 2;
    }
    const char* dir = argv[1];
    static const unsigned char image[] = {1, 2, 3};
    aclrtStream s = NULL;
    aclrtBinHandle bin = NULL;
    aclrtFuncHandle alpha = NULL, beta = NULL;
    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    CHECK(aclrtCreateStream(&s));
    CHECK(aclrtBinaryLoadFromData(image, sizeof image, NULL, &bin));
    CHECK(aclrtBinaryGetFunction(bin, "kern_alpha", &alpha));
    CHECK(aclrtBinaryGetFunction(bin, "kern_beta", &beta));

    if (strcmp(dir, "-") == 0) {
        printf("case app_init = %d\n", (int)aclprofInit("/tmp", 4));
        for (int i = 0; i < 3; ++i) CHECK(aclrtLaunchKernel(alpha, 4, NULL, 0, s));
        CHECK(aclrtLaunchKernel(beta, 8, NULL, 0, s));
        void* d = NULL;
        static unsigned char host[4096];
        CHECK(aclrtMalloc(&d, sizeof host, ACL_MEM_MALLOC_HUGE_FIRST));
        CHECK(aclrtMemcpyAsync(d, sizeof host, host, sizeof host, ACL_MEMCPY_HOST_TO_DEVICE, s));
        CHECK(aclrtSynchronizeStream(s));
        CHECK(aclrtFree(d));
        printf("done\n");
        return 0;
    }
    uint32_t devices[1] = {0};
    uint32_t missing[1] = {99};
    printf("case start_before_init = %d\n", (int)aclprofStart(NULL));
    printf("case init_null = %d\n", (int)aclprofInit(NULL, 4));
    printf("case init_wrong_length = %d\n", (int)aclprofInit(dir, strlen(dir) + 3));
    printf("case config_missing_device = %d\n",
           aclprofCreateConfig(missing, 1, ACL_AICORE_NONE, NULL, ACL_PROF_TASK_TIME) == NULL ? 1 : 0);
    CHECK(aclprofInit(dir, strlen(dir)));
    printf("case init_twice = %d\n", (int)aclprofInit(dir, strlen(dir)));
    aclprofConfig* config =
        aclprofCreateConfig(devices, 1, ACL_AICORE_PIPE_UTILIZATION, NULL, ACL_PROF_ACL_API | ACL_PROF_TASK_TIME);
    if (config == NULL) {
        printf("FAIL: aclprofCreateConfig returned NULL\n");
        return 1;
    }
    printf("case stop_before_start = %d\n", (int)aclprofStop(config));
    printf("case set_config_bad_type = %d\n", (int)aclprofSetConfig(ACL_PROF_ARGS_MAX, "1", 1));
    CHECK(aclprofSetConfig(ACL_PROF_STORAGE_LIMIT, "200MB", 5));

    CHECK(aclprofStart(config));
    printf("case start_twice = %d\n", (int)aclprofStart(config));
    printf("case destroy_running = %d\n", (int)aclprofDestroyConfig(config));
    for (int i = 0; i < 3; ++i) CHECK(aclrtLaunchKernel(alpha, 4, NULL, 0, s));
    CHECK(aclrtLaunchKernel(beta, 8, NULL, 0, s));
    void* d = NULL;
    static unsigned char host[4096];
    CHECK(aclrtMalloc(&d, sizeof host, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMemcpyAsync(d, sizeof host, host, sizeof host, ACL_MEMCPY_HOST_TO_DEVICE, s));
    CHECK(aclrtSynchronizeStream(s));
    static unsigned char back[1024];
    CHECK(aclrtMemcpy(back, sizeof back, d, sizeof back, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK(aclprofStop(config));

    CHECK(aclrtLaunchKernel(alpha, 4, NULL, 0, s)); /* after the stop: not collected */
    CHECK(aclrtSynchronizeStream(s));
    CHECK(aclprofDestroyConfig(config));
    CHECK(aclprofFinalize());
    printf("case finalize_twice = %d\n", (int)aclprofFinalize());
    CHECK(aclrtFree(d));
    CHECK(aclrtDestroyStream(s));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    printf("done\n");
    return 0;
}
