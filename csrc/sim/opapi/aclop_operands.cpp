#include "opapi/aclop_operands.h"

#include <algorithm>

#include "core/log.h"
#include "nnopbase/dtype.h"

namespace npusim::opapi {

aclError aclop_bad(const char* type, const char* what, const std::string& detail) {
    log_message(LogLevel::Error, "aclopCompileAndExecute(\"%s\"): %s%s", type, what, detail.c_str());
    return ACL_ERROR_INVALID_PARAM;
}

std::vector<double> operand_values(const AclopOperand& o) {
    std::vector<double> v(static_cast<size_t>(numel(o.dims)));
    const size_t size = nn::dtype_size(o.dtype);
    if (o.data == nullptr || size == 0 || v.size() * size > o.bytes) return {};
    for (size_t i = 0; i < v.size(); ++i) v[i] = nn::load_element(static_cast<const char*>(o.data) + i * size, o.dtype);
    return v;
}

TensorView contiguous_view(const AclopOperand& o) {
    TensorView v;
    v.dtype = o.dtype;
    v.dims = o.dims;
    v.strides.assign(o.dims.size(), 1);
    for (size_t i = o.dims.size(); i-- > 1;) v.strides[i - 1] = v.strides[i] * o.dims[i];
    v.data = o.data;
    return v;
}

bool fits(const AclopOperand& o) {
    return o.data != nullptr && static_cast<size_t>(numel(o.dims)) * nn::dtype_size(o.dtype) <= o.bytes;
}

AclTensorPtr tensor_of(const AclopOperand& o) {
    const TensorView v = contiguous_view(o);
    const Dims storage{std::max<int64_t>(numel(v.dims), 1)};
    return AclTensorPtr(aclCreateTensor(v.dims.data(), v.dims.size(), v.dtype, v.strides.data(), 0, ACL_FORMAT_ND,
                                        storage.data(), 1, v.data),
                        aclDestroyTensor);
}

aclError launch_now(const char* type, std::unique_ptr<OpExecutor> op, aclrtStream stream) {
    uint64_t ws = 0;
    aclOpExecutor* executor = nullptr;
    const aclnnStatus status = hand_over(std::move(op), &ws, &executor);
    return run_prepared(type, status, executor, stream);
}

aclError run_prepared(const char* type, aclnnStatus status, aclOpExecutor* executor, aclrtStream stream) {
    if (status != ACLNN_SUCCESS) return ACL_ERROR_INVALID_PARAM;
    return run_op(type, nullptr, 0, executor, stream) == ACLNN_SUCCESS ? ACL_SUCCESS : ACL_ERROR_INVALID_PARAM;
}

}  // namespace npusim::opapi
