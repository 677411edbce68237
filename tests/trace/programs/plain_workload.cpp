// plain_workload: kernels and asynchronous copies on one stream, then synchronous copies and
// fills, with no mstx ranges and no operators: the plain shape of a runtime program whose trace
// every export format must draw without overlapping slices.
//
// Usage: plain_workload [iterations]   (exits non-zero on the first failing call)

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "acl/acl.h"

#define CHECK_ACL(call)                                                              \
    do {                                                                             \
        const aclError rc_ = (call);                                                 \
        if (rc_ != ACL_SUCCESS) {                                                    \
            std::fprintf(stderr, "plain_workload: %s failed with %d\n", #call, rc_); \
            return 1;                                                                \
        }                                                                            \
    } while (0)

namespace {

// Any bytes stand in for a kernel binary.
const unsigned char kKernelImage[] = {0x7f, 'E', 'L', 'F', 2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0};

int run(int iterations) {
    CHECK_ACL(aclInit(nullptr));
    CHECK_ACL(aclrtSetDevice(0));
    aclrtStream stream = nullptr;
    CHECK_ACL(aclrtCreateStream(&stream));
    const size_t bytes = 1 << 16;
    void* dev_a = nullptr;
    void* dev_b = nullptr;
    CHECK_ACL(aclrtMalloc(&dev_a, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(&dev_b, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    std::vector<unsigned char> host(bytes, 7);
    aclrtBinHandle binary = nullptr;
    aclrtFuncHandle kernel = nullptr;
    CHECK_ACL(aclrtBinaryLoadFromData(kKernelImage, sizeof kKernelImage, nullptr, &binary));
    CHECK_ACL(aclrtBinaryGetFunction(binary, "vector_add_kernel", &kernel));
    struct {
        void* x;
        void* y;
        uint32_t n;
    } args{dev_a, dev_b, static_cast<uint32_t>(bytes)};
    for (int i = 0; i < iterations; ++i) {
        CHECK_ACL(aclrtMemcpyAsync(dev_a, bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE, stream));
        CHECK_ACL(aclrtLaunchKernel(kernel, 8, &args, sizeof args, stream));
        CHECK_ACL(aclrtMemsetAsync(dev_b, bytes, 0, bytes, stream));
        CHECK_ACL(aclrtLaunchKernel(kernel, 8, &args, sizeof args, stream));
        CHECK_ACL(aclrtMemcpyAsync(host.data(), bytes, dev_b, bytes, ACL_MEMCPY_DEVICE_TO_HOST, stream));
    }
    CHECK_ACL(aclrtSynchronizeStream(stream));
    for (int i = 0; i < iterations; ++i) {
        CHECK_ACL(aclrtMemcpy(dev_a, bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
        CHECK_ACL(aclrtMemset(dev_b, bytes, 1, bytes));
        CHECK_ACL(aclrtMemcpy(host.data(), bytes, dev_b, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
    }
    CHECK_ACL(aclrtBinaryUnLoad(binary));
    CHECK_ACL(aclrtFree(dev_a));
    CHECK_ACL(aclrtFree(dev_b));
    CHECK_ACL(aclrtDestroyStream(stream));
    CHECK_ACL(aclrtResetDevice(0));
    CHECK_ACL(aclFinalize());
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    const int iterations = argc > 1 ? std::atoi(argv[1]) : 8;
    const int rc = run(iterations > 0 ? iterations : 1);
    if (rc == 0) std::printf("plain_workload: OK\n");
    return rc;
}
