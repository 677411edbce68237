// PadV3Grad of the aclop path (opapi/aclop.h): the gradient of reflect ("reflect") and replicate
// ("edge") padding, as torch_npu sends reflection_pad1d/2d_backward and
// replication_pad1d/2d_backward. Each element of the padded gradient x is added to the element of
// y its position copied in the forward padding (opapi/pad_index.h); sums in double, rounded once.
#include <string>
#include <vector>

#include "nnopbase/dtype.h"
#include "opapi/aclop_operands.h"
#include "opapi/checks.h"
#include "opapi/index_walk.h"
#include "opapi/op_costs.h"
#include "opapi/pad_index.h"
#include "opapi/registry.h"

namespace npusim::opapi {

aclError pad_v3_grad(const std::vector<AclopOperand>& in, const std::vector<AclopOperand>& out, const AclopAttrs* attrs,
                     aclrtStream stream) {
    const char* type = "PadV3Grad";
    if (in.size() != 2 || out.size() != 1) return aclop_bad(type, "2 inputs (x, paddings) and 1 output (y) expected");
    bool ok = true;
    const std::string mode_name = attr_or<std::string>(attrs, "mode", "reflect", ok);
    const bool contiguous = attr_or<bool>(attrs, "paddings_contiguous", true, ok);
    if (!ok) return aclop_bad(type, "attribute mode must be a string, paddings_contiguous a bool");
    if (mode_name != "reflect" && mode_name != "edge") {
        return aclop_bad(type, "attribute mode must be \"reflect\" or \"edge\", is ", mode_name);
    }
    const PadMode mode = mode_name == "reflect" ? PadMode::Reflect : PadMode::Replicate;
    const AclopOperand &x = in[0], &y = out[0];
    if (!kNumericTypes.has(x.dtype)) return aclop_bad(type, "x has data type ", nn::dtype_name(x.dtype));
    if (y.dtype != x.dtype) return aclop_bad(type, "y must have x's data type");
    if (in[1].dtype != ACL_INT32 && in[1].dtype != ACL_INT64) return aclop_bad(type, "paddings must be int32 or int64");
    const size_t rank = x.dims.size();
    const std::vector<double> paddings = operand_values(in[1]);
    if (paddings.size() != 2 * rank || static_cast<int64_t>(paddings.size()) != numel(in[1].dims)) {
        return aclop_bad(type, "paddings must hold 2 values per dimension of x, has shape ", dims_text(in[1].dims));
    }
    if (y.dims.size() != rank) return aclop_bad(type, "y must have x's rank, has shape ", dims_text(y.dims));
    Dims before(rank);
    for (size_t d = 0; d < rank; ++d) {
        const auto b = static_cast<int64_t>(paddings[contiguous ? 2 * d : d]);
        const auto a = static_cast<int64_t>(paddings[contiguous ? 2 * d + 1 : rank + d]);
        const int64_t size = y.dims[d];
        const bool fits_mode = mode == PadMode::Reflect ? b < size && a < size : size > 0 || (a == 0 && b == 0);
        if (b < 0 || a < 0 || x.dims[d] != size + b + a || !fits_mode) {
            return aclop_bad(type, "paddings do not take x to y: y has shape ",
                             dims_text(y.dims) + ", x " + dims_text(x.dims));
        }
        before[d] = b;
    }
    if (!fits(x) || !fits(y)) return aclop_bad(type, "x or y has no buffer of its size");
    const TensorView xv = contiguous_view(x), yv = contiguous_view(y);
    auto compute = [xv, yv, before, mode]() {
        const std::vector<double> grad = read_doubles(xv);
        std::vector<double> sum(static_cast<size_t>(numel(yv.dims)), 0.0);
        const size_t r = xv.dims.size();
        Dims at(r, 0);  // the index in x, row-major
        for (double g : grad) {
            int64_t target = 0;
            for (size_t d = 0; d < r; ++d) {
                target = target * yv.dims[d] + pad_source_index(mode, at[d] - before[d], yv.dims[d]);
            }
            sum[static_cast<size_t>(target)] += g;
            next_index(at, xv.dims);
        }
        write_doubles(yv, sum);
    };
    const int64_t n = xv.numel();
    std::vector<KernelLaunch> launches{
        {Kernel::PadV3Grad, x.dtype, vector_cost(double(n), double(xv.bytes() + yv.bytes()), n, 4096)}};
    return launch_now(
        type, std::make_unique<OpExecutor>(type, 0, compute, std::move(launches), std::vector<void*>{xv.data, yv.data}),
        stream);
}

}  // namespace npusim::opapi
