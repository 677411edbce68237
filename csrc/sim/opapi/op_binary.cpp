// aclnnAdd, aclnnSub, aclnnMul, aclnnDiv: element-wise with broadcasting; aclnnAdds, aclnnSubs,
// aclnnMuls, aclnnDivs: a tensor and a scalar.
//
// Inputs of different float types are first cast to the wider one (a Cast kernel
// launch each), the operator's kernel runs in that type, and a result of another
// type than the output's is cast once more, as CANN's operators do.
#include <memory>

#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_div.h"
#include "aclnnop/aclnn_mul.h"
#include "aclnnop/aclnn_sub.h"
#include "core/fault_plan.h"
#include "nnopbase/dtype.h"
#include "nnopbase/tensor.h"
#include "opapi/checks.h"
#include "opapi/op_launcher.h"

namespace npusim::opapi {

namespace {

enum class BinaryKind { Add, Sub, Mul, Div };

aclnnStatus prepare(const char* api, BinaryKind kind, const aclTensor* self, const aclTensor* other,
                    const aclScalar* alpha, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
    const bool has_alpha = kind == BinaryKind::Add || kind == BinaryKind::Sub;
    OPAPI_CHECK(check_not_null(api, {self, other, out, workspaceSize, executor}));
    if (has_alpha) OPAPI_CHECK(check_not_null(api, {alpha}));
    OPAPI_CHECK(check_tensor(api, "self", self));
    OPAPI_CHECK(check_tensor(api, "other", other));
    OPAPI_CHECK(check_tensor(api, "out", out));
    if (has_alpha && !nn::valid(alpha)) return invalid(api, "alpha is not a live aclScalar");
    const TensorView a = view_of(self), b = view_of(other), y = view_of(out);
    OPAPI_CHECK(check_float_type(api, "self", a.dtype));
    OPAPI_CHECK(check_float_type(api, "other", b.dtype));
    OPAPI_CHECK(check_float_type(api, "out", y.dtype));
    OPAPI_CHECK(check_rank(api, "self", a.dims, 0, nn::kMaxDims));
    OPAPI_CHECK(check_rank(api, "other", b.dims, 0, nn::kMaxDims));
    Dims shape;
    if (!broadcast_dims(a.dims, b.dims, shape)) {
        return invalid(api, "self %s and other %s do not broadcast", dims_text(a.dims).c_str(), dims_text(b.dims).c_str());
    }
    OPAPI_CHECK(check_same_dims(api, "out", y.dims, shape));

    const float alpha_value = has_alpha ? static_cast<float>(alpha->value) : 1.0f;
    const aclDataType work = promote_float(a.dtype, b.dtype);
    const int64_t n = numel(shape);
    std::vector<KernelLaunch> launches;
    for (const TensorView* in : {&a, &b}) {
        if (in->dtype != work) {
            launches.push_back({Kernel::Cast, work, vector_cost(double(in->numel()), double(in->bytes() + in->numel() * 4),
                                                                in->numel(), 4096)});
        }
    }
    Kernel kernel = Kernel::Mul;
    double flops_per = 1;
    switch (kind) {
        case BinaryKind::Add: kernel = alpha_value == 1.0f ? Kernel::Add : Kernel::Axpy; break;
        case BinaryKind::Sub: kernel = alpha_value == 1.0f ? Kernel::Sub : Kernel::Axpy; break;
        case BinaryKind::Mul: kernel = Kernel::Mul; break;
        case BinaryKind::Div: kernel = Kernel::RealDiv; break;
    }
    if (kernel == Kernel::Axpy) flops_per = 2;
    const double elem = static_cast<double>(nn::dtype_size(work));
    launches.push_back({kernel, work, vector_cost(flops_per * n, elem * (a.numel() + b.numel() + n), n, 4096)});
    if (y.dtype != work) {
        launches.push_back({Kernel::Cast, y.dtype, vector_cost(double(n), elem * n + double(y.bytes()), n, 4096)});
    }

    auto compute = [kind, a, b, y, shape, alpha_value, work]() {
        const std::vector<float> x1 = read_floats(a, shape);
        const std::vector<float> x2 = read_floats(b, shape);
        std::vector<float> r(x1.size());
        for (size_t i = 0; i < r.size(); ++i) {
            const float p = round_to(work, x1[i]), q = round_to(work, x2[i]);
            float v = 0;
            switch (kind) {
                case BinaryKind::Add: v = p + alpha_value * q; break;
                case BinaryKind::Sub: v = p - alpha_value * q; break;
                case BinaryKind::Mul: v = p * q; break;
                case BinaryKind::Div: v = p / q; break;
            }
            r[i] = round_to(work, v);
        }
        write_floats(y, r);
    };
    return hand_over(std::make_unique<OpExecutor>(api, 0, compute, std::move(launches),
                                                  std::vector<void*>{a.data, b.data, y.data}),
                     workspaceSize, executor);
}

// aclnnAdds, aclnnSubs, aclnnMuls, aclnnDivs: a tensor and a scalar. out = self + alpha * other,
// self - alpha * other, self * other or self / other (IEEE: a zero divisor gives inf or nan, as
// torch's CPU division does), computed in the working type (the wider of self's and out's), as one
// Add / Axpy / Muls / RealDiv kernel.
aclnnStatus prepare_scalar(const char* api, BinaryKind kind, const aclTensor* self, const aclScalar* other,
                           const aclScalar* alpha, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
    const bool has_alpha = kind == BinaryKind::Add || kind == BinaryKind::Sub;
    OPAPI_CHECK(check_not_null(api, {self, other, out, workspaceSize, executor}));
    if (has_alpha) OPAPI_CHECK(check_not_null(api, {alpha}));
    OPAPI_CHECK(check_tensor(api, "self", self));
    OPAPI_CHECK(check_tensor(api, "out", out));
    if (!nn::valid(other)) return invalid(api, "other is not a live aclScalar");
    if (has_alpha && !nn::valid(alpha)) return invalid(api, "alpha is not a live aclScalar");
    const TensorView a = view_of(self), y = view_of(out);
    OPAPI_CHECK(check_float_type(api, "self", a.dtype));
    OPAPI_CHECK(check_float_type(api, "out", y.dtype));
    OPAPI_CHECK(check_rank(api, "self", a.dims, 0, nn::kMaxDims));
    OPAPI_CHECK(check_same_dims(api, "out", y.dims, a.dims));
    const double scale = has_alpha ? alpha->value : 1.0;
    const float operand = static_cast<float>(kind == BinaryKind::Sub ? -scale * other->value
                                                                     : scale * other->value);
    const aclDataType work = promote_float(a.dtype, y.dtype);
    const int64_t n = a.numel();
    const double elem = static_cast<double>(nn::dtype_size(work));
    std::vector<KernelLaunch> launches;
    if (a.dtype != work) {
        launches.push_back({Kernel::Cast, work, vector_cost(double(n), double(a.bytes() + n * 4), n, 4096)});
    }
    const Kernel kernel = kind == BinaryKind::Mul   ? Kernel::Muls
                          : kind == BinaryKind::Div ? Kernel::RealDiv
                                                    : (scale == 1.0 ? Kernel::Add : Kernel::Axpy);
    launches.push_back({kernel, work, vector_cost(double(n), elem * 2 * n, n, 4096)});
    if (y.dtype != work) {
        launches.push_back({Kernel::Cast, y.dtype, vector_cost(double(n), elem * n + double(y.bytes()), n, 4096)});
    }
    auto compute = [a, y, operand, work, kind]() {
        std::vector<float> r = read_floats(a, a.dims);
        const float q = round_to(work, operand);
        for (float& v : r) {
            const float p = round_to(work, v);
            v = round_to(work, kind == BinaryKind::Mul ? p * q : kind == BinaryKind::Div ? p / q : p + q);
        }
        write_floats(y, r);
    };
    return hand_over(std::make_unique<OpExecutor>(api, 0, compute, std::move(launches),
                                                  std::vector<void*>{a.data, y.data}),
                     workspaceSize, executor);
}

}  // namespace

}  // namespace npusim::opapi

using npusim::opapi::BinaryKind;

NPUSIM_C_EXPORT aclnnStatus aclnnAddsGetWorkspaceSize(const aclTensor* self, const aclScalar* other, const aclScalar* alpha,
                                                      aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnAddsGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare_scalar("aclnnAdds", BinaryKind::Add, self, other, alpha, out, workspaceSize,
                                         executor);
}
OPAPI_DEFINE_RUN(aclnnAdds)

NPUSIM_C_EXPORT aclnnStatus aclnnSubsGetWorkspaceSize(const aclTensor* self, const aclScalar* other, const aclScalar* alpha,
                                                      aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnSubsGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare_scalar("aclnnSubs", BinaryKind::Sub, self, other, alpha, out, workspaceSize,
                                         executor);
}
OPAPI_DEFINE_RUN(aclnnSubs)

NPUSIM_C_EXPORT aclnnStatus aclnnMulsGetWorkspaceSize(const aclTensor* self, const aclScalar* other, aclTensor* out,
                                                      uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnMulsGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare_scalar("aclnnMuls", BinaryKind::Mul, self, other, nullptr, out, workspaceSize,
                                         executor);
}
OPAPI_DEFINE_RUN(aclnnMuls)

NPUSIM_C_EXPORT aclnnStatus aclnnDivsGetWorkspaceSize(const aclTensor* self, const aclScalar* other, aclTensor* out,
                                                      uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnDivsGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare_scalar("aclnnDivs", BinaryKind::Div, self, other, nullptr, out, workspaceSize,
                                         executor);
}
OPAPI_DEFINE_RUN(aclnnDivs)

NPUSIM_C_EXPORT aclnnStatus aclnnAddGetWorkspaceSize(const aclTensor* self, const aclTensor* other, const aclScalar* alpha,
                                                     aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnAddGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare("aclnnAdd", BinaryKind::Add, self, other, alpha, out, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnAdd)

NPUSIM_C_EXPORT aclnnStatus aclnnSubGetWorkspaceSize(const aclTensor* self, const aclTensor* other, const aclScalar* alpha,
                                                     aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnSubGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare("aclnnSub", BinaryKind::Sub, self, other, alpha, out, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnSub)

NPUSIM_C_EXPORT aclnnStatus aclnnMulGetWorkspaceSize(const aclTensor* self, const aclTensor* other, aclTensor* out,
                                                     uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnMulGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare("aclnnMul", BinaryKind::Mul, self, other, nullptr, out, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnMul)

NPUSIM_C_EXPORT aclnnStatus aclnnDivGetWorkspaceSize(const aclTensor* self, const aclTensor* other, aclTensor* out,
                                                     uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnDivGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare("aclnnDiv", BinaryKind::Div, self, other, nullptr, out, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnDiv)

// The in-place forms (torch's add_ / mul_, e.g. the SGD update p.add_(grad, alpha=-lr)): the
// result is written back through selfRef's view, so other (or the scalar) must broadcast to it.
NPUSIM_C_EXPORT aclnnStatus aclnnInplaceAddGetWorkspaceSize(const aclTensor* selfRef, const aclTensor* other,
                                                            const aclScalar* alpha, uint64_t* workspaceSize,
                                                            aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnInplaceAddGetWorkspaceSize", aclnnStatus);
    // CANN declares selfRef const (a handle of device memory the operator writes).
    return npusim::opapi::prepare("aclnnInplaceAdd", BinaryKind::Add, selfRef, other, alpha,
                                  const_cast<aclTensor*>(selfRef), workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnInplaceAdd)

NPUSIM_C_EXPORT aclnnStatus aclnnInplaceMulGetWorkspaceSize(aclTensor* selfRef, const aclTensor* other,
                                                            uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnInplaceMulGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare("aclnnInplaceMul", BinaryKind::Mul, selfRef, other, nullptr, selfRef, workspaceSize,
                                  executor);
}
OPAPI_DEFINE_RUN(aclnnInplaceMul)

NPUSIM_C_EXPORT aclnnStatus aclnnInplaceAddsGetWorkspaceSize(const aclTensor* selfRef, const aclScalar* other,
                                                             const aclScalar* alpha, uint64_t* workspaceSize,
                                                             aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnInplaceAddsGetWorkspaceSize", aclnnStatus);
    // CANN declares selfRef const (a handle of device memory the operator writes).
    return npusim::opapi::prepare_scalar("aclnnInplaceAdds", BinaryKind::Add, selfRef, other, alpha,
                                         const_cast<aclTensor*>(selfRef), workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnInplaceAdds)

NPUSIM_C_EXPORT aclnnStatus aclnnInplaceMulsGetWorkspaceSize(aclTensor* selfRef, const aclScalar* other,
                                                             uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnInplaceMulsGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare_scalar("aclnnInplaceMuls", BinaryKind::Mul, selfRef, other, nullptr, selfRef,
                                         workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnInplaceMuls)
