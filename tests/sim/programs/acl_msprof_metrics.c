/* AI Core metrics through msprof's collection API: aclprofInit(argv[1]), a config for device 0 with
 * TASK_TIME and the AI Core metric set argv[2] (aclprofAicoreMetrics; 255 none), aclprofStart, one
 * launch each of a matmul (20 blocks, cube), an add (8 blocks, vector), kern_alpha (a fixed-duration
 * cost entry, 4 blocks) and an attention kernel (4 blocks, mixed cube and vector), a synchronisation, aclprofStop, aclprofFinalize. With argv[2] "bad", prints
 * whether aclprofCreateConfig refuses an aicoreMetrics value outside the enumeration. */
#include <stdio.h>
#include <stdlib.h>
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
    if (argc != 3) {
        printf("usage: acl_msprof_metrics OUTPUT_DIR METRICS\n");
        return 2;
    }
    const char* dir = argv[1];
    static const unsigned char image[] = {1, 2, 3};
    uint32_t devices[1] = {0};
    aclrtStream s = NULL;
    aclrtBinHandle bin = NULL;
    aclrtFuncHandle matmul = NULL, add = NULL, fixed = NULL, mixed = NULL;
    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    CHECK(aclrtCreateStream(&s));
    CHECK(aclrtBinaryLoadFromData(image, sizeof image, NULL, &bin));
    CHECK(aclrtBinaryGetFunction(bin, "MatMulV2_test", &matmul));
    CHECK(aclrtBinaryGetFunction(bin, "Add_test", &add));
    CHECK(aclrtBinaryGetFunction(bin, "kern_alpha", &fixed));
    CHECK(aclrtBinaryGetFunction(bin, "FlashAttention_test", &mixed));
    CHECK(aclprofInit(dir, strlen(dir)));
    if (strcmp(argv[2], "bad") == 0) {
        printf("case config_bad_metrics = %d\n",
               aclprofCreateConfig(devices, 1, (aclprofAicoreMetrics)42, NULL, ACL_PROF_TASK_TIME) == NULL ? 1 : 0);
        CHECK(aclprofFinalize());
        return 0;
    }
    const aclprofAicoreMetrics metrics = (aclprofAicoreMetrics)atoi(argv[2]);
    aclprofConfig* config = aclprofCreateConfig(devices, 1, metrics, NULL, ACL_PROF_ACL_API | ACL_PROF_TASK_TIME);
    if (config == NULL) {
        printf("FAIL: aclprofCreateConfig returned NULL\n");
        return 1;
    }
    CHECK(aclprofStart(config));
    CHECK(aclrtLaunchKernel(matmul, 20, NULL, 0, s));
    CHECK(aclrtLaunchKernel(add, 8, NULL, 0, s));
    CHECK(aclrtLaunchKernel(fixed, 4, NULL, 0, s));
    CHECK(aclrtLaunchKernel(mixed, 4, NULL, 0, s));
    CHECK(aclrtSynchronizeStream(s));
    CHECK(aclprofStop(config));
    CHECK(aclprofDestroyConfig(config));
    CHECK(aclprofFinalize());
    CHECK(aclrtDestroyStream(s));
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    printf("done\n");
    return 0;
}
