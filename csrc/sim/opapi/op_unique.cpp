// The unique operators (torch.unique, torch.unique_consecutive): outputs whose length depends on the
// data, written to the front of outputs the caller allocates at their largest; the run sets the view
// of valueOut (and of countsOut when counts are returned) to the result's shape, which the caller reads
// back with aclGetViewShape after synchronising (torch_npu: EXEC_NPU_CMD_SYNC, then a resize), as the
// nonzero operators do (op_nonzero.cpp).
//   aclnnUnique(self, sorted, returnInverse, valueOut, inverseOut)
//   aclnnUnique2(self, sorted, returnInverse, returnCounts, valueOut, inverseOut, countsOut)
//       the distinct elements of self in ascending order (nan last; sorted or not, as CANN's
//       UniqueWithCountsAndSorting sorts); inverseOut (self's shape): each element's position among
//       them; countsOut: how often each occurs.
//   aclnnUniqueConsecutive(self, returnInverse, returnCounts, dim, valueOut, inverseOut, countsOut)
//       runs of equal consecutive elements collapsed (dim 1000, torch_npu's "none": of the flattened
//       self; otherwise of the slices along dim, valueOut self's shape with dim shortened).
// valueOut: self's type, contiguous, at least the result's size; inverseOut and countsOut int64 (any
// shape when not asked for). Bad input: NULL is ACLNN_ERR_PARAM_NULLPTR; a type outside the numbers
// and bool, a valueOut too small or of another type, an inverse or counts output of the wrong type or
// size, or a dim out of range is ACLNN_ERR_PARAM_INVALID.
#include <algorithm>
#include <cmath>
#include <memory>
#include <numeric>
#include <vector>

#include "aclnnop/aclnn_unique.h"
#include "aclnnop/aclnn_unique2.h"
#include "aclnnop/aclnn_unique_consecutive.h"
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
    register_op({"aclnnUnique", OpFamily::Index, kAllTypes, Kernel::UniqueWithCountsAndSorting}) &&
    register_op({"aclnnUnique2", OpFamily::Index, kAllTypes, Kernel::UniqueWithCountsAndSorting}) &&
    register_op({"aclnnUniqueConsecutive", OpFamily::Index, kAllTypes, Kernel::UniqueConsecutive});

constexpr int64_t kNoDim = 1000;  // torch_npu's dim for "none"

bool same_value(double a, double b) { return a == b || (a != a && b != b); }

struct Request {
    bool consecutive;
    bool inverse, counts;
    int64_t dim;  // consecutive only; kNoDim: flattened
};

aclnnStatus prepare(const char* api, const Request& r, const aclTensor* self, aclTensor* valueOut,
                    const aclTensor* inverseOut, aclTensor* countsOut, uint64_t* workspaceSize,
                    aclOpExecutor** executor) {
    OPAPI_CHECK(check_not_null(api, {self, valueOut, workspaceSize, executor}));
    if (r.inverse) OPAPI_CHECK(check_not_null(api, {inverseOut}));
    if (r.counts) OPAPI_CHECK(check_not_null(api, {countsOut}));
    OPAPI_CHECK(check_tensor(api, "self", self));
    OPAPI_CHECK(check_tensor(api, "valueOut", valueOut));
    const TensorView x = view_of(self), y = view_of(valueOut);
    if (!kAllTypes.has(x.dtype)) return invalid(api, "self has data type %s", nn::dtype_name(x.dtype));
    OPAPI_CHECK(check_same_dtype(api, "valueOut", y.dtype, x.dtype));
    // self seen as [outer, length, inner] along the collapsed dimension
    size_t axis = 0;
    int64_t outer = 1, length = x.numel(), inner = 1;
    const bool flat = !r.consecutive || r.dim == kNoDim;
    if (!flat) {
        if (x.rank() == 0 || !normalize_dim(r.dim, x.rank(), axis)) {
            return invalid(api, "dim %lld is out of range", static_cast<long long>(r.dim));
        }
        length = 1;
        for (size_t i = 0; i < x.rank(); ++i) (i < axis ? outer : i == axis ? length : inner) *= x.dims[i];
        OPAPI_CHECK(check_same_dims(api, "valueOut", y.dims, x.dims));
    } else if (y.numel() < x.numel()) {
        return invalid(api, "valueOut has %lld elements; at least %lld expected", static_cast<long long>(y.numel()),
                       static_cast<long long>(x.numel()));
    }
    if (!is_contiguous(y)) return invalid(api, "valueOut must be contiguous");
    TensorView inv, cnt;
    if (r.inverse) {
        OPAPI_CHECK(check_tensor(api, "inverseOut", inverseOut));
        inv = view_of(inverseOut);
        OPAPI_CHECK(check_same_dtype(api, "inverseOut", inv.dtype, ACL_INT64));
        if (inv.numel() != (flat ? x.numel() : length)) {
            return invalid(api, "inverseOut has %lld elements; %lld expected", static_cast<long long>(inv.numel()),
                           static_cast<long long>(flat ? x.numel() : length));
        }
    }
    if (r.counts) {
        OPAPI_CHECK(check_tensor(api, "countsOut", countsOut));
        cnt = view_of(countsOut);
        OPAPI_CHECK(check_same_dtype(api, "countsOut", cnt.dtype, ACL_INT64));
        if (cnt.numel() < length || !is_contiguous(cnt)) {
            return invalid(api, "countsOut must be contiguous with at least %lld elements",
                           static_cast<long long>(length));
        }
    }
    const Kernel kernel = r.consecutive ? Kernel::UniqueConsecutive : Kernel::UniqueWithCountsAndSorting;
    std::vector<KernelLaunch> launches{
        {kernel, x.dtype,
         vector_cost(double(x.numel()) * std::log2(double(std::max<int64_t>(length, 2))),
                     double(x.bytes() + y.bytes() + inv.bytes() + cnt.bytes()), x.numel(), 4096)}};
    auto compute = [x, y, inv, cnt, r, flat, axis, outer, length, inner, valueOut, countsOut]() {
        const std::vector<double> v = read_doubles(x);
        const auto element = [&](int64_t o, int64_t j, int64_t i) { return v[size_t((o * length + j) * inner + i)]; };
        // The slice order: slices (elements when flat) sorted (unique) or as they are (consecutive).
        std::vector<int64_t> order(static_cast<size_t>(length));
        std::iota(order.begin(), order.end(), 0);
        if (!r.consecutive) {
            std::stable_sort(order.begin(), order.end(), [&v](int64_t a, int64_t b) {
                return ascending(v[static_cast<size_t>(a)], v[static_cast<size_t>(b)]);
            });
        }
        const auto equal_slices = [&](int64_t a, int64_t b) {
            for (int64_t o = 0; o < outer; ++o) {
                for (int64_t i = 0; i < inner; ++i) {
                    if (!same_value(element(o, a, i), element(o, b, i))) return false;
                }
            }
            return true;
        };
        std::vector<int64_t> firsts;  // the first slice (in `order`) of each group
        std::vector<double> inverse(static_cast<size_t>(length)), counts;
        for (size_t k = 0; k < order.size(); ++k) {
            if (k == 0 || !equal_slices(order[k - 1], order[k])) {
                firsts.push_back(order[k]);
                counts.push_back(0);
            }
            counts.back() += 1;
            inverse[static_cast<size_t>(order[k])] = double(firsts.size() - 1);
        }
        const auto groups = static_cast<int64_t>(firsts.size());
        Dims shape = flat ? Dims{groups} : x.dims;
        if (!flat) shape[axis] = groups;
        std::vector<double> values(static_cast<size_t>(outer * groups * inner));
        for (int64_t o = 0; o < outer; ++o) {
            for (int64_t g = 0; g < groups; ++g) {
                for (int64_t i = 0; i < inner; ++i) {
                    values[size_t((o * groups + g) * inner + i)] = element(o, firsts[size_t(g)], i);
                }
            }
        }
        set_result_view(valueOut, shape);
        TensorView result = y;
        result.dims = shape;
        result.strides = valueOut->strides;
        write_doubles(result, values);
        if (r.inverse) write_doubles(inv, inverse);
        if (r.counts) {
            set_result_view(countsOut, Dims{groups});
            TensorView c = cnt;
            c.dims = Dims{groups};
            c.strides = {1};
            write_doubles(c, counts);
        }
    };
    std::vector<void*> buffers{x.data, y.data};
    if (r.inverse) buffers.push_back(inv.data);
    if (r.counts) buffers.push_back(cnt.data);
    return hand_over(std::make_unique<OpExecutor>(api, 0, compute, std::move(launches), std::move(buffers)),
                     workspaceSize, executor);
}

}  // namespace

}  // namespace npusim::opapi

using npusim::opapi::Request;

NPUSIM_C_EXPORT aclnnStatus aclnnUniqueGetWorkspaceSize(const aclTensor* self, bool sorted, bool returnInverse,
                                                        aclTensor* valueOut, aclTensor* inverseOut,
                                                        uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnUniqueGetWorkspaceSize", aclnnStatus);
    (void)sorted;  // always sorted (see above)
    return npusim::opapi::prepare("aclnnUnique", Request{false, returnInverse, false, 0}, self, valueOut, inverseOut,
                                  nullptr, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnUnique)

NPUSIM_C_EXPORT aclnnStatus aclnnUnique2GetWorkspaceSize(const aclTensor* self, bool sorted, bool returnInverse,
                                                         bool returnCounts, aclTensor* valueOut, aclTensor* inverseOut,
                                                         aclTensor* countsOut, uint64_t* workspaceSize,
                                                         aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnUnique2GetWorkspaceSize", aclnnStatus);
    (void)sorted;
    return npusim::opapi::prepare("aclnnUnique2", Request{false, returnInverse, returnCounts, 0}, self, valueOut,
                                  inverseOut, countsOut, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnUnique2)

NPUSIM_C_EXPORT aclnnStatus aclnnUniqueConsecutiveGetWorkspaceSize(const aclTensor* self, bool returnInverse,
                                                                   bool returnCounts, int64_t dim, aclTensor* valueOut,
                                                                   aclTensor* inverseOut, aclTensor* countsOut,
                                                                   uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnUniqueConsecutiveGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare("aclnnUniqueConsecutive", Request{true, returnInverse, returnCounts, dim}, self,
                                  valueOut, inverseOut, countsOut, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnUniqueConsecutive)
