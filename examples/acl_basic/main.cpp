// acl_basic: the ACL runtime basics, written against the CANN headers only.
//
// Initialises ACL, selects a device, allocates device and pinned host memory,
// moves data with every copy kind and checks that it round-trips, fills memory,
// loads a kernel binary and launches a kernel on several blocks, times it with
// events, then releases everything. Prints "acl_basic: OK" and a few figures,
// and exits non-zero on the first failure.
//
// Build: ./build.sh (or CMake with ASCEND_HOME_PATH set), run: ./acl_basic [device]

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "acl/acl.h"

namespace {

int g_failures = 0;

#define CHECK_ACL(call)                                                                             \
    do {                                                                                            \
        const aclError rc_ = (call);                                                                \
        if (rc_ != ACL_SUCCESS) {                                                                   \
            std::fprintf(stderr, "acl_basic: %s failed with %d (line %d)\n", #call, rc_, __LINE__); \
            return 1;                                                                               \
        }                                                                                           \
    } while (0)

#define CHECK_TRUE(cond, what)                                                               \
    do {                                                                                     \
        if (!(cond)) {                                                                       \
            std::fprintf(stderr, "acl_basic: check failed: %s (line %d)\n", what, __LINE__); \
            ++g_failures;                                                                    \
        }                                                                                    \
    } while (0)

// Any bytes stand in for a compiled kernel binary here; a real program would read its .o file.
const unsigned char kKernelImage[] = {0x7f, 'E', 'L', 'F', 2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0};

std::vector<unsigned char> pattern(size_t n, unsigned seed) {
    std::vector<unsigned char> v(n);
    for (size_t i = 0; i < n; ++i) v[i] = static_cast<unsigned char>((i * 31u + seed) & 0xFF);
    return v;
}

int run(int32_t device_id) {
    CHECK_ACL(aclInit(nullptr));
    const char* soc = aclrtGetSocName();
    uint32_t device_count = 0;
    CHECK_ACL(aclrtGetDeviceCount(&device_count));
    CHECK_ACL(aclrtSetDevice(device_id));
    int32_t major = 0, minor = 0, patch = 0;
    CHECK_ACL(aclrtGetVersion(&major, &minor, &patch));
    int64_t cube_cores = 0, vector_cores = 0;
    CHECK_ACL(aclrtGetDeviceInfo(static_cast<uint32_t>(device_id), ACL_DEV_ATTR_CUBE_CORE_NUM, &cube_cores));
    CHECK_ACL(aclrtGetDeviceInfo(static_cast<uint32_t>(device_id), ACL_DEV_ATTR_VECTOR_CORE_NUM, &vector_cores));

    aclrtStream stream = nullptr;
    CHECK_ACL(aclrtCreateStream(&stream));
    aclrtEvent start = nullptr, stop = nullptr;
    CHECK_ACL(aclrtCreateEvent(&start));
    CHECK_ACL(aclrtCreateEvent(&stop));

    const size_t bytes = 1 << 20;
    void* dev_a = nullptr;
    void* dev_b = nullptr;
    void* host_pinned = nullptr;
    CHECK_ACL(aclrtMalloc(&dev_a, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(&dev_b, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMallocHost(&host_pinned, bytes));
    size_t free_bytes = 0, total_bytes = 0;
    CHECK_ACL(aclrtGetMemInfo(ACL_HBM_MEM, &free_bytes, &total_bytes));

    // Host -> device -> device -> host, synchronously, and host -> host.
    const std::vector<unsigned char> src = pattern(bytes, 1);
    std::vector<unsigned char> back(bytes, 0);
    CHECK_ACL(aclrtMemcpy(dev_a, bytes, src.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(dev_b, bytes, dev_a, bytes, ACL_MEMCPY_DEVICE_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(back.data(), bytes, dev_b, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK_TRUE(back == src, "H2D -> D2D -> D2H round trip");
    CHECK_ACL(aclrtMemcpy(host_pinned, bytes, src.data(), bytes, ACL_MEMCPY_HOST_TO_HOST));
    CHECK_TRUE(std::memcmp(host_pinned, src.data(), bytes) == 0, "H2H copy");

    // The remaining kinds, asynchronously on the stream.
    const std::vector<unsigned char> src2 = pattern(bytes, 7);
    CHECK_ACL(aclrtMemcpyAsync(dev_a, bytes, src2.data(), bytes, ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE, stream));
    CHECK_ACL(aclrtMemcpyAsync(dev_b, bytes, dev_a, bytes, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, stream));
    CHECK_ACL(aclrtMemcpyAsync(host_pinned, bytes, dev_b, bytes, ACL_MEMCPY_DEFAULT, stream));
    CHECK_ACL(aclrtSynchronizeStream(stream));
    CHECK_TRUE(std::memcmp(host_pinned, src2.data(), bytes) == 0, "async H2BUF2D -> inner D2D -> DEFAULT round trip");

    // Fill, then read back.
    CHECK_ACL(aclrtMemset(dev_a, bytes, 0x5A, bytes / 2));
    CHECK_ACL(aclrtMemsetAsync(static_cast<unsigned char*>(dev_a) + bytes / 2, bytes / 2, 0x1A5, bytes / 2, stream));
    CHECK_ACL(aclrtSynchronizeStream(stream));
    CHECK_ACL(aclrtMemcpy(back.data(), bytes, dev_a, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
    bool filled = true;
    for (size_t i = 0; i < bytes; ++i) filled = filled && back[i] == (i < bytes / 2 ? 0x5A : 0xA5);
    CHECK_TRUE(filled, "memset values");

    // A kernel on several blocks, timed with events.
    aclrtBinHandle binary = nullptr;
    aclrtFuncHandle kernel = nullptr;
    CHECK_ACL(aclrtBinaryLoadFromData(kKernelImage, sizeof kKernelImage, nullptr, &binary));
    CHECK_ACL(aclrtBinaryGetFunction(binary, "vector_add_kernel", &kernel));
    struct {
        void* x;
        void* y;
        uint32_t n;
    } args{dev_a, dev_b, static_cast<uint32_t>(bytes)};
    const uint32_t blocks = 8;
    const int launches = 4;
    CHECK_ACL(aclrtRecordEvent(start, stream));
    for (int i = 0; i < launches; ++i) CHECK_ACL(aclrtLaunchKernel(kernel, blocks, &args, sizeof args, stream));
    CHECK_ACL(aclrtRecordEvent(stop, stream));
    CHECK_ACL(aclrtSynchronizeEvent(stop));
    float elapsed_ms = 0;
    CHECK_ACL(aclrtEventElapsedTime(&elapsed_ms, start, stop));
    CHECK_TRUE(elapsed_ms > 0, "kernels take device time");
    aclrtEventRecordedStatus status = ACL_EVENT_RECORDED_STATUS_NOT_READY;
    CHECK_ACL(aclrtQueryEventStatus(stop, &status));
    CHECK_TRUE(status == ACL_EVENT_RECORDED_STATUS_COMPLETE, "stop event complete after synchronising");
    CHECK_ACL(aclrtSynchronizeDevice());

    CHECK_ACL(aclrtBinaryUnLoad(binary));
    CHECK_ACL(aclrtFreeHost(host_pinned));
    CHECK_ACL(aclrtFree(dev_b));
    CHECK_ACL(aclrtFree(dev_a));
    CHECK_ACL(aclrtDestroyEvent(stop));
    CHECK_ACL(aclrtDestroyEvent(start));
    CHECK_ACL(aclrtDestroyStream(stream));
    CHECK_ACL(aclrtResetDevice(device_id));
    CHECK_ACL(aclFinalize());

    if (g_failures != 0) {
        std::fprintf(stderr, "acl_basic: %d check(s) failed\n", g_failures);
        return 1;
    }
    std::printf("acl_basic: SoC %s, %u device(s), ACL %d.%d.%d\n", soc ? soc : "?", device_count, major, minor, patch);
    std::printf("acl_basic: device %d: %lld cube cores, %lld vector cores, %zu of %zu bytes free\n", device_id,
                static_cast<long long>(cube_cores), static_cast<long long>(vector_cores), free_bytes, total_bytes);
    std::printf("acl_basic: %d launches of %u blocks took %.3f ms of device time\n", launches, blocks, elapsed_ms);
    std::printf("acl_basic: OK\n");
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    const int32_t device = argc > 1 ? static_cast<int32_t>(std::atoi(argv[1])) : 0;
    return run(device);
}
