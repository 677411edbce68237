// Element gathers and scatters along one dimension (torch.gather, scatter_add):
//   aclnnGather       out[..i..] = self[.. index[..i..] ..] along dim, out of index's shape
//   aclnnScatterAdd   out = self, then out[.. index[..i..] ..] += src[..i..] along dim, over index's shape
//   aclnnScatter, aclnnInplaceScatter: the same with reduce 0 (write; of repeated positions the last
//                     in row-major order wins), 1 (add) or 2 (multiply)
// index int32 or int64 of self's rank, each value in [-size, size) of dim (a negative one counts from
// the end); an element whose index value is outside that range is skipped (the values are read when
// the kernel runs; torch checks them before it calls).
#include <memory>

#include "aclnnop/aclnn_gather.h"
#include "aclnnop/aclnn_scatter.h"
#include "aclnnop/aclnn_scatter_add.h"
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
    register_op({"aclnnGather", OpFamily::Index, kAllTypes, Kernel::GatherElements}) &&
    register_op({"aclnnScatterAdd", OpFamily::Index, kNumericTypes, Kernel::ScatterElements}) &&
    register_op({"aclnnScatter", OpFamily::Index, kNumericTypes, Kernel::ScatterElements}) &&
    register_op({"aclnnInplaceScatter", OpFamily::Index, kNumericTypes, Kernel::ScatterElements});

enum class Reduce : int64_t { None = 0, Add = 1, Multiply = 2 };

// Row-major strides of dims.
Dims strides_of(const Dims& dims) {
    Dims s(dims.size(), 1);
    for (size_t i = dims.size(); i-- > 1;) s[i - 1] = s[i] * dims[i];
    return s;
}

// Calls f(flat position in index's shape, flat position in target with dim replaced by the index value).
template <typename F>
void walk(const Dims& index_dims, const Dims& target_dims, size_t axis, const std::vector<double>& index, F f) {
    const Dims ts = strides_of(target_dims);
    std::vector<int64_t> at(index_dims.size(), 0);
    const int64_t size = target_dims.empty() ? 1 : target_dims[axis];
    for (size_t e = 0; e < index.size(); ++e) {
        int64_t k = static_cast<int64_t>(index[e]);
        if (k < 0) k += size;
        if (k >= 0 && k < size) {
            int64_t t = 0;
            for (size_t i = 0; i < at.size(); ++i) t += (i == axis ? k : at[i]) * ts[i];
            f(e, static_cast<size_t>(t));
        }
        next_index(at, index_dims);
    }
}

aclnnStatus check_index(const char* api, const TensorView& self, const TensorView& index, int64_t dim, size_t& axis) {
    if (index.dtype != ACL_INT32 && index.dtype != ACL_INT64) return invalid(api, "index must be int32 or int64");
    if (index.rank() != self.rank()) return invalid(api, "index must have self's rank %zu", self.rank());
    if (self.rank() == 0) {
        axis = 0;
        if (dim != 0 && dim != -1) return invalid(api, "dim %lld is out of range", static_cast<long long>(dim));
        return ACLNN_SUCCESS;
    }
    if (!normalize_dim(dim, self.rank(), axis))
        return invalid(api, "dim %lld is out of range", static_cast<long long>(dim));
    return ACLNN_SUCCESS;
}

aclnnStatus prepare_gather(const aclTensor* self, int64_t dim, const aclTensor* index, const aclTensor* out,
                           uint64_t* workspaceSize, aclOpExecutor** executor) {
    const char* api = "aclnnGather";
    OPAPI_CHECK(check_not_null(api, {self, index, out, workspaceSize, executor}));
    OPAPI_CHECK(check_tensor(api, "self", self));
    OPAPI_CHECK(check_tensor(api, "index", index));
    OPAPI_CHECK(check_tensor(api, "out", out));
    const TensorView x = view_of(self), ind = view_of(index), y = view_of(out);
    if (!kAllTypes.has(x.dtype)) return invalid(api, "self has data type %s", nn::dtype_name(x.dtype));
    OPAPI_CHECK(check_same_dtype(api, "out", y.dtype, x.dtype));
    OPAPI_CHECK(check_rank(api, "self", x.dims, 0, nn::kMaxDims));
    size_t axis = 0;
    OPAPI_CHECK(check_index(api, x, ind, dim, axis));
    for (size_t i = 0; i < x.rank(); ++i) {
        if (i != axis && ind.dims[i] > x.dims[i])
            return invalid(api, "index %s is larger than self %s", dims_text(ind.dims).c_str(),
                           dims_text(x.dims).c_str());
    }
    OPAPI_CHECK(check_same_dims(api, "out", y.dims, ind.dims));
    std::vector<KernelLaunch> launches{
        {Kernel::GatherElements, x.dtype, vector_cost(0.0, double(y.bytes() * 2 + ind.bytes()), y.numel(), 4096)}};
    auto compute = [x, ind, y, axis]() {
        // self read at the positions of index's shape with dim replaced: a gather of x's full layout.
        const std::vector<double> v = read_doubles(x), iv = read_doubles(ind);
        std::vector<double> r(iv.size(), 0.0);
        walk(ind.dims, x.dims, axis, iv, [&](size_t e, size_t t) { r[e] = v[t]; });
        write_doubles(y, r);
    };
    return hand_over(
        std::make_unique<OpExecutor>(api, 0, compute, std::move(launches), std::vector<void*>{x.data, y.data}),
        workspaceSize, executor);
}

aclnnStatus prepare_scatter(const char* api, Reduce reduce, const aclTensor* self, int64_t dim, const aclTensor* index,
                            const aclTensor* src, const aclTensor* out, uint64_t* workspaceSize,
                            aclOpExecutor** executor) {
    OPAPI_CHECK(check_not_null(api, {self, index, src, out, workspaceSize, executor}));
    OPAPI_CHECK(check_tensor(api, "self", self));
    OPAPI_CHECK(check_tensor(api, "index", index));
    OPAPI_CHECK(check_tensor(api, "src", src));
    OPAPI_CHECK(check_tensor(api, "out", out));
    const TensorView x = view_of(self), ind = view_of(index), s = view_of(src), y = view_of(out);
    if (!kNumericTypes.has(x.dtype)) return invalid(api, "self has data type %s", nn::dtype_name(x.dtype));
    OPAPI_CHECK(check_same_dtype(api, "src", s.dtype, x.dtype));
    OPAPI_CHECK(check_same_dtype(api, "out", y.dtype, x.dtype));
    OPAPI_CHECK(check_rank(api, "self", x.dims, 0, nn::kMaxDims));
    OPAPI_CHECK(check_same_dims(api, "out", y.dims, x.dims));
    size_t axis = 0;
    OPAPI_CHECK(check_index(api, x, ind, dim, axis));
    if (s.rank() != x.rank()) return invalid(api, "src must have self's rank");
    for (size_t i = 0; i < x.rank(); ++i) {
        if (ind.dims[i] > s.dims[i] || (i != axis && ind.dims[i] > x.dims[i])) {
            return invalid(api, "index %s is larger than src %s or self %s", dims_text(ind.dims).c_str(),
                           dims_text(s.dims).c_str(), dims_text(x.dims).c_str());
        }
    }
    std::vector<KernelLaunch> launches{
        {Kernel::ScatterElements, x.dtype,
         vector_cost(double(ind.numel()), double(x.bytes() + y.bytes() + ind.bytes()), ind.numel(), 4096)}};
    auto compute = [x, ind, s, y, axis, reduce]() {
        std::vector<double> r = read_doubles(x);
        const std::vector<double> iv = read_doubles(ind), sv = read_doubles(s);
        const Dims ss = strides_of(s.dims), is = strides_of(ind.dims);
        walk(ind.dims, x.dims, axis, iv, [&](size_t e, size_t t) {
            // element e of index's shape is at the same coordinates of src
            int64_t rest = static_cast<int64_t>(e), src_pos = 0;
            for (size_t i = 0; i < is.size(); ++i) {
                src_pos += (rest / is[i]) * ss[i];
                rest %= is[i];
            }
            const double value = sv[static_cast<size_t>(src_pos)];
            r[t] = reduce == Reduce::Add ? r[t] + value : reduce == Reduce::Multiply ? r[t] * value : value;
        });
        write_doubles(y, r);
    };
    return hand_over(
        std::make_unique<OpExecutor>(api, 0, compute, std::move(launches), std::vector<void*>{x.data, y.data}),
        workspaceSize, executor);
}

}  // namespace

}  // namespace npusim::opapi

NPUSIM_C_EXPORT aclnnStatus aclnnGatherGetWorkspaceSize(const aclTensor* self, const int64_t dim,
                                                        const aclTensor* index, aclTensor* out, uint64_t* workspaceSize,
                                                        aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnGatherGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare_gather(self, dim, index, out, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnGather)

NPUSIM_C_EXPORT aclnnStatus aclnnScatterAddGetWorkspaceSize(const aclTensor* self, int64_t dim, const aclTensor* index,
                                                            const aclTensor* src, aclTensor* out,
                                                            uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnScatterAddGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare_scatter("aclnnScatterAdd", npusim::opapi::Reduce::Add, self, dim, index, src, out,
                                          workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnScatterAdd)

NPUSIM_C_EXPORT aclnnStatus aclnnScatterGetWorkspaceSize(const aclTensor* self, int64_t dim, const aclTensor* index,
                                                         const aclTensor* src, int64_t reduce, aclTensor* out,
                                                         uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnScatterGetWorkspaceSize", aclnnStatus);
    if (reduce < 0 || reduce > 2)
        return npusim::opapi::invalid("aclnnScatter", "reduce %lld is not 0, 1 or 2", static_cast<long long>(reduce));
    return npusim::opapi::prepare_scatter("aclnnScatter", static_cast<npusim::opapi::Reduce>(reduce), self, dim, index,
                                          src, out, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnScatter)

NPUSIM_C_EXPORT aclnnStatus aclnnInplaceScatterGetWorkspaceSize(aclTensor* selfRef, int64_t dim, const aclTensor* index,
                                                                const aclTensor* src, int64_t reduce,
                                                                uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnInplaceScatterGetWorkspaceSize", aclnnStatus);
    if (reduce < 0 || reduce > 2) {
        return npusim::opapi::invalid("aclnnInplaceScatter", "reduce %lld is not 0, 1 or 2",
                                      static_cast<long long>(reduce));
    }
    return npusim::opapi::prepare_scatter("aclnnInplaceScatter", static_cast<npusim::opapi::Reduce>(reduce), selfRef,
                                          dim, index, src, selfRef, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnInplaceScatter)
