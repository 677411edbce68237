// aclnnMatmul (torch.matmul semantics for 1-D to 6-D operands, batch dimensions
// broadcast) and aclnnBatchMatMul (3-D x 3-D with equal batch, or a batch of 1 broadcast), on the GEMM primitive
// (opapi/gemm.h): products accumulate in float32; the result is rounded once to the output type. Runs on the cube cores:
// MatMulV2 without batch dimensions, BatchMatMulV2 with them.
#include <memory>

#include "aclnnop/aclnn_batch_matmul.h"
#include "aclnnop/aclnn_matmul.h"
#include "core/fault_plan.h"
#include "nnopbase/dtype.h"
#include "nnopbase/tensor.h"
#include "opapi/checks.h"
#include "opapi/gemm.h"
#include "opapi/op_launcher.h"
#include "opapi/registry.h"

namespace npusim::opapi {

namespace {

// Declared in the operator registry (hand-written: its own checks and compute).
[[maybe_unused]] const bool kRegistered =
    register_op({"aclnnMatmul", OpFamily::Matmul, kFloatTypes, Kernel::MatMulV2}) &&
    register_op({"aclnnBatchMatMul", OpFamily::Matmul, kFloatTypes, Kernel::BatchMatMulV2});

constexpr size_t kMaxMatmulDims = 6;

struct MatmulPlan {
    TensorView a, b, y;
    Dims batch;  // broadcast batch dimensions
    Dims a_full, b_full;  // the dims of a and b with 1-D operands made 2-D
    int64_t m = 1, n = 1, k = 1;
};

void compute(const MatmulPlan& p) {
    // A 1-D operand is a row (self) or a column (mat2) vector.
    TensorView a = p.a, b = p.b;
    if (p.a.rank() == 1) {
        a.dims = {1, p.k};
        a.strides = {0, p.a.strides[0]};
    }
    if (p.b.rank() == 1) {
        b.dims = {p.k, 1};
        b.strides = {p.b.strides[0], 0};
    }
    batched_matmul(a, b, p.y, p.batch, p.m, p.n, p.k);
}

aclnnStatus prepare(const char* api, bool batch_only, const aclTensor* self, const aclTensor* mat2, aclTensor* out,
                    uint64_t* workspaceSize, aclOpExecutor** executor) {
    OPAPI_CHECK(check_not_null(api, {self, mat2, out, workspaceSize, executor}));
    OPAPI_CHECK(check_tensor(api, "self", self));
    OPAPI_CHECK(check_tensor(api, "mat2", mat2));
    OPAPI_CHECK(check_tensor(api, "out", out));
    MatmulPlan p;
    p.a = view_of(self);
    p.b = view_of(mat2);
    p.y = view_of(out);
    OPAPI_CHECK(check_float_type(api, "self", p.a.dtype));
    OPAPI_CHECK(check_same_dtype(api, "mat2", p.b.dtype, p.a.dtype));
    OPAPI_CHECK(check_same_dtype(api, "out", p.y.dtype, p.a.dtype));
    if (batch_only) {
        OPAPI_CHECK(check_rank(api, "self", p.a.dims, 3, 3));
        OPAPI_CHECK(check_rank(api, "mat2", p.b.dims, 3, 3));
        // A batch of 1 on either side broadcasts (CANN's aclnnBatchMatMul.md, ops-nn e5c3fa9).
        if (p.a.dims[0] != p.b.dims[0] && p.a.dims[0] != 1 && p.b.dims[0] != 1) {
            return invalid(api, "batch sizes %lld and %lld differ (and neither is 1)", (long long)p.a.dims[0],
                           (long long)p.b.dims[0]);
        }
    } else {
        OPAPI_CHECK(check_rank(api, "self", p.a.dims, 1, kMaxMatmulDims));
        OPAPI_CHECK(check_rank(api, "mat2", p.b.dims, 1, kMaxMatmulDims));
    }
    p.a_full = p.a.dims;
    p.b_full = p.b.dims;
    if (p.a_full.size() == 1) p.a_full.insert(p.a_full.begin(), 1);
    if (p.b_full.size() == 1) p.b_full.push_back(1);
    p.m = p.a_full[p.a_full.size() - 2];
    p.k = p.a_full.back();
    p.n = p.b_full.back();
    if (p.b_full[p.b_full.size() - 2] != p.k) {
        return invalid(api, "self %s and mat2 %s: inner dimensions differ", dims_text(p.a.dims).c_str(),
                       dims_text(p.b.dims).c_str());
    }
    const Dims a_batch(p.a_full.begin(), p.a_full.end() - 2), b_batch(p.b_full.begin(), p.b_full.end() - 2);
    if (!broadcast_dims(a_batch, b_batch, p.batch)) return invalid(api, "batch dimensions do not broadcast");
    Dims expected = p.batch;
    if (p.a.rank() > 1) expected.push_back(p.m);
    if (p.b.rank() > 1) expected.push_back(p.n);
    OPAPI_CHECK(check_same_dims(api, "out", p.y.dims, expected));

    const int64_t batches = numel(p.batch);
    const double bytes = double(p.a.bytes() + p.b.bytes() + p.y.bytes());
    const Kernel kernel = p.batch.empty() ? Kernel::MatMulV2 : Kernel::BatchMatMulV2;
    std::vector<KernelLaunch> launches{{kernel, p.a.dtype, cube_cost(batches, p.m, p.n, p.k, bytes, p.a.dtype)}};
    std::vector<void*> args{p.a.data, p.b.data, p.y.data};
    auto run = [p]() { compute(p); };
    return hand_over(std::make_unique<OpExecutor>(api, 0, run, std::move(launches), std::move(args)), workspaceSize,
                     executor);
}

}  // namespace

}  // namespace npusim::opapi

NPUSIM_C_EXPORT aclnnStatus aclnnMatmulGetWorkspaceSize(const aclTensor* self, const aclTensor* mat2, aclTensor* out,
                                                        int8_t cubeMathType, uint64_t* workspaceSize,
                                                        aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnMatmulGetWorkspaceSize", aclnnStatus);
    (void)cubeMathType;
    return npusim::opapi::prepare("aclnnMatmul", false, self, mat2, out, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnMatmul)

NPUSIM_C_EXPORT aclnnStatus aclnnBatchMatMulGetWorkspaceSize(const aclTensor* self, const aclTensor* mat2,
                                                             aclTensor* out, int8_t cubeMathType,
                                                             uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnBatchMatMulGetWorkspaceSize", aclnnStatus);
    (void)cubeMathType;
    return npusim::opapi::prepare("aclnnBatchMatMul", true, self, mat2, out, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnBatchMatMul)
