// The ACL / aclnn workload shared by the msPTI samples: device, context and stream
// set-up, and one aclnnAdd on two {4, 2} float tensors (out = self + 1.2 * other)
// whose eight results are printed. Header-only, C++17.
#pragma once

#include <cstdio>
#include <functional>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_add.h"

namespace sample {

#define SAMPLE_CHECK(call)                                                                          \
    do {                                                                                            \
        const int sample_rc_ = (call);                                                              \
        if (sample_rc_ != 0) {                                                                      \
            std::fprintf(stderr, "%s:%d: %s returned %d\n", __FILE__, __LINE__, #call, sample_rc_); \
            return sample_rc_;                                                                      \
        }                                                                                           \
    } while (0)

struct AclEnv {
    int32_t device = 0;
    aclrtContext context = nullptr;
    aclrtStream stream = nullptr;
};

inline int init_acl(AclEnv& env, int32_t device = 0) {
    env.device = device;
    SAMPLE_CHECK(aclInit(nullptr));
    SAMPLE_CHECK(aclrtSetDevice(device));
    SAMPLE_CHECK(aclrtCreateContext(&env.context, device));
    SAMPLE_CHECK(aclrtSetCurrentContext(env.context));
    SAMPLE_CHECK(aclrtCreateStream(&env.stream));
    return 0;
}

inline int deinit_acl(AclEnv& env) {
    SAMPLE_CHECK(aclrtDestroyStream(env.stream));
    SAMPLE_CHECK(aclrtDestroyContext(env.context));
    SAMPLE_CHECK(aclrtResetDevice(env.device));
    SAMPLE_CHECK(aclFinalize());
    return 0;
}

// Hooks around the three phases of the workload (used by the external-correlation sample).
struct AddPhases {
    std::function<void()> before_setup, after_setup, before_execution, after_execution, before_cleanup, after_cleanup;
};

inline void call(const std::function<void()>& hook) {
    if (hook) hook();
}

inline int do_acl_add(aclrtStream stream, const AddPhases& phases = {}) {
    const std::vector<int64_t> shape = {4, 2}, strides = {2, 1};
    const std::vector<float> self_host = {0, 1, 2, 3, 4, 5, 6, 7}, other_host = {1, 1, 1, 2, 2, 2, 3, 3};
    std::vector<float> out_host(8, 0.0f);
    const size_t bytes = out_host.size() * sizeof(float);
    void* dev[3] = {nullptr, nullptr, nullptr};
    aclTensor* tensors[3] = {nullptr, nullptr, nullptr};
    const float* hosts[3] = {self_host.data(), other_host.data(), out_host.data()};

    call(phases.before_setup);
    for (int i = 0; i < 3; ++i) {
        SAMPLE_CHECK(aclrtMalloc(&dev[i], bytes, ACL_MEM_MALLOC_HUGE_FIRST));
        SAMPLE_CHECK(aclrtMemcpy(dev[i], bytes, hosts[i], bytes, ACL_MEMCPY_HOST_TO_DEVICE));
        tensors[i] = aclCreateTensor(shape.data(), shape.size(), ACL_FLOAT, strides.data(), 0, ACL_FORMAT_ND,
                                     shape.data(), shape.size(), dev[i]);
    }
    float alpha_value = 1.2f;
    aclScalar* alpha = aclCreateScalar(&alpha_value, ACL_FLOAT);
    call(phases.after_setup);

    call(phases.before_execution);
    uint64_t workspace_size = 0;
    aclOpExecutor* executor = nullptr;
    SAMPLE_CHECK(aclnnAddGetWorkspaceSize(tensors[0], tensors[1], alpha, tensors[2], &workspace_size, &executor));
    void* workspace = nullptr;
    if (workspace_size > 0) SAMPLE_CHECK(aclrtMalloc(&workspace, workspace_size, ACL_MEM_MALLOC_HUGE_FIRST));
    SAMPLE_CHECK(aclnnAdd(workspace, workspace_size, executor, stream));
    SAMPLE_CHECK(aclrtSynchronizeStream(stream));
    SAMPLE_CHECK(aclrtMemcpy(out_host.data(), bytes, dev[2], bytes, ACL_MEMCPY_DEVICE_TO_HOST));
    for (size_t i = 0; i < out_host.size(); ++i) std::printf("result[%zu] is: %f\n", i, out_host[i]);
    call(phases.after_execution);

    call(phases.before_cleanup);
    for (aclTensor* t : tensors) aclDestroyTensor(t);
    aclDestroyScalar(alpha);
    for (void* p : dev) SAMPLE_CHECK(aclrtFree(p));
    if (workspace != nullptr) SAMPLE_CHECK(aclrtFree(workspace));
    call(phases.after_cleanup);
    return 0;
}

}  // namespace sample
