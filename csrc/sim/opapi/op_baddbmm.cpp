// aclnnBaddbmm (out[b] = beta * self + alpha * batch1[b] @ batch2[b], self broadcast to [B, m, n])
// and aclnnAddbmm (out = beta * self + alpha * sum_b batch1[b] @ batch2[b], self broadcast to
// [m, n]), with their in-place forms: torch's baddbmm / addbmm as op-plugin routes them. Both on the
// GEMM primitive (opapi/gemm.h): products accumulate in float32 and the result is rounded once to
// the output type. aclnnAddbmm is one product of batch1 laid out as [m, B * k] with batch2 as
// [B * k, n], so the sum over batches is part of the one float32 accumulation. As in torch, self is
// not read when beta is 0 (a NaN in it does not propagate). One BatchMatMulV2 launch (Baddbmm) or
// MatMulV2 launch (Addbmm).
#include <memory>

#include "aclnnop/aclnn_addbmm.h"
#include "aclnnop/aclnn_baddbmm.h"
#include "core/fault_plan.h"
#include "nnopbase/tensor.h"
#include "opapi/checks.h"
#include "opapi/gemm.h"
#include "opapi/op_launcher.h"
#include "opapi/registry.h"

namespace npusim::opapi {

namespace {

[[maybe_unused]] const bool kRegistered =
    register_op({"aclnnBaddbmm", OpFamily::Matmul, kFloatTypes, Kernel::BatchMatMulV2}) &&
    register_op({"aclnnInplaceBaddbmm", OpFamily::Matmul, kFloatTypes, Kernel::BatchMatMulV2}) &&
    register_op({"aclnnAddbmm", OpFamily::Matmul, kFloatTypes, Kernel::MatMulV2}) &&
    register_op({"aclnnInplaceAddbmm", OpFamily::Matmul, kFloatTypes, Kernel::MatMulV2});

struct Plan {
    bool sum_batches = false;  // Addbmm
    TensorView self, a, b, y;
    float beta = 0, alpha = 1;
    int64_t batch = 0, m = 0, n = 0, k = 0;
};

void compute_addbmm(const Plan& p) {
    const int64_t bk = p.batch * p.k;
    const std::vector<float> a = read_floats(p.a, Dims{p.batch, p.m, p.k});
    std::vector<float> packed(a.size());  // [m, B * k]: row r holds batch1[0][r], batch1[1][r], ...
    for (int64_t bi = 0; bi < p.batch; ++bi) {
        for (int64_t r = 0; r < p.m; ++r) {
            const float* src = a.data() + (bi * p.m + r) * p.k;
            std::copy(src, src + p.k, packed.data() + r * bk + bi * p.k);
        }
    }
    const std::vector<float> b = read_floats(p.b, Dims{p.batch, p.k, p.n});  // [B * k, n]
    std::vector<float> c(static_cast<size_t>(p.m * p.n), 0.0f);
    const bool with_self = p.beta != 0.0f;
    if (with_self) {
        c = read_floats(p.self, Dims{p.m, p.n});
        for (float& v : c) v *= p.beta;
    }
    gemm(p.m, p.n, bk, p.alpha, {packed.data(), bk, false}, {b.data(), p.n, false}, with_self ? 1.0f : 0.0f, c.data(),
         p.n);
    write_floats(p.y, c);
}

void compute(const Plan& p) {
    if (p.sum_batches) {
        compute_addbmm(p);
        return;
    }
    batched_matmul(p.a, p.b, p.y, Dims{p.batch}, p.m, p.n, p.k, p.alpha, &p.self, p.beta);
}

aclnnStatus prepare(const char* api, bool sum_batches, const aclTensor* self, const aclTensor* batch1,
                    const aclTensor* batch2, const aclScalar* beta, const aclScalar* alpha, const aclTensor* out,
                    uint64_t* workspaceSize, aclOpExecutor** executor) {
    OPAPI_CHECK(check_not_null(api, {self, batch1, batch2, beta, alpha, out, workspaceSize, executor}));
    OPAPI_CHECK(check_tensor(api, "self", self));
    OPAPI_CHECK(check_tensor(api, "batch1", batch1));
    OPAPI_CHECK(check_tensor(api, "batch2", batch2));
    OPAPI_CHECK(check_tensor(api, "out", out));
    if (!nn::valid(beta)) return invalid(api, "beta is not a live aclScalar");
    if (!nn::valid(alpha)) return invalid(api, "alpha is not a live aclScalar");
    Plan p;
    p.sum_batches = sum_batches;
    p.self = view_of(self), p.a = view_of(batch1), p.b = view_of(batch2), p.y = view_of(out);
    p.beta = static_cast<float>(beta->value), p.alpha = static_cast<float>(alpha->value);
    OPAPI_CHECK(check_float_type(api, "batch1", p.a.dtype));
    OPAPI_CHECK(check_same_dtype(api, "batch2", p.b.dtype, p.a.dtype));
    OPAPI_CHECK(check_same_dtype(api, "self", p.self.dtype, p.a.dtype));
    OPAPI_CHECK(check_same_dtype(api, "out", p.y.dtype, p.a.dtype));
    OPAPI_CHECK(check_rank(api, "batch1", p.a.dims, 3, 3));
    OPAPI_CHECK(check_rank(api, "batch2", p.b.dims, 3, 3));
    p.batch = p.a.dims[0], p.m = p.a.dims[1], p.k = p.a.dims[2], p.n = p.b.dims[2];
    if (p.b.dims[0] != p.batch) {
        return invalid(api, "batch sizes of batch1 %s and batch2 %s differ", dims_text(p.a.dims).c_str(),
                       dims_text(p.b.dims).c_str());
    }
    if (p.b.dims[1] != p.k) {
        return invalid(api, "batch1 %s and batch2 %s: inner dimensions differ", dims_text(p.a.dims).c_str(),
                       dims_text(p.b.dims).c_str());
    }
    const Dims result = sum_batches ? Dims{p.m, p.n} : Dims{p.batch, p.m, p.n};
    OPAPI_CHECK(check_same_dims(api, "out", p.y.dims, result));
    Dims shape;
    if (!broadcast_dims(p.self.dims, result, shape) || shape != result) {
        return invalid(api, "self %s does not broadcast to %s", dims_text(p.self.dims).c_str(),
                       dims_text(result).c_str());
    }
    const double bytes = double(p.a.bytes() + p.b.bytes() + p.y.bytes() + p.self.bytes());
    const Kernel kernel = sum_batches ? Kernel::MatMulV2 : Kernel::BatchMatMulV2;
    const int64_t products = sum_batches ? 1 : p.batch;
    const int64_t depth = sum_batches ? p.batch * p.k : p.k;
    std::vector<KernelLaunch> launches{{kernel, p.a.dtype, cube_cost(products, p.m, p.n, depth, bytes, p.a.dtype)}};
    std::vector<void*> args{p.self.data, p.a.data, p.b.data, p.y.data};
    auto run = [p]() { compute(p); };
    return hand_over(std::make_unique<OpExecutor>(api, 0, run, std::move(launches), std::move(args)), workspaceSize,
                     executor);
}

}  // namespace

}  // namespace npusim::opapi

NPUSIM_C_EXPORT aclnnStatus aclnnBaddbmmGetWorkspaceSize(const aclTensor* self, const aclTensor* batch1,
                                                         const aclTensor* batch2, const aclScalar* beta,
                                                         const aclScalar* alpha, aclTensor* out, int8_t cubeMathType,
                                                         uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnBaddbmmGetWorkspaceSize", aclnnStatus);
    (void)cubeMathType;
    return npusim::opapi::prepare("aclnnBaddbmm", false, self, batch1, batch2, beta, alpha, out, workspaceSize,
                                  executor);
}
OPAPI_DEFINE_RUN(aclnnBaddbmm)

NPUSIM_C_EXPORT aclnnStatus aclnnInplaceBaddbmmGetWorkspaceSize(const aclTensor* selfRef, const aclTensor* batch1,
                                                                const aclTensor* batch2, const aclScalar* beta,
                                                                const aclScalar* alpha, int8_t cubeMathType,
                                                                uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnInplaceBaddbmmGetWorkspaceSize", aclnnStatus);
    (void)cubeMathType;
    return npusim::opapi::prepare("aclnnInplaceBaddbmm", false, selfRef, batch1, batch2, beta, alpha, selfRef,
                                  workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnInplaceBaddbmm)

NPUSIM_C_EXPORT aclnnStatus aclnnAddbmmGetWorkspaceSize(const aclTensor* self, const aclTensor* batch1,
                                                        const aclTensor* batch2, const aclScalar* beta,
                                                        const aclScalar* alpha, aclTensor* out, int8_t cubeMathType,
                                                        uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnAddbmmGetWorkspaceSize", aclnnStatus);
    (void)cubeMathType;
    return npusim::opapi::prepare("aclnnAddbmm", true, self, batch1, batch2, beta, alpha, out, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnAddbmm)

NPUSIM_C_EXPORT aclnnStatus aclnnInplaceAddbmmGetWorkspaceSize(aclTensor* selfRef, const aclTensor* batch1,
                                                               const aclTensor* batch2, const aclScalar* beta,
                                                               const aclScalar* alpha, int8_t cubeMathType,
                                                               uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnInplaceAddbmmGetWorkspaceSize", aclnnStatus);
    (void)cubeMathType;
    return npusim::opapi::prepare("aclnnInplaceAddbmm", true, selfRef, batch1, batch2, beta, alpha, selfRef,
                                  workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnInplaceAddbmm)
