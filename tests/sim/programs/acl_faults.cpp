// Fault plans on the ACL runtime: prints the result of every call so the test
// can see which calls the plan (NPU_SIM_FAULTS) failed, and how many calls of
// each function the simulator counted. Argument "count": ask for call counts.
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "acl/acl.h"
#include "core/fault_plan.h"

int main(int argc, char** argv) {
    if (argc > 1 && std::strcmp(argv[1], "count") == 0) npusim::set_call_counting(true);
    std::printf("counting %d\n", npusim::call_counting() ? 1 : 0);
    std::printf("set_device %d\n", aclrtSetDevice(0));
    void* ptrs[4] = {};
    for (int i = 0; i < 4; ++i)
        std::printf("malloc %d %d\n", i + 1, aclrtMalloc(&ptrs[i], 64, ACL_MEM_MALLOC_HUGE_FIRST));
    for (void* p : ptrs) {
        if (p != nullptr) std::printf("free %d\n", aclrtFree(p));
    }
    static const unsigned char image[] = {1};
    aclrtBinHandle bin = nullptr;
    aclrtFuncHandle fn = nullptr;
    std::printf("load %d\n", aclrtBinaryLoadFromData(image, sizeof image, nullptr, &bin));
    std::printf("get_function %d\n", aclrtBinaryGetFunction(bin, "k", &fn));
    for (int i = 0; i < 6; ++i) std::printf("launch %d %d\n", i + 1, aclrtLaunchKernel(fn, 1, nullptr, 0, nullptr));
    std::printf("synchronize %d\n", aclrtSynchronizeDevice());
    aclrtStreamStatus status = ACL_STREAM_STATUS_RESERVED;
    std::printf("stream_query %d\n", aclrtStreamQuery(nullptr, &status));
    aclrtErrorInfo info{};
    std::printf("error_verbose %d\n", aclrtGetErrorVerbose(0, &info));
    std::printf("reset_force %d\n", aclrtResetDeviceForce(0));
    for (const char* name : {"aclrtSetDevice", "aclrtMalloc", "aclrtFree", "aclrtLaunchKernel",
                             "aclrtSynchronizeDevice", "aclrtGetDevice"}) {
        std::printf("calls %s %llu\n", name, static_cast<unsigned long long>(npusim::fault_site_calls(name)));
    }
    std::printf("soc %s\n", aclrtGetSocName() ? aclrtGetSocName() : "(null)");
    return 0;
}
