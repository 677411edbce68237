/* Later aclnn operators after failed ones, in one process and on one stream: a first phase refused
 * for bad input, a second phase whose kernel launch fails (a fault plan fails the first
 * aclrtLaunchKernelWithHostArgs), an aclop type that is not implemented; then x + 1 and cumsum(x)
 * must compute. Prints "case value" lines. */
#include <stdio.h>

#include "acl/acl.h"
#include "acl/acl_op_compiler.h"
#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_cumsum.h"

static aclTensor* vec(void* dev, int64_t n) {
    const int64_t dims[1] = {n};
    const int64_t strides[1] = {1};
    return aclCreateTensor(dims, 1, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, dims, 1, dev);
}

static void print_values(const char* name, void* dev) {
    float host[4] = {0};
    aclrtMemcpy(host, sizeof host, dev, sizeof host, ACL_MEMCPY_DEVICE_TO_HOST);
    printf("%s %g %g %g %g\n", name, host[0], host[1], host[2], host[3]);
}

int main(void) {
    aclrtStream stream = NULL;
    void *x_dev = NULL, *y_dev = NULL, *z_dev = NULL;
    uint64_t ws = 0;
    aclOpExecutor* ex = NULL;
    if (aclInit(NULL) != 0 || aclrtSetDevice(0) != 0 || aclrtCreateStream(&stream) != 0) return 3;
    if (aclrtMalloc(&x_dev, 16, ACL_MEM_MALLOC_HUGE_FIRST) != 0 ||
        aclrtMalloc(&y_dev, 16, ACL_MEM_MALLOC_HUGE_FIRST) != 0 ||
        aclrtMalloc(&z_dev, 16, ACL_MEM_MALLOC_HUGE_FIRST) != 0) {
        return 3;
    }
    const float x_host[4] = {1, 2, 3, 4};
    aclrtMemcpy(x_dev, 16, x_host, 16, ACL_MEMCPY_HOST_TO_DEVICE);
    aclTensor *x = vec(x_dev, 4), *y = vec(y_dev, 4), *z = vec(z_dev, 4), *short_out = vec(y_dev, 3);
    const float one = 1.0f;
    aclScalar* s_one = aclCreateScalar((void*)&one, ACL_FLOAT);

    /* 1. a refused first phase (out of the wrong shape) */
    printf("bad_input %d\n", aclnnAddsGetWorkspaceSize(x, s_one, s_one, short_out, &ws, &ex));
    /* 2. a second phase whose launch fails (the plan fails the first launch) */
    if (aclnnCumsumGetWorkspaceSize(x, 0, ACL_FLOAT, z, &ws, &ex) != 0) return 4;
    printf("failed_launch %d\n", aclnnCumsum(NULL, 0, ex, stream));
    /* 3. an aclop type the simulator does not implement */
    printf("unknown_aclop %d\n", aclopCompileAndExecute("NoSuchOperator", 0, NULL, NULL, 0, NULL, NULL, NULL,
                                                        ACL_ENGINE_SYS, ACL_COMPILE_SYS, NULL, stream));
    /* then: x + 1 and cumsum(x) */
    if (aclnnAddsGetWorkspaceSize(x, s_one, s_one, y, &ws, &ex) != 0) return 5;
    printf("add %d\n", aclnnAdds(NULL, 0, ex, stream));
    if (aclnnCumsumGetWorkspaceSize(x, 0, ACL_FLOAT, z, &ws, &ex) != 0) return 6;
    printf("cumsum %d\n", aclnnCumsum(NULL, 0, ex, stream));
    printf("sync %d\n", aclrtSynchronizeStream(stream));
    print_values("y", y_dev);
    print_values("z", z_dev);
    aclDestroyTensor(x);
    aclDestroyTensor(y);
    aclDestroyTensor(z);
    aclDestroyTensor(short_out);
    aclDestroyScalar(s_one);
    aclrtFree(x_dev);
    aclrtFree(y_dev);
    aclrtFree(z_dev);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}
