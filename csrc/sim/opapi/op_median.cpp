// The medians (torch.median, torch.nanmedian), all elements or along one dimension (self seen as
// [outer, length, inner]): the lower of the two middle elements in torch's order (ascending, nan the
// largest: opapi/sort_order.h), element (k - 1) / 2 of the k sorted elements.
//   aclnnMedian(self, valuesOut [])                         nan when self holds one
//   aclnnMedianDim(self, dim, keepDim, valuesOut, indicesOut)
//   aclnnNanMedian(self, out [])                            nan elements left out (nan when all are)
//   aclnnNanMedianDim(self, dim, keepDim, valuesOut, indicesOut)
// indicesOut (int64): the element's position along dim (of equal values, the first in a stable sort;
// a nan median: the first nan).
// Bad input: NULL is ACLNN_ERR_PARAM_NULLPTR; a type outside the numbers, an empty self (all elements),
// a dim out of range, or an out of another shape or type is ACLNN_ERR_PARAM_INVALID.
#include <algorithm>
#include <cmath>
#include <memory>
#include <numeric>
#include <vector>

#include "aclnnop/aclnn_median.h"
#include "core/fault_plan.h"
#include "nnopbase/dtype.h"
#include "nnopbase/tensor.h"
#include "opapi/checks.h"
#include "opapi/op_launcher.h"
#include "opapi/registry.h"
#include "opapi/sort_order.h"

namespace npusim::opapi {

namespace {

[[maybe_unused]] const bool kRegistered =
    register_op({"aclnnMedian", OpFamily::Reduction, kNumericTypes, Kernel::Median}) &&
    register_op({"aclnnMedianDim", OpFamily::Reduction, kNumericTypes, Kernel::Median}) &&
    register_op({"aclnnNanMedian", OpFamily::Reduction, kNumericTypes, Kernel::Median}) &&
    register_op({"aclnnNanMedianDim", OpFamily::Reduction, kNumericTypes, Kernel::Median});

// The position in the row of its median; `order` is scratch of the row's size.
int64_t median_of(const std::vector<double>& row, bool skip_nan, std::vector<int64_t>& order) {
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&row](int64_t a, int64_t b) {
        return ascending(row[static_cast<size_t>(a)], row[static_cast<size_t>(b)]);
    });
    const auto k = static_cast<int64_t>(std::count_if(row.begin(), row.end(), [](double v) { return !std::isnan(v); }));
    // torch.median propagates nan: the first nan element (nan sorts last, in position order); nanmedian
    // of all nan: the first element.
    if (k < static_cast<int64_t>(row.size()) && (!skip_nan || k == 0)) return order[static_cast<size_t>(k)];
    return order[static_cast<size_t>((k - 1) / 2)];
}

// dim: the reduced dimension, or none (every element: valuesOut 0-D, no indices).
aclnnStatus prepare(const char* api, bool skip_nan, const aclTensor* self, bool whole, int64_t dim, bool keepDim,
                    const aclTensor* valuesOut, const aclTensor* indicesOut, uint64_t* workspaceSize,
                    aclOpExecutor** executor) {
    OPAPI_CHECK(check_not_null(api, {self, valuesOut, workspaceSize, executor}));
    if (!whole) OPAPI_CHECK(check_not_null(api, {indicesOut}));
    OPAPI_CHECK(check_tensor(api, "self", self));
    OPAPI_CHECK(check_tensor(api, "valuesOut", valuesOut));
    const TensorView x = view_of(self), values = view_of(valuesOut);
    TensorView indices;
    if (!whole) {
        OPAPI_CHECK(check_tensor(api, "indicesOut", indicesOut));
        indices = view_of(indicesOut);
        OPAPI_CHECK(check_same_dtype(api, "indicesOut", indices.dtype, ACL_INT64));
    }
    if (!kNumericTypes.has(x.dtype)) return invalid(api, "self has data type %s", nn::dtype_name(x.dtype));
    OPAPI_CHECK(check_same_dtype(api, "valuesOut", values.dtype, x.dtype));
    size_t axis = 0;
    int64_t outer = 1, length = x.numel(), inner = 1;
    Dims expected;
    if (whole) {
        if (length == 0) return invalid(api, "self is empty");
    } else {
        if (x.rank() == 0 ? (dim != 0 && dim != -1) : !normalize_dim(dim, x.rank(), axis)) {
            return invalid(api, "dim %lld is out of range", static_cast<long long>(dim));
        }
        length = 1;
        for (size_t i = 0; i < x.rank(); ++i) (i < axis ? outer : i == axis ? length : inner) *= x.dims[i];
        if (length == 0) return invalid(api, "self has no element along dim %lld", static_cast<long long>(dim));
        expected = x.dims;
        if (x.rank() > 0) {
            if (keepDim) {
                expected[axis] = 1;
            } else {
                expected.erase(expected.begin() + static_cast<std::ptrdiff_t>(axis));
            }
        }
        OPAPI_CHECK(check_same_dims(api, "indicesOut", indices.dims, expected));
    }
    OPAPI_CHECK(check_same_dims(api, "valuesOut", values.dims, expected));
    std::vector<KernelLaunch> launches{
        {Kernel::Median, x.dtype,
         vector_cost(double(x.numel()) * std::log2(double(std::max<int64_t>(length, 2))),
                     double(x.bytes() + values.bytes() + indices.bytes()), outer * inner, 1)}};
    auto compute = [x, values, indices, whole, skip_nan, outer, length, inner]() {
        const std::vector<double> v = read_doubles(x);
        std::vector<double> rv(static_cast<size_t>(outer * inner)), ri(rv.size());
        std::vector<double> row(static_cast<size_t>(length));
        std::vector<int64_t> order(row.size());
        for (int64_t o = 0; o < outer; ++o) {
            for (int64_t i = 0; i < inner; ++i) {
                for (int64_t j = 0; j < length; ++j)
                    row[static_cast<size_t>(j)] = v[size_t((o * length + j) * inner + i)];
                const int64_t at = median_of(row, skip_nan, order);
                const auto e = static_cast<size_t>(o * inner + i);
                rv[e] = row[static_cast<size_t>(at)];
                ri[e] = double(at);
            }
        }
        write_doubles(values, rv);
        if (!whole) write_doubles(indices, ri);
    };
    std::vector<void*> buffers{x.data, values.data};
    if (!whole) buffers.push_back(indices.data);
    return hand_over(std::make_unique<OpExecutor>(api, 0, compute, std::move(launches), std::move(buffers)),
                     workspaceSize, executor);
}

}  // namespace

}  // namespace npusim::opapi

NPUSIM_C_EXPORT aclnnStatus aclnnMedianGetWorkspaceSize(const aclTensor* self, aclTensor* valuesOut,
                                                        uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnMedianGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare("aclnnMedian", false, self, true, 0, false, valuesOut, nullptr, workspaceSize,
                                  executor);
}
OPAPI_DEFINE_RUN(aclnnMedian)

NPUSIM_C_EXPORT aclnnStatus aclnnMedianDimGetWorkspaceSize(const aclTensor* self, int64_t dim, bool keepDim,
                                                           aclTensor* valuesOut, aclTensor* indicesOut,
                                                           uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnMedianDimGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare("aclnnMedianDim", false, self, false, dim, keepDim, valuesOut, indicesOut,
                                  workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnMedianDim)

NPUSIM_C_EXPORT aclnnStatus aclnnNanMedianGetWorkspaceSize(const aclTensor* self, aclTensor* out,
                                                           uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnNanMedianGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare("aclnnNanMedian", true, self, true, 0, false, out, nullptr, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnNanMedian)

NPUSIM_C_EXPORT aclnnStatus aclnnNanMedianDimGetWorkspaceSize(const aclTensor* self, int64_t dim, bool keepDim,
                                                              aclTensor* valuesOut, aclTensor* indicesOut,
                                                              uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnNanMedianDimGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare("aclnnNanMedianDim", true, self, false, dim, keepDim, valuesOut, indicesOut,
                                  workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnNanMedianDim)
