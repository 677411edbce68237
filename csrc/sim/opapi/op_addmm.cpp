// aclnnAddmm (out = beta * self + alpha * (mat1 @ mat2), self broadcast to [m, n]) and aclnnMm
// (out = self @ mat2): the 2-D products torch's linear layers and their backward passes use. The
// operands may be any strided view (a transposed weight is a view with swapped strides), read
// through the GEMM primitive (opapi/gemm.h): products accumulate in float32 and round once to the
// output type, as CANN's cube kernels compute them. One MatMulV2 launch:
// the bias term is part of the cube kernel's epilogue, as CANN's MatMulV2 takes a bias input.
#include <memory>

#include "aclnnop/aclnn_addmm.h"
#include "aclnnop/aclnn_mm.h"
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
    register_op({"aclnnAddmm", OpFamily::Matmul, kFloatTypes, Kernel::MatMulV2}) &&
    register_op({"aclnnMm", OpFamily::Matmul, kFloatTypes, Kernel::MatMulV2});

struct GemmPlan {
    TensorView bias, a, b, y;  // bias.data == nullptr: no bias term
    double beta = 0, alpha = 1;
    int64_t m = 0, n = 0, k = 0;
};

void compute(const GemmPlan& p) {
    batched_matmul(p.a, p.b, p.y, Dims{}, p.m, p.n, p.k, static_cast<float>(p.alpha),
                   p.bias.data != nullptr ? &p.bias : nullptr, static_cast<float>(p.beta));
}

aclnnStatus prepare(const char* api, bool addmm, const aclTensor* self, const aclTensor* mat1, const aclTensor* mat2,
                    const aclScalar* beta, const aclScalar* alpha, aclTensor* out, uint64_t* workspaceSize,
                    aclOpExecutor** executor) {
    OPAPI_CHECK(check_not_null(api, {mat1, mat2, out, workspaceSize, executor}));
    GemmPlan p;
    if (addmm) {
        OPAPI_CHECK(check_not_null(api, {self, beta, alpha}));
        OPAPI_CHECK(check_tensor(api, "self", self));
        if (!nn::valid(beta)) return invalid(api, "beta is not a live aclScalar");
        if (!nn::valid(alpha)) return invalid(api, "alpha is not a live aclScalar");
        p.bias = view_of(self);
        p.beta = beta->value;
        p.alpha = alpha->value;
    }
    OPAPI_CHECK(check_tensor(api, "mat1", mat1));
    OPAPI_CHECK(check_tensor(api, "mat2", mat2));
    OPAPI_CHECK(check_tensor(api, "out", out));
    p.a = view_of(mat1);
    p.b = view_of(mat2);
    p.y = view_of(out);
    OPAPI_CHECK(check_float_type(api, "mat1", p.a.dtype));
    OPAPI_CHECK(check_same_dtype(api, "mat2", p.b.dtype, p.a.dtype));
    OPAPI_CHECK(check_same_dtype(api, "out", p.y.dtype, p.a.dtype));
    OPAPI_CHECK(check_rank(api, "mat1", p.a.dims, 2, 2));
    OPAPI_CHECK(check_rank(api, "mat2", p.b.dims, 2, 2));
    p.m = p.a.dims[0];
    p.k = p.a.dims[1];
    p.n = p.b.dims[1];
    if (p.b.dims[0] != p.k) {
        return invalid(api, "mat1 %s and mat2 %s: inner dimensions differ", dims_text(p.a.dims).c_str(),
                       dims_text(p.b.dims).c_str());
    }
    OPAPI_CHECK(check_same_dims(api, "out", p.y.dims, Dims{p.m, p.n}));
    if (addmm) {
        OPAPI_CHECK(check_float_type(api, "self", p.bias.dtype));
        OPAPI_CHECK(check_rank(api, "self", p.bias.dims, 0, 2));
        Dims shape;
        if (!broadcast_dims(p.bias.dims, p.y.dims, shape) || shape != p.y.dims) {
            return invalid(api, "self %s does not broadcast to %s", dims_text(p.bias.dims).c_str(),
                           dims_text(p.y.dims).c_str());
        }
    }
    const double bytes = double(p.a.bytes() + p.b.bytes() + p.y.bytes() + (addmm ? p.bias.bytes() : 0));
    std::vector<KernelLaunch> launches{{Kernel::MatMulV2, p.a.dtype, cube_cost(1, p.m, p.n, p.k, bytes, p.a.dtype)}};
    std::vector<void*> args{p.a.data, p.b.data};
    if (addmm) args.push_back(p.bias.data);
    args.push_back(p.y.data);
    auto run = [p]() { compute(p); };
    return hand_over(std::make_unique<OpExecutor>(api, 0, run, std::move(launches), std::move(args)), workspaceSize,
                     executor);
}

}  // namespace

}  // namespace npusim::opapi

NPUSIM_C_EXPORT aclnnStatus aclnnAddmmGetWorkspaceSize(const aclTensor* self, const aclTensor* mat1,
                                                       const aclTensor* mat2, const aclScalar* beta,
                                                       const aclScalar* alpha, aclTensor* out, int8_t cubeMathType,
                                                       uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnAddmmGetWorkspaceSize", aclnnStatus);
    (void)cubeMathType;
    return npusim::opapi::prepare("aclnnAddmm", true, self, mat1, mat2, beta, alpha, out, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnAddmm)

NPUSIM_C_EXPORT aclnnStatus aclnnMmGetWorkspaceSize(const aclTensor* self, const aclTensor* mat2, aclTensor* out,
                                                    int8_t cubeMathType, uint64_t* workspaceSize,
                                                    aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnMmGetWorkspaceSize", aclnnStatus);
    (void)cubeMathType;
    return npusim::opapi::prepare("aclnnMm", false, nullptr, self, mat2, nullptr, nullptr, out, workspaceSize,
                                  executor);
}
OPAPI_DEFINE_RUN(aclnnMm)
