// toolkit_cmake: uses every part of the toolkit a profiler-side program touches, through the headers
// and libraries CANN installs (see CMakeLists.txt): securec.h for its string handling, acl/acl_prof.h
// (the msprof API), hixl/hixl.h, an aclnnAdd on the device, and msPTI's activity API from tools/mspti.
// Prints one line per record kind it collected and "toolkit_cmake: OK"; exits non-zero when a step
// fails or a kind it enabled brought no record.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "acl/acl_prof.h"
#include "aclnnop/aclnn_add.h"
#include "hixl/hixl.h"
#include "mspti.h"
#include "securec.h"

namespace {

constexpr size_t kBufferSize = 1 << 20;
std::map<std::string, int> g_records;

#define CHECK(cond, what)                                                                 \
    do {                                                                                  \
        if (!(cond)) {                                                                    \
            std::fprintf(stderr, "toolkit_cmake: %s failed (line %d)\n", what, __LINE__); \
            return 1;                                                                     \
        }                                                                                 \
    } while (0)

const char* kind_name(msptiActivityKind kind) {
    switch (kind) {
        case MSPTI_ACTIVITY_KIND_KERNEL: return "KERNEL";
        case MSPTI_ACTIVITY_KIND_MEMCPY: return "MEMCPY";
        case MSPTI_ACTIVITY_KIND_API: return "API";
        default: return "OTHER";
    }
}

void request_buffer(uint8_t** buffer, size_t* size, size_t* max_records) {
    *buffer = static_cast<uint8_t*>(std::aligned_alloc(8, kBufferSize));
    *size = *buffer != nullptr ? kBufferSize : 0;
    *max_records = 0;
}

void complete_buffer(uint8_t* buffer, size_t, size_t valid) {
    msptiActivity* record = nullptr;
    while (msptiActivityGetNextRecord(buffer, valid, &record) == MSPTI_SUCCESS) {
        char name[32];
        if (strcpy_s(name, sizeof name, kind_name(record->kind)) == EOK) ++g_records[name];
    }
    std::free(buffer);
}

int add_on_device(aclrtStream stream) {
    const std::vector<int64_t> shape = {4, 2}, strides = {2, 1};
    std::vector<float> self_host(8, 1.0f), other_host(8, 2.0f), out_host(8, 0.0f);
    const size_t bytes = out_host.size() * sizeof(float);
    void* dev[3] = {nullptr, nullptr, nullptr};
    aclTensor* tensors[3] = {nullptr, nullptr, nullptr};
    const float* hosts[3] = {self_host.data(), other_host.data(), out_host.data()};
    for (int i = 0; i < 3; ++i) {
        CHECK(aclrtMalloc(&dev[i], bytes, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS, "aclrtMalloc");
        CHECK(aclrtMemcpy(dev[i], bytes, hosts[i], bytes, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS, "aclrtMemcpy");
        tensors[i] = aclCreateTensor(shape.data(), shape.size(), ACL_FLOAT, strides.data(), 0, ACL_FORMAT_ND,
                                     shape.data(), shape.size(), dev[i]);
    }
    float alpha_value = 1.0f;
    aclScalar* alpha = aclCreateScalar(&alpha_value, ACL_FLOAT);
    uint64_t workspace_size = 0;
    aclOpExecutor* executor = nullptr;
    CHECK(aclnnAddGetWorkspaceSize(tensors[0], tensors[1], alpha, tensors[2], &workspace_size, &executor) == 0,
          "aclnnAddGetWorkspaceSize");
    void* workspace = nullptr;
    if (workspace_size > 0) CHECK(aclrtMalloc(&workspace, workspace_size, ACL_MEM_MALLOC_HUGE_FIRST) == 0, "workspace");
    CHECK(aclnnAdd(workspace, workspace_size, executor, stream) == 0, "aclnnAdd");
    CHECK(aclrtSynchronizeStream(stream) == ACL_SUCCESS, "aclrtSynchronizeStream");
    CHECK(aclrtMemcpy(out_host.data(), bytes, dev[2], bytes, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS, "copy back");
    for (float value : out_host) CHECK(value == 3.0f, "1 + 1 * 2 on the device");
    for (aclTensor* tensor : tensors) aclDestroyTensor(tensor);
    aclDestroyScalar(alpha);
    for (void* p : dev) aclrtFree(p);
    if (workspace != nullptr) aclrtFree(workspace);
    return 0;
}

}  // namespace

int main() {
    // securec: a bounded format, and the overflow it refuses.
    char line[16];
    CHECK(snprintf_s(line, sizeof line, sizeof line - 1, "%s", "securec") == 7, "snprintf_s");
    CHECK(strcpy_s(line, 4, "too long") == ERANGE_AND_RESET, "strcpy_s range check");

    // The msprof API is present and collects on the simulator (docs/msprof.md); initialised and
    // finalised here without a collection, it writes nothing.
    const aclError prof = aclprofInit(".", 1);
    std::printf("aclprofInit: %d\n", prof);
    CHECK(prof == ACL_SUCCESS, "aclprofInit");
    CHECK(aclprofFinalize() == ACL_SUCCESS, "aclprofFinalize");

    // HIXL is linked and answers.
    int32_t capability = -1;
    CHECK(hixl::Hixl::GetCapability(hixl::AUTO_CONNECT, capability) == hixl::SUCCESS, "Hixl::GetCapability");
    std::printf("hixl AUTO_CONNECT capability: %d\n", capability);

    msptiSubscriberHandle subscriber = nullptr;
    CHECK(msptiSubscribe(&subscriber, nullptr, nullptr) == MSPTI_SUCCESS, "msptiSubscribe");
    CHECK(msptiActivityRegisterCallbacks(request_buffer, complete_buffer) == MSPTI_SUCCESS, "RegisterCallbacks");
    for (msptiActivityKind kind : {MSPTI_ACTIVITY_KIND_KERNEL, MSPTI_ACTIVITY_KIND_MEMCPY, MSPTI_ACTIVITY_KIND_API}) {
        CHECK(msptiActivityEnable(kind) == MSPTI_SUCCESS, "msptiActivityEnable");
    }

    aclrtContext context = nullptr;
    aclrtStream stream = nullptr;
    CHECK(aclInit(nullptr) == ACL_SUCCESS, "aclInit");
    CHECK(aclrtSetDevice(0) == ACL_SUCCESS, "aclrtSetDevice");
    CHECK(aclrtCreateContext(&context, 0) == ACL_SUCCESS, "aclrtCreateContext");
    CHECK(aclrtCreateStream(&stream) == ACL_SUCCESS, "aclrtCreateStream");
    if (add_on_device(stream) != 0) return 1;
    aclrtDestroyStream(stream);
    aclrtDestroyContext(context);
    aclrtResetDevice(0);
    aclFinalize();

    CHECK(msptiActivityFlushAll(1) == MSPTI_SUCCESS, "msptiActivityFlushAll");
    CHECK(msptiUnsubscribe(subscriber) == MSPTI_SUCCESS, "msptiUnsubscribe");
    int failures = 0;
    for (const char* kind : {"KERNEL", "MEMCPY", "API"}) {
        std::printf("[%s] %d records\n", kind, g_records[kind]);
        if (g_records[kind] == 0) ++failures;
    }
    CHECK(failures == 0, "a record of every enabled kind");
    std::printf("toolkit_cmake: OK\n");
    return 0;
}
