// aclnnEmbedding: out[i..., :] = weight[indices[i...], :]. An index outside
// [0, V) yields a row of zeros (and a warning) instead of reading out of bounds.
#include <memory>

#include "aclnnop/aclnn_embedding.h"
#include "core/fault_plan.h"
#include "core/log.h"
#include "nnopbase/dtype.h"
#include "nnopbase/tensor.h"
#include "opapi/checks.h"
#include "opapi/op_launcher.h"
#include "opapi/registry.h"

namespace npusim::opapi {

namespace {

// Declared in the operator registry (hand-written: its own checks and compute).
[[maybe_unused]] const bool kRegistered =
    register_op({"aclnnEmbedding", OpFamily::Index, kFloatTypes | DTypeSet{ACL_INT32, ACL_INT64}, Kernel::GatherV2});

aclnnStatus prepare(const aclTensor* weight, const aclTensor* indices, const aclTensor* out, uint64_t* workspaceSize,
                    aclOpExecutor** executor) {
    const char* api = "aclnnEmbedding";
    OPAPI_CHECK(check_not_null(api, {weight, indices, out, workspaceSize, executor}));
    OPAPI_CHECK(check_tensor(api, "weight", weight));
    OPAPI_CHECK(check_tensor(api, "indices", indices));
    OPAPI_CHECK(check_tensor(api, "out", out));
    const TensorView w = view_of(weight), idx = view_of(indices), y = view_of(out);
    OPAPI_CHECK(check_float_type(api, "weight", w.dtype));
    OPAPI_CHECK(check_rank(api, "weight", w.dims, 2, 2));
    if (idx.dtype != ACL_INT32 && idx.dtype != ACL_INT64) {
        return invalid(api, "indices has data type %s; int32 or int64 expected", nn::dtype_name(idx.dtype));
    }
    OPAPI_CHECK(check_rank(api, "indices", idx.dims, 0, nn::kMaxDims - 1));
    OPAPI_CHECK(check_same_dtype(api, "out", y.dtype, w.dtype));
    Dims expected = idx.dims;
    expected.push_back(w.dims[1]);
    OPAPI_CHECK(check_same_dims(api, "out", y.dims, expected));
    const int64_t rows = idx.numel();
    std::vector<KernelLaunch> launches{
        {Kernel::GatherV2, w.dtype, vector_cost(0, double(idx.bytes() + 2 * y.bytes()), rows, 32)}};
    auto compute = [w, idx, y]() {
        const std::vector<double> index = read_doubles(idx);
        const std::vector<float> table = read_floats(w);
        const int64_t vocab = w.dims[0], dim = w.dims[1];
        std::vector<float> r(static_cast<size_t>(y.numel()), 0.0f);
        for (size_t i = 0; i < index.size(); ++i) {
            const int64_t row = static_cast<int64_t>(index[i]);
            if (row < 0 || row >= vocab) {
                log_message(LogLevel::Warn, "aclnnEmbedding: index %lld is outside [0, %lld)", (long long)row,
                            (long long)vocab);
                continue;
            }
            std::copy(table.begin() + row * dim, table.begin() + (row + 1) * dim,
                      r.begin() + static_cast<long>(i) * dim);
        }
        write_floats(y, r);
    };
    return hand_over(std::make_unique<OpExecutor>(api, 0, compute, std::move(launches),
                                                  std::vector<void*>{w.data, idx.data, y.data}),
                     workspaceSize, executor);
}

}  // namespace

}  // namespace npusim::opapi

NPUSIM_C_EXPORT aclnnStatus aclnnEmbeddingGetWorkspaceSize(const aclTensor* weight, const aclTensor* indices,
                                                           const aclTensor* out, uint64_t* workspaceSize,
                                                           aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnEmbeddingGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare(weight, indices, out, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnEmbedding)
