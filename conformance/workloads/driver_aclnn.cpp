// The driver's aclnn command (aclnn_add).
#include "driver_common.h"

#ifdef CONFORMANCE_HAVE_ACLNN
namespace conformance::driver {

// aclnnAdd on three {4, 2} float tensors (out = self + 1.2 * other), as the CANN samples do it:
// allocations and copies in, the operator on STREAM, synchronize, copy the result out and check it.
void cmd_aclnn_add(const Args& args) {
    aclrtStream stream = stream_arg(args.at(0));
    auto malloc_fn = RESOLVE(aclrtMalloc);
    auto free_fn = RESOLVE(aclrtFree);
    auto copy_fn = RESOLVE(aclrtMemcpy);
    auto sync_fn = RESOLVE(aclrtSynchronizeStream);
    auto create_tensor = RESOLVE(aclCreateTensor);
    auto create_scalar = RESOLVE(aclCreateScalar);
    auto destroy_tensor = RESOLVE(aclDestroyTensor);
    auto destroy_scalar = RESOLVE(aclDestroyScalar);
    auto workspace_size = RESOLVE(aclnnAddGetWorkspaceSize);
    auto add = RESOLVE(aclnnAdd);
    if (!malloc_fn || !free_fn || !copy_fn || !sync_fn || !create_tensor || !create_scalar || !destroy_tensor ||
        !destroy_scalar || !workspace_size || !add) {
        missing("aclnnAdd", args);
        return;
    }
    const int64_t shape[2] = {4, 2};
    const int64_t strides[2] = {2, 1};
    const float inputs[2][8] = {{0, 1, 2, 3, 4, 5, 6, 7}, {1, 1, 1, 2, 2, 2, 3, 3}};
    float host[8] = {0};
    void* device[3] = {nullptr, nullptr, nullptr};
    aclTensor* tensors[3] = {nullptr, nullptr, nullptr};
    for (int i = 0; i < 3; ++i) {
        malloc_fn(&device[i], sizeof host, ACL_MEM_MALLOC_HUGE_FIRST);
        copy_fn(device[i], sizeof host, i < 2 ? inputs[i] : host, sizeof host, ACL_MEMCPY_HOST_TO_DEVICE);
        tensors[i] = create_tensor(shape, 2, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, shape, 2, device[i]);
    }
    float alpha_value = 1.2f;
    aclScalar* alpha = create_scalar(&alpha_value, ACL_FLOAT);
    uint64_t workspace_bytes = 0;
    aclOpExecutor* executor = nullptr;
    aclnnStatus prepared = workspace_size(tensors[0], tensors[1], alpha, tensors[2], &workspace_bytes, &executor);
    void* workspace = nullptr;
    if (workspace_bytes > 0) malloc_fn(&workspace, workspace_bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    Call call("aclnnAdd", args);
    aclnnStatus result = prepared == 0 ? add(workspace, workspace_bytes, executor, stream) : prepared;
    call.end(result);
    aclError synced = sync_fn(stream);
    copy_fn(host, sizeof host, device[2], sizeof host, ACL_MEMCPY_DEVICE_TO_HOST);
    bool correct = synced == 0 && result == 0;
    for (int i = 0; i < 8; ++i) {
        float expected = inputs[0][i] + alpha_value * inputs[1][i];
        if (host[i] < expected - 1e-3f || host[i] > expected + 1e-3f) correct = false;
    }
    call.json().str("stream", args.at(0)).inum("stream_id", stream_id_of(args.at(0)));
    call.json().num("workspace", workspace_bytes).boolean("result_ok", correct).num("t_synced", conformance::now_ns());
    call.emit();
    for (int i = 0; i < 3; ++i) {
        destroy_tensor(tensors[i]);
        free_fn(device[i]);
    }
    destroy_scalar(alpha);
    if (workspace != nullptr) free_fn(workspace);
}

}  // namespace conformance::driver
#endif  // CONFORMANCE_HAVE_ACLNN
