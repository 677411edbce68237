// aclnnArange: start + k * step for k = 0 .. n - 1, n = ceil((end - start) / step) (torch.arange),
// computed in double and stored in out's type; out must be 1-d with n elements.
#include <cmath>
#include <memory>

#include "aclnnop/aclnn_arange.h"
#include "core/fault_plan.h"
#include "nnopbase/dtype.h"
#include "nnopbase/tensor.h"
#include "opapi/checks.h"
#include "opapi/op_launcher.h"
#include "opapi/registry.h"

namespace npusim::opapi {

namespace {

[[maybe_unused]] const bool kRegistered = register_op({"aclnnArange", OpFamily::Fill, kNumericTypes, Kernel::Range});

aclnnStatus prepare(const aclScalar* start, const aclScalar* end, const aclScalar* step, const aclTensor* out,
                    uint64_t* workspaceSize, aclOpExecutor** executor) {
    const char* api = "aclnnArange";
    OPAPI_CHECK(check_not_null(api, {start, end, step, out, workspaceSize, executor}));
    OPAPI_CHECK(check_tensor(api, "out", out));
    if (!nn::valid(start) || !nn::valid(end) || !nn::valid(step))
        return invalid(api, "start, end and step must be live aclScalars");
    const TensorView y = view_of(out);
    if (!kNumericTypes.has(y.dtype)) return invalid(api, "out has data type %s", nn::dtype_name(y.dtype));
    const double a = start->value, b = end->value, d = step->value;
    if (!(d != 0) || !std::isfinite(a) || !std::isfinite(b) || (d > 0 && b < a) || (d < 0 && b > a)) {
        return invalid(api, "start %g, end %g, step %g do not make a range", a, b, d);
    }
    const int64_t n = static_cast<int64_t>(std::ceil((b - a) / d));
    OPAPI_CHECK(check_same_dims(api, "out", y.dims, Dims{n}));
    std::vector<KernelLaunch> launches{{Kernel::Range, y.dtype, vector_cost(double(n), double(y.bytes()), n, 4096)}};
    auto compute = [y, a, d, n]() {
        std::vector<double> r(static_cast<size_t>(n));
        for (int64_t k = 0; k < n; ++k) r[static_cast<size_t>(k)] = a + double(k) * d;
        write_doubles(y, r);
    };
    return hand_over(std::make_unique<OpExecutor>(api, 0, compute, std::move(launches), std::vector<void*>{y.data}),
                     workspaceSize, executor);
}

}  // namespace

}  // namespace npusim::opapi

NPUSIM_C_EXPORT aclnnStatus aclnnArangeGetWorkspaceSize(const aclScalar* start, const aclScalar* end,
                                                        const aclScalar* step, aclTensor* out, uint64_t* workspaceSize,
                                                        aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnArangeGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare(start, end, step, out, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnArange)
