// Padding, one primitive: each output element takes the input element its index maps to.
//   aclnnConstantPadNd     torch's constant_pad_nd (F.pad with mode "constant"; torch_npu also pads
//                          through it inside the list form of all_gather): outside the input, value.
//                          pad lists (before, after) amounts from the last dimension backwards;
//                          negative amounts crop. Every data type; one PadV3 kernel.
//   aclnnReflectionPad1d/2d/3d   F.pad mode "reflect" of the last k = 1, 2, 3 dimensions of a self
//                                of rank k + 1 or k + 2: index -i maps to i, L - 1 + i to L - 1 - i
//                                (each amount below the size it pads); one MirrorPad kernel.
//   aclnnReplicationPad1d/2d/3d  F.pad mode "replicate": indices outside clamp to the edge; one
//                                PadV3 kernel.
// padding of these forms is (left, right[, top, bottom[, front, back]]), 2k non-negative amounts.
// out has self's type.
#include <memory>

#include "aclnnop/aclnn_constant_pad_nd.h"
#include "aclnnop/aclnn_reflection_pad1d.h"
#include "aclnnop/aclnn_reflection_pad2d.h"
#include "aclnnop/aclnn_reflection_pad3d.h"
#include "aclnnop/aclnn_replication_pad1d.h"
#include "aclnnop/aclnn_replication_pad2d.h"
#include "aclnnop/aclnn_replication_pad3d.h"
#include "core/fault_plan.h"
#include "nnopbase/dtype.h"
#include "nnopbase/tensor.h"
#include "opapi/checks.h"
#include "opapi/index_walk.h"
#include "opapi/op_launcher.h"
#include "opapi/pad_index.h"
#include "opapi/registry.h"

namespace npusim::opapi {

namespace {

[[maybe_unused]] const bool kRegistered =
    register_op({"aclnnConstantPadNd", OpFamily::Layout, kAllTypes, Kernel::PadV3}) &&
    register_op({"aclnnReflectionPad1d", OpFamily::Layout, kNumericTypes, Kernel::MirrorPad}) &&
    register_op({"aclnnReflectionPad2d", OpFamily::Layout, kNumericTypes, Kernel::MirrorPad}) &&
    register_op({"aclnnReflectionPad3d", OpFamily::Layout, kNumericTypes, Kernel::MirrorPad}) &&
    register_op({"aclnnReplicationPad1d", OpFamily::Layout, kNumericTypes, Kernel::PadV3}) &&
    register_op({"aclnnReplicationPad2d", OpFamily::Layout, kNumericTypes, Kernel::PadV3}) &&
    register_op({"aclnnReplicationPad3d", OpFamily::Layout, kNumericTypes, Kernel::PadV3});

// pad_dims: the number of trailing dimensions the reflect and replicate modes pad (1, 2 or 3).
aclnnStatus prepare(const char* api, PadMode mode, size_t pad_dims, const aclTensor* self, const aclIntArray* pad,
                    const aclScalar* value, const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
    const bool constant = mode == PadMode::Constant;
    OPAPI_CHECK(check_not_null(api, {self, pad, out, workspaceSize, executor}));
    if (constant) OPAPI_CHECK(check_not_null(api, {value}));
    OPAPI_CHECK(check_tensor(api, "self", self));
    OPAPI_CHECK(check_tensor(api, "out", out));
    if (!nn::valid(pad)) return invalid(api, "pad is not a live aclIntArray");
    if (constant && !nn::valid(value)) return invalid(api, "value is not a live aclScalar");
    const TensorView x = view_of(self), y = view_of(out);
    const DTypeSet types = constant ? kAllTypes : kNumericTypes;
    if (!types.has(x.dtype)) {
        return invalid(api, "self has data type %s; %s expected", nn::dtype_name(x.dtype), types.text().c_str());
    }
    OPAPI_CHECK(check_same_dtype(api, "out", y.dtype, x.dtype));
    OPAPI_CHECK(constant ? check_rank(api, "self", x.dims, 0, nn::kMaxDims)
                         : check_rank(api, "self", x.dims, pad_dims + 1, pad_dims + 2));
    const std::vector<int64_t>& amounts = pad->values;
    if (!constant) {
        if (amounts.size() != 2 * pad_dims) {
            return invalid(api, "padding has %zu values; %zu expected", amounts.size(), 2 * pad_dims);
        }
        for (size_t k = 0; k < amounts.size(); ++k) {
            const int64_t size = x.dims[x.rank() - 1 - k / 2];
            if (amounts[k] < 0 || (mode == PadMode::Reflect ? amounts[k] >= size : size == 0)) {
                return invalid(api, "padding %s does not fit self %s", dims_text(amounts).c_str(),
                               dims_text(x.dims).c_str());
            }
        }
    }
    if (amounts.size() % 2 != 0 || amounts.size() / 2 > x.rank()) {
        return invalid(api, "pad has %zu amounts; an even number, at most %zu (two per dimension of self), expected",
                       amounts.size(), 2 * x.rank());
    }
    Dims before(x.rank(), 0), padded = x.dims;
    for (size_t k = 0; k < amounts.size() / 2; ++k) {
        const size_t d = x.rank() - 1 - k;
        before[d] = amounts[2 * k];
        padded[d] = x.dims[d] + amounts[2 * k] + amounts[2 * k + 1];
        if (padded[d] < 0) {
            return invalid(api, "dimension %zu of size %lld padded by %lld and %lld is negative", d,
                           (long long)x.dims[d], (long long)amounts[2 * k], (long long)amounts[2 * k + 1]);
        }
    }
    OPAPI_CHECK(check_same_dims(api, "out", y.dims, padded));
    const int64_t n = y.numel();
    std::vector<KernelLaunch> launches{{mode == PadMode::Reflect ? Kernel::MirrorPad : Kernel::PadV3, x.dtype,
                                        vector_cost(0, double(x.bytes() + y.bytes()), n, 4096)}};
    auto compute = [x, y, before, mode, fill = constant ? value->value : 0.0]() {
        const std::vector<double> in = read_doubles(x);
        std::vector<double> result(static_cast<size_t>(numel(y.dims)), fill);
        const size_t rank = y.dims.size();
        Dims at(rank, 0);  // the output index, row-major
        for (double& element : result) {
            int64_t source = 0;
            bool inside = true;
            for (size_t d = 0; d < rank && inside; ++d) {
                const int64_t i = pad_source_index(mode, at[d] - before[d], x.dims[d]);
                inside = i >= 0;
                source = source * x.dims[d] + i;
            }
            if (inside) element = in[static_cast<size_t>(source)];
            next_index(at, y.dims);
        }
        write_doubles(y, result);
    };
    return hand_over(
        std::make_unique<OpExecutor>(api, 0, compute, std::move(launches), std::vector<void*>{x.data, y.data}),
        workspaceSize, executor);
}

}  // namespace

}  // namespace npusim::opapi

NPUSIM_C_EXPORT aclnnStatus aclnnConstantPadNdGetWorkspaceSize(const aclTensor* self, const aclIntArray* pad,
                                                               const aclScalar* value, aclTensor* out,
                                                               uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnConstantPadNdGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare("aclnnConstantPadNd", npusim::opapi::PadMode::Constant, 0, self, pad, value, out,
                                  workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnConstantPadNd)

NPUSIM_C_EXPORT aclnnStatus aclnnReflectionPad1dGetWorkspaceSize(const aclTensor* self, const aclIntArray* padding,
                                                                 aclTensor* out, uint64_t* workspaceSize,
                                                                 aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnReflectionPad1dGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare("aclnnReflectionPad1d", npusim::opapi::PadMode::Reflect, 1, self, padding, nullptr,
                                  out, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnReflectionPad1d)

NPUSIM_C_EXPORT aclnnStatus aclnnReflectionPad2dGetWorkspaceSize(const aclTensor* self, const aclIntArray* padding,
                                                                 aclTensor* out, uint64_t* workspaceSize,
                                                                 aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnReflectionPad2dGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare("aclnnReflectionPad2d", npusim::opapi::PadMode::Reflect, 2, self, padding, nullptr,
                                  out, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnReflectionPad2d)

NPUSIM_C_EXPORT aclnnStatus aclnnReflectionPad3dGetWorkspaceSize(const aclTensor* self, const aclIntArray* padding,
                                                                 aclTensor* out, uint64_t* workspaceSize,
                                                                 aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnReflectionPad3dGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare("aclnnReflectionPad3d", npusim::opapi::PadMode::Reflect, 3, self, padding, nullptr,
                                  out, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnReflectionPad3d)

NPUSIM_C_EXPORT aclnnStatus aclnnReplicationPad1dGetWorkspaceSize(const aclTensor* self, const aclIntArray* padding,
                                                                  aclTensor* out, uint64_t* workspaceSize,
                                                                  aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnReplicationPad1dGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare("aclnnReplicationPad1d", npusim::opapi::PadMode::Replicate, 1, self, padding, nullptr,
                                  out, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnReplicationPad1d)

NPUSIM_C_EXPORT aclnnStatus aclnnReplicationPad2dGetWorkspaceSize(const aclTensor* self, const aclIntArray* padding,
                                                                  aclTensor* out, uint64_t* workspaceSize,
                                                                  aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnReplicationPad2dGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare("aclnnReplicationPad2d", npusim::opapi::PadMode::Replicate, 2, self, padding, nullptr,
                                  out, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnReplicationPad2d)

NPUSIM_C_EXPORT aclnnStatus aclnnReplicationPad3dGetWorkspaceSize(const aclTensor* self, const aclIntArray* padding,
                                                                  aclTensor* out, uint64_t* workspaceSize,
                                                                  aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnReplicationPad3dGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare("aclnnReplicationPad3d", npusim::opapi::PadMode::Replicate, 3, self, padding, nullptr,
                                  out, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnReplicationPad3d)
