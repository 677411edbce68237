// aclnnConstantPadNd: torch's constant_pad_nd (F.pad with mode "constant"; torch_npu also pads
// through it inside the list form of all_gather). pad lists (before, after) amounts from the last
// dimension backwards; negative amounts crop. Every data type; out has self's type; one PadV3
// kernel.
#include <memory>

#include "aclnnop/aclnn_constant_pad_nd.h"
#include "core/fault_plan.h"
#include "nnopbase/dtype.h"
#include "nnopbase/tensor.h"
#include "opapi/checks.h"
#include "opapi/index_walk.h"
#include "opapi/op_launcher.h"
#include "opapi/registry.h"

namespace npusim::opapi {

namespace {

[[maybe_unused]] const bool kRegistered =
    register_op({"aclnnConstantPadNd", OpFamily::Layout, kAllTypes, Kernel::PadV3});

aclnnStatus prepare(const aclTensor* self, const aclIntArray* pad, const aclScalar* value, const aclTensor* out,
                    uint64_t* workspaceSize, aclOpExecutor** executor) {
    const char* api = "aclnnConstantPadNd";
    OPAPI_CHECK(check_not_null(api, {self, pad, value, out, workspaceSize, executor}));
    OPAPI_CHECK(check_tensor(api, "self", self));
    OPAPI_CHECK(check_tensor(api, "out", out));
    if (!nn::valid(pad)) return invalid(api, "pad is not a live aclIntArray");
    if (!nn::valid(value)) return invalid(api, "value is not a live aclScalar");
    const TensorView x = view_of(self), y = view_of(out);
    if (!kAllTypes.has(x.dtype)) {
        return invalid(api, "self has data type %s; %s expected", nn::dtype_name(x.dtype), kAllTypes.text().c_str());
    }
    OPAPI_CHECK(check_same_dtype(api, "out", y.dtype, x.dtype));
    OPAPI_CHECK(check_rank(api, "self", x.dims, 0, nn::kMaxDims));
    const std::vector<int64_t>& amounts = pad->values;
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
    std::vector<KernelLaunch> launches{
        {Kernel::PadV3, x.dtype, vector_cost(0, double(x.bytes() + y.bytes()), n, 4096)}};
    auto compute = [x, y, before, fill = value->value]() {
        const std::vector<double> in = read_doubles(x);
        std::vector<double> result(static_cast<size_t>(numel(y.dims)), fill);
        const size_t rank = y.dims.size();
        Dims at(rank, 0);  // the output index, row-major
        for (double& element : result) {
            int64_t source = 0;
            bool inside = true;
            for (size_t d = 0; d < rank && inside; ++d) {
                const int64_t i = at[d] - before[d];
                inside = i >= 0 && i < x.dims[d];
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
    return npusim::opapi::prepare(self, pad, value, out, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnConstantPadNd)
