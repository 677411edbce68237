// runtime_client: an AscendCL program written the way CANN's runtime examples are. It includes
// acl/acl.h and the operator's header only, links CANN's runtime library libacl_rt.so (with the
// operator libraries) by path, and uses the runtime calls those examples use: stream status,
// error diagnostics (last error, recent message, the device's verbose error) and the forced reset.
// Prints what it saw and "runtime_client: OK"; exits 1 when a result is not what CANN documents.
#include "acl/acl.h"
#include "aclnnop/aclnn_add.h"

#include <cstdint>
#include <cstdio>
#include <vector>

#define REQUIRE(cond)                                                              \
    do {                                                                           \
        if (!(cond)) {                                                             \
            std::printf("runtime_client: FAILED %s (line %d)\n", #cond, __LINE__); \
            return 1;                                                              \
        }                                                                          \
    } while (0)

#define ACL_OK(call) REQUIRE((call) == ACL_SUCCESS)

namespace {

const char* status_name(aclrtStreamStatus status) {
    return status == ACL_STREAM_STATUS_COMPLETE    ? "complete"
           : status == ACL_STREAM_STATUS_NOT_READY ? "not ready"
                                                   : "?";
}

aclTensor* vector_tensor(int64_t length, void* device) {
    const int64_t shape[1] = {length};
    const int64_t strides[1] = {1};
    return aclCreateTensor(shape, 1, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, shape, 1, device);
}

}  // namespace

int main() {
    constexpr int32_t kDevice = 0;
    constexpr int64_t kLength = 16;
    const size_t bytes = kLength * sizeof(float);
    ACL_OK(aclInit(nullptr));
    // Two opens of the same device: one forced reset at the end closes both.
    ACL_OK(aclrtSetDevice(kDevice));
    ACL_OK(aclrtSetDevice(kDevice));
    aclrtStream stream = nullptr;
    ACL_OK(aclrtCreateStream(&stream));
    aclrtStreamStatus status = ACL_STREAM_STATUS_RESERVED;
    ACL_OK(aclrtStreamQuery(stream, &status));
    REQUIRE(status == ACL_STREAM_STATUS_COMPLETE);  // nothing issued yet

    std::vector<float> a(kLength), b(kLength), sum(kLength, 0.0f);
    for (int64_t i = 0; i < kLength; ++i) {
        a[i] = static_cast<float>(i);
        b[i] = static_cast<float>(2 * i);
    }
    void* dev[3] = {};
    for (void*& p : dev) ACL_OK(aclrtMalloc(&p, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclrtMemcpy(dev[0], bytes, a.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    ACL_OK(aclrtMemcpy(dev[1], bytes, b.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    aclTensor* x = vector_tensor(kLength, dev[0]);
    aclTensor* y = vector_tensor(kLength, dev[1]);
    aclTensor* out = vector_tensor(kLength, dev[2]);
    const float one = 1.0f;
    aclScalar* alpha = aclCreateScalar(const_cast<float*>(&one), ACL_FLOAT);
    REQUIRE(x != nullptr && y != nullptr && out != nullptr && alpha != nullptr);
    uint64_t workspace_size = 0;
    aclOpExecutor* executor = nullptr;
    ACL_OK(aclnnAddGetWorkspaceSize(x, y, alpha, out, &workspace_size, &executor));
    void* workspace = nullptr;
    if (workspace_size > 0) ACL_OK(aclrtMalloc(&workspace, workspace_size, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_OK(aclnnAdd(workspace, workspace_size, executor, stream));
    ACL_OK(aclrtStreamQuery(stream, &status));
    std::printf("stream after launch: %s\n", status_name(status));
    ACL_OK(aclrtSynchronizeStream(stream));
    ACL_OK(aclrtStreamQuery(stream, &status));
    std::printf("stream after synchronize: %s\n", status_name(status));
    REQUIRE(status == ACL_STREAM_STATUS_COMPLETE);
    ACL_OK(aclrtMemcpy(sum.data(), bytes, dev[2], bytes, ACL_MEMCPY_DEVICE_TO_HOST));
    for (int64_t i = 0; i < kLength; ++i) REQUIRE(sum[i] == a[i] + b[i]);
    std::printf("aclnnAdd: %lld sums right\n", static_cast<long long>(kLength));

    // Diagnostics after a call that fails on its argument.
    REQUIRE(aclrtGetRunMode(nullptr) != ACL_SUCCESS);
    const char* message = aclGetRecentErrMsg();
    std::printf("after a failed call: peek=%d last=%d message=%s\n",
                static_cast<int>(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL)),
                static_cast<int>(aclrtGetLastError(ACL_RT_THREAD_LEVEL)), message != nullptr ? message : "<null>");
    aclrtErrorInfo info = {};
    ACL_OK(aclrtGetErrorVerbose(kDevice, &info));
    std::printf("device error: type=%d tryRepair=%u hasDetail=%u\n", static_cast<int>(info.errorType),
                static_cast<unsigned>(info.tryRepair), static_cast<unsigned>(info.hasDetail));
    REQUIRE(info.errorType == ACL_RT_NO_ERROR);  // nothing failed on the device itself

    aclDestroyTensor(x);
    aclDestroyTensor(y);
    aclDestroyTensor(out);
    aclDestroyScalar(alpha);
    if (workspace != nullptr) ACL_OK(aclrtFree(workspace));
    for (void* p : dev) ACL_OK(aclrtFree(p));
    ACL_OK(aclrtDestroyStream(stream));
    ACL_OK(aclrtResetDeviceForce(kDevice));
    int32_t current = -1;
    REQUIRE(aclrtGetDevice(&current) != ACL_SUCCESS);  // both opens are closed
    ACL_OK(aclFinalize());
    std::printf("runtime_client: OK\n");
    return 0;
}
