// aclnnEmbeddingDenseBackward: out[v, :] = the sum of grad's rows i with indices[i] == v, in
// double, rounded once to out's type. Row paddingIdx stays zero; with scaleGradByFreq each row is
// divided by its index's count. An index outside [0, numWeights) contributes nothing and is logged
// once per run, as aclnnEmbedding skips such an index instead of reading out of bounds.
//
// One EmbeddingDenseGrad kernel: CANN's EmbeddingDenseGradV2 takes indices already sorted (and
// their positions), i.e. a Sort kernel launched before it; EmbeddingDenseGrad takes the indices as
// given and accumulates in one kernel, which is what this operator models.
#include <cstdint>
#include <memory>

#include "aclnnop/aclnn_embedding_dense_backward.h"
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
    register_op({"aclnnEmbeddingDenseBackward", OpFamily::Index, kFloatTypes | DTypeSet{ACL_INT32, ACL_INT64},
                 Kernel::EmbeddingDenseGrad});

// The index types CANN's documentation lists (bfloat16 is not among them).
bool is_index_type(aclDataType type) {
    switch (type) {
        case ACL_FLOAT:
        case ACL_FLOAT16:
        case ACL_DOUBLE:
        case ACL_INT32:
        case ACL_INT64:
        case ACL_INT16:
        case ACL_INT8:
        case ACL_UINT8:
        case ACL_BOOL: return true;
        default: return false;
    }
}

struct DensePlan {
    TensorView grad, indices, out;
    int64_t weights = 0, dim = 0;
    int64_t padding = -1;  // -1: none
    bool scale = false;
};

void accumulate(const DensePlan& p) {
    const std::vector<double> g = read_doubles(p.grad), index = read_doubles(p.indices);
    std::vector<double> sum(static_cast<size_t>(p.weights * p.dim), 0.0);
    std::vector<int64_t> count(static_cast<size_t>(p.weights), 0);
    int64_t skipped = 0;
    double first_bad = 0;
    for (size_t i = 0; i < index.size(); ++i) {
        // Compared as doubles first, so that a NaN or huge float index is never cast.
        if (!(index[i] >= 0 && index[i] < double(p.weights))) {
            if (skipped++ == 0) first_bad = index[i];
            continue;
        }
        const int64_t row = static_cast<int64_t>(index[i]);
        ++count[size_t(row)];
        if (row == p.padding) continue;
        const double* src = g.data() + i * size_t(p.dim);
        double* dst = sum.data() + row * p.dim;
        for (int64_t d = 0; d < p.dim; ++d) dst[d] += src[d];
    }
    if (skipped > 0) {
        log_message(LogLevel::Warn,
                    "aclnnEmbeddingDenseBackward: %lld index(es) outside [0, %lld) skipped (the first %g)",
                    (long long)skipped, (long long)p.weights, first_bad);
    }
    if (p.scale) {
        for (int64_t row = 0; row < p.weights; ++row) {
            if (count[size_t(row)] <= 1) continue;
            for (int64_t d = 0; d < p.dim; ++d) sum[size_t(row * p.dim + d)] /= double(count[size_t(row)]);
        }
    }
    write_doubles(p.out, sum);
}

aclnnStatus prepare(const aclTensor* grad, const aclTensor* indices, uint64_t numWeights, uint64_t paddingIdx,
                    bool scaleGradByFreq, const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
    const char* api = "aclnnEmbeddingDenseBackward";
    OPAPI_CHECK(check_not_null(api, {grad, indices, out, workspaceSize, executor}));
    OPAPI_CHECK(check_tensor(api, "grad", grad));
    OPAPI_CHECK(check_tensor(api, "indices", indices));
    OPAPI_CHECK(check_tensor(api, "out", out));
    DensePlan p;
    p.grad = view_of(grad);
    p.indices = view_of(indices);
    p.out = view_of(out);
    OPAPI_CHECK(check_float_type(api, "grad", p.grad.dtype));
    OPAPI_CHECK(check_same_dtype(api, "out", p.out.dtype, p.grad.dtype));
    if (!is_index_type(p.indices.dtype)) {
        return invalid(api, "indices has data type %s; a float, integer or bool type expected",
                       nn::dtype_name(p.indices.dtype));
    }
    OPAPI_CHECK(check_rank(api, "grad", p.grad.dims, 2, nn::kMaxDims));
    OPAPI_CHECK(check_rank(api, "indices", p.indices.dims, 1, nn::kMaxDims));
    p.dim = p.grad.dims.back();
    const int64_t rows = numel(Dims(p.grad.dims.begin(), p.grad.dims.end() - 1));
    if (rows != p.indices.numel()) {
        return invalid(api, "grad %s holds %lld rows; indices %s has %lld elements", dims_text(p.grad.dims).c_str(),
                       (long long)rows, dims_text(p.indices.dims).c_str(), (long long)p.indices.numel());
    }
    if (numWeights > uint64_t(INT64_MAX))
        return invalid(api, "numWeights %llu is too large", (unsigned long long)numWeights);
    p.weights = static_cast<int64_t>(numWeights);
    OPAPI_CHECK(check_same_dims(api, "out", p.out.dims, Dims{p.weights, p.dim}));
    p.padding = paddingIdx < numWeights ? static_cast<int64_t>(paddingIdx) : -1;
    p.scale = scaleGradByFreq;
    const double flops = double(p.grad.numel()) + (p.scale ? double(p.out.numel()) : 0.0);
    const double bytes = double(p.grad.bytes() + p.indices.bytes() + p.out.bytes());
    std::vector<KernelLaunch> launches{
        {Kernel::EmbeddingDenseGrad, p.out.dtype, vector_cost(flops, bytes, p.out.numel(), 4096)}};
    std::vector<void*> args{p.grad.data, p.indices.data, p.out.data};
    return hand_over(std::make_unique<OpExecutor>(
                         api, 0, [p]() { accumulate(p); }, std::move(launches), std::move(args)),
                     workspaceSize, executor);
}

}  // namespace

}  // namespace npusim::opapi

NPUSIM_C_EXPORT aclnnStatus aclnnEmbeddingDenseBackwardGetWorkspaceSize(const aclTensor* grad, const aclTensor* indices,
                                                                        uint64_t numWeights, uint64_t paddingIdx,
                                                                        bool scaleGradByFreq, const aclTensor* out,
                                                                        uint64_t* workspaceSize,
                                                                        aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnEmbeddingDenseBackwardGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare(grad, indices, numWeights, paddingIdx, scaleGradByFreq, out, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnEmbeddingDenseBackward)
