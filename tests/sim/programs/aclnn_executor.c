/* Executor life cycle and handle misuse of the aclnn two-phase API; prints "case status" lines. */
#include <stdio.h>
#include <stdlib.h>

#include "acl/acl.h"
#include "aclnnop/aclnn_mul.h"
#include "aclnnop/aclnn_relu.h"

static aclTensor* make(void* dev) {
    const int64_t dims[2] = {3, 4};
    const int64_t strides[2] = {4, 1};
    const int64_t storage[1] = {12};
    return aclCreateTensor(dims, 2, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, storage, 1, dev);
}

int main(void) {
    aclrtStream stream = NULL;
    void* dev = NULL;
    uint64_t ws = 0;
    aclOpExecutor* ex = NULL;
    if (aclInit(NULL) != 0 || aclrtSetDevice(0) != 0 || aclrtCreateStream(&stream) != 0) return 3;
    if (aclrtMalloc(&dev, 48, ACL_MEM_MALLOC_HUGE_FIRST) != 0) return 3;
    aclTensor *x = make(dev), *y = make(dev);

    printf("null_executor %d\n", aclnnRelu(NULL, 0, NULL, stream));

    aclnnReluGetWorkspaceSize(x, y, &ws, &ex);
    if (aclnnRelu(NULL, 0, ex, stream) != 0) return 4;
    printf("second_run %d\n", aclnnRelu(NULL, 0, ex, stream));

    aclnnReluGetWorkspaceSize(x, y, &ws, &ex);
    printf("other_op %d\n", aclnnMul(NULL, 0, ex, stream));
    if (aclnnRelu(NULL, 0, ex, stream) != 0) return 5; /* a refused call does not consume the executor */

    aclnnReluGetWorkspaceSize(x, y, &ws, &ex);
    aclSetAclOpExecutorRepeatable(ex);
    printf("repeat_1 %d\n", aclnnRelu(NULL, 0, ex, stream));
    printf("repeat_2 %d\n", aclnnRelu(NULL, 0, ex, stream));
    if (aclDestroyAclOpExecutor(ex) != 0) return 6;
    printf("destroyed %d\n", aclnnRelu(NULL, 0, ex, stream));
    printf("destroy_twice %d\n", aclDestroyAclOpExecutor(ex));

    printf("null_workspace_size_out %d\n", aclnnReluGetWorkspaceSize(x, y, NULL, &ex));

    {
        const int64_t dims[2] = {3, 4};
        const int64_t storage[1] = {11}; /* one element short */
        aclTensor* bad = aclCreateTensor(dims, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, storage, 1, dev);
        float one = 1.0f;
        printf("create_tensor_bad_view %s\n", bad == NULL ? "null" : "made");
        printf("create_scalar_null %s\n", aclCreateScalar(NULL, ACL_FLOAT) == NULL ? "null" : "made");
        (void)one;
    }
    printf("destroy_null_tensor %d\n", aclDestroyTensor(NULL));
    aclrtSynchronizeStream(stream);
    aclDestroyTensor(x);
    aclDestroyTensor(y);
    aclrtFree(dev);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}
