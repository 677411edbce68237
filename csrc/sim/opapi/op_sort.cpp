// aclnnSort and aclnnTopk along one dimension (self seen as [outer, length, inner]), values in self's
// type and int64 positions: a stable sort in which nan is the largest value (torch's order);
// aclnnTopk keeps the first k of the descending (largest) or ascending order, sorted or not (the
// same order either way).
#include <algorithm>
#include <cmath>
#include <memory>
#include <numeric>

#include "aclnnop/aclnn_sort.h"
#include "aclnnop/aclnn_topk.h"
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
    register_op({"aclnnSort", OpFamily::Reduction, kNumericTypes, Kernel::Sort}) &&
    register_op({"aclnnTopk", OpFamily::Reduction, kNumericTypes, Kernel::TopKV2});

aclnnStatus prepare(const char* api, Kernel kernel, const aclTensor* self, int64_t dim, bool descending, int64_t k,
                    const aclTensor* valuesOut, const aclTensor* indicesOut, uint64_t* workspaceSize,
                    aclOpExecutor** executor) {
    OPAPI_CHECK(check_not_null(api, {self, valuesOut, indicesOut, workspaceSize, executor}));
    OPAPI_CHECK(check_tensor(api, "self", self));
    OPAPI_CHECK(check_tensor(api, "valuesOut", valuesOut));
    OPAPI_CHECK(check_tensor(api, "indicesOut", indicesOut));
    const TensorView x = view_of(self), values = view_of(valuesOut), indices = view_of(indicesOut);
    if (!kNumericTypes.has(x.dtype)) return invalid(api, "self has data type %s", nn::dtype_name(x.dtype));
    OPAPI_CHECK(check_same_dtype(api, "valuesOut", values.dtype, x.dtype));
    if (indices.dtype != ACL_INT64 && indices.dtype != ACL_INT32)
        return invalid(api, "indicesOut must be int64 or int32");
    OPAPI_CHECK(check_rank(api, "self", x.dims, 0, nn::kMaxDims));
    size_t axis = 0;
    if (x.rank() == 0 ? (dim != 0 && dim != -1) : !normalize_dim(dim, x.rank(), axis)) {
        return invalid(api, "dim %lld is out of range", static_cast<long long>(dim));
    }
    int64_t outer = 1, length = 1, inner = 1;
    for (size_t i = 0; i < x.rank(); ++i) (i < axis ? outer : i == axis ? length : inner) *= x.dims[i];
    if (k < 0 || k > length)
        return invalid(api, "k %lld is outside [0, %lld]", static_cast<long long>(k), static_cast<long long>(length));
    Dims expected = x.dims;
    if (x.rank() > 0) expected[axis] = k;
    OPAPI_CHECK(check_same_dims(api, "valuesOut", values.dims, expected));
    OPAPI_CHECK(check_same_dims(api, "indicesOut", indices.dims, expected));
    const int64_t n = x.numel();
    std::vector<KernelLaunch> launches{
        {kernel, x.dtype,
         vector_cost(double(n) * std::log2(double(std::max<int64_t>(length, 2))),
                     double(x.bytes() + values.bytes() + indices.bytes()), outer * inner, 1)}};
    auto compute = [x, values, indices, outer, length, inner, k, descending]() {
        const std::vector<double> v = read_doubles(x);
        std::vector<double> rv(static_cast<size_t>(outer * k * inner)), ri(rv.size());
        std::vector<int64_t> order(static_cast<size_t>(length));
        for (int64_t o = 0; o < outer; ++o)
            for (int64_t i = 0; i < inner; ++i) {
                const auto at = [&](int64_t j) { return v[static_cast<size_t>((o * length + j) * inner + i)]; };
                std::iota(order.begin(), order.end(), 0);
                std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
                    return descending ? ascending(at(b), at(a)) : ascending(at(a), at(b));
                });
                for (int64_t j = 0; j < k; ++j) {
                    const size_t e = static_cast<size_t>((o * k + j) * inner + i);
                    rv[e] = at(order[static_cast<size_t>(j)]);
                    ri[e] = double(order[static_cast<size_t>(j)]);
                }
            }
        write_doubles(values, rv);
        write_doubles(indices, ri);
    };
    return hand_over(std::make_unique<OpExecutor>(api, 0, compute, std::move(launches),
                                                  std::vector<void*>{x.data, values.data, indices.data}),
                     workspaceSize, executor);
}

}  // namespace

}  // namespace npusim::opapi

NPUSIM_C_EXPORT aclnnStatus aclnnSortGetWorkspaceSize(const aclTensor* self, bool stable, int64_t dim, bool descending,
                                                      aclTensor* valuesOut, aclTensor* indicesOut,
                                                      uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnSortGetWorkspaceSize", aclnnStatus);
    // Always stable: an unstable sort may give any order of equal values, this one among them.
    int64_t length = 1;
    if (npusim::nn::valid(self) && !self->view.empty()) {
        size_t axis = 0;
        if (npusim::opapi::normalize_dim(dim, self->view.size(), axis)) length = self->view[axis];
    }
    return npusim::opapi::prepare("aclnnSort", npusim::opapi::Kernel::Sort, self, dim, descending, length, valuesOut,
                                  indicesOut, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnSort)

NPUSIM_C_EXPORT aclnnStatus aclnnTopkGetWorkspaceSize(const aclTensor* self, int64_t k, int64_t dim, bool largest,
                                                      bool sorted, aclTensor* valuesOut, aclTensor* indicesOut,
                                                      uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnTopkGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare("aclnnTopk", npusim::opapi::Kernel::TopKV2, self, dim, largest, k, valuesOut,
                                  indicesOut, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnTopk)
