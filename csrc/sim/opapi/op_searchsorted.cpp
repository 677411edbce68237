// aclnnSearchSorted / aclnnSearchSorteds: torch.searchsorted: for each value of self (a tensor, or one
// scalar) the index at which it would be inserted into its row of sortedSequence (the last dimension;
// a 1-D sequence serves every value, otherwise its leading dimensions equal self's): the first index
// whose element is >= the value (right: > the value). sorter (optional, int64, sortedSequence's shape)
// gives, per row, the order in which the row is sorted. out: self's shape (a scalar: []), int64, or
// int32 with outInt32. Bad input: NULL is ACLNN_ERR_PARAM_NULLPTR; a type outside the numbers, a 0-D
// sequence, leading dimensions that differ, a sorter of another shape or not int64 or holding an index
// out of range, or an out of another shape or type is ACLNN_ERR_PARAM_INVALID.
#include <algorithm>
#include <memory>
#include <vector>

#include "aclnnop/aclnn_searchsorted.h"
#include "core/fault_plan.h"
#include "nnopbase/dtype.h"
#include "nnopbase/tensor.h"
#include "opapi/checks.h"
#include "opapi/op_launcher.h"
#include "opapi/registry.h"

namespace npusim::opapi {

namespace {

[[maybe_unused]] const bool kRegistered =
    register_op({"aclnnSearchSorted", OpFamily::Index, kNumericTypes, Kernel::SearchSorted}) &&
    register_op({"aclnnSearchSorteds", OpFamily::Index, kNumericTypes, Kernel::SearchSorted});

// values: self's view, or none for a scalar (then `scalar` is the one value).
aclnnStatus prepare(const char* api, const aclTensor* sortedSequence, const aclTensor* self, const aclScalar* scalar,
                    bool outInt32, bool right, const aclTensor* sorter, const aclTensor* out, uint64_t* workspaceSize,
                    aclOpExecutor** executor) {
    OPAPI_CHECK(check_not_null(api, {sortedSequence, self != nullptr ? static_cast<const void*>(self) : scalar, out,
                                     workspaceSize, executor}));
    OPAPI_CHECK(check_tensor(api, "sortedSequence", sortedSequence));
    OPAPI_CHECK(check_tensor(api, "out", out));
    if (self != nullptr) OPAPI_CHECK(check_tensor(api, "self", self));
    if (scalar != nullptr && !nn::valid(scalar)) return invalid(api, "self is not a live aclScalar");
    const TensorView seq = view_of(sortedSequence), y = view_of(out);
    TensorView x;
    const bool has_tensor = self != nullptr;
    if (has_tensor) x = view_of(self);
    if (!kNumericTypes.has(seq.dtype) || (has_tensor && !kNumericTypes.has(x.dtype))) {
        return invalid(api, "sortedSequence and self must be numbers; %s expected", kNumericTypes.text().c_str());
    }
    if (seq.rank() == 0) return invalid(api, "sortedSequence is 0-D");
    const Dims values_dims = has_tensor ? x.dims : Dims{};
    if (seq.rank() > 1) {
        const Dims lead(seq.dims.begin(), seq.dims.end() - 1);
        if (!has_tensor || values_dims.size() != seq.rank() ||
            !std::equal(lead.begin(), lead.end(), values_dims.begin())) {
            return invalid(api, "sortedSequence %s and self %s differ in their leading dimensions",
                           dims_text(seq.dims).c_str(), dims_text(values_dims).c_str());
        }
    }
    OPAPI_CHECK(check_same_dtype(api, "out", y.dtype, outInt32 ? ACL_INT32 : ACL_INT64));
    OPAPI_CHECK(check_same_dims(api, "out", y.dims, values_dims));
    TensorView order;
    const bool sorted_by = sorter != nullptr;
    if (sorted_by) {
        OPAPI_CHECK(check_tensor(api, "sorter", sorter));
        order = view_of(sorter);
        OPAPI_CHECK(check_same_dtype(api, "sorter", order.dtype, ACL_INT64));
        OPAPI_CHECK(check_same_dims(api, "sorter", order.dims, seq.dims));
    }
    const int64_t length = seq.dims.back(), rows = seq.numel() / std::max<int64_t>(length, 1);
    const int64_t count = numel(values_dims);
    const double value = scalar != nullptr ? scalar->value : 0.0;
    std::vector<KernelLaunch> launches{
        {Kernel::SearchSorted, has_tensor ? x.dtype : seq.dtype,
         vector_cost(double(count) * 2.0 * double(std::max<int64_t>(length, 1)),
                     double(seq.bytes() + y.bytes() + (has_tensor ? x.bytes() : 0)), count, 4096)}};
    auto compute = [seq, x, y, order, has_tensor, sorted_by, right, value, length, rows, count]() {
        const std::vector<double> s = read_doubles(seq);
        const std::vector<double> v = has_tensor ? read_doubles(x) : std::vector<double>{value};
        const std::vector<double> idx = sorted_by ? read_doubles(order) : std::vector<double>{};
        std::vector<double> result(static_cast<size_t>(count));
        std::vector<double> row(static_cast<size_t>(length));
        const int64_t per_row = rows > 1 ? count / rows : count;
        for (int64_t r = 0; r < rows; ++r) {
            for (int64_t k = 0; k < length; ++k) {
                const int64_t at = sorted_by ? static_cast<int64_t>(idx[static_cast<size_t>(r * length + k)]) : k;
                row[static_cast<size_t>(k)] = at >= 0 && at < length ? s[static_cast<size_t>(r * length + at)]
                                                                     : s[static_cast<size_t>(r * length)];
            }
            for (int64_t i = 0; i < per_row; ++i) {
                const size_t at = static_cast<size_t>(r * per_row + i);
                const auto pos = right ? std::upper_bound(row.begin(), row.end(), v[at])
                                       : std::lower_bound(row.begin(), row.end(), v[at]);
                result[at] = static_cast<double>(pos - row.begin());
            }
        }
        write_doubles(y, result);
    };
    std::vector<void*> buffers{seq.data, y.data};
    if (has_tensor) buffers.push_back(x.data);
    if (sorted_by) buffers.push_back(order.data);
    return hand_over(std::make_unique<OpExecutor>(api, 0, compute, std::move(launches), std::move(buffers)),
                     workspaceSize, executor);
}

}  // namespace

}  // namespace npusim::opapi

NPUSIM_C_EXPORT aclnnStatus aclnnSearchSortedGetWorkspaceSize(const aclTensor* sortedSequence, const aclTensor* self,
                                                              bool outInt32, bool right, const aclTensor* sorter,
                                                              aclTensor* out, uint64_t* workspaceSize,
                                                              aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnSearchSortedGetWorkspaceSize", aclnnStatus);
    if (self == nullptr) return npusim::opapi::check_not_null("aclnnSearchSorted", {self});
    return npusim::opapi::prepare("aclnnSearchSorted", sortedSequence, self, nullptr, outInt32, right, sorter, out,
                                  workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnSearchSorted)

NPUSIM_C_EXPORT aclnnStatus aclnnSearchSortedsGetWorkspaceSize(const aclTensor* sortedSequence, const aclScalar* self,
                                                               const bool outInt32, const bool right,
                                                               const aclTensor* sorter, aclTensor* out,
                                                               uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnSearchSortedsGetWorkspaceSize", aclnnStatus);
    if (self == nullptr) return npusim::opapi::check_not_null("aclnnSearchSorteds", {self});
    return npusim::opapi::prepare("aclnnSearchSorteds", sortedSequence, nullptr, self, outInt32, right, sorter, out,
                                  workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnSearchSorteds)
