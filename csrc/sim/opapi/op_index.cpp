// Advanced indexing (torch's self[indices] and self[indices] = values):
//   aclnnIndex          out = self[indices]
//   aclnnIndexPutImpl   selfRef[indices] = values, or += with accumulate (repeated positions add up;
//                       without accumulate the last one in row-major order wins); unsafe has no effect
// indices: one int32 / int64 tensor per leading dimension of self (an empty tensor: that dimension is
// not indexed, as torch_npu passes an undefined index); the index tensors broadcast together, and
// their shape replaces the indexed dimensions in place when those are adjacent, else goes in front
// (torch's rule). A negative index counts from the end; an element whose index is out of range is
// skipped (reads give 0): the indices are device data, read when the kernel runs, and torch checks
// them before it calls.
#include <memory>

#include "aclnnop/aclnn_index.h"
#include "aclnnop/aclnn_index_put_impl.h"
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
    register_op({"aclnnIndex", OpFamily::Index, kAllTypes, Kernel::Index}) &&
    register_op({"aclnnIndexPutImpl", OpFamily::Index, kAllTypes, Kernel::IndexPutV2});

struct IndexPlan {
    TensorView self;
    std::vector<TensorView> index;  // per dimension of self; data == nullptr: not indexed
    Dims broadcast;                 // the index tensors' common shape
    Dims result;                    // the indexing's shape
    size_t first = 0;               // where the broadcast dimensions go in result
};

aclnnStatus plan_index(const char* api, const TensorView& self, const aclTensorList* indices, IndexPlan& p) {
    if (indices->magic != nn::kArrayMagic) return invalid(api, "indices is not a live aclTensorList");
    if (indices->tensors.size() > self.rank() || indices->tensors.empty()) {
        return invalid(api, "indices holds %zu tensors for a self of rank %zu", indices->tensors.size(), self.rank());
    }
    p.self = self;
    p.index.assign(self.rank(), TensorView{});
    std::vector<size_t> indexed;
    for (size_t i = 0; i < indices->tensors.size(); ++i) {
        OPAPI_CHECK(check_tensor(api, "indices[i]", indices->tensors[i]));
        const TensorView t = view_of(indices->tensors[i]);
        if (t.numel() == 0 && t.rank() == 1) continue;  // not indexed
        if (t.dtype != ACL_INT64 && t.dtype != ACL_INT32) return invalid(api, "indices[%zu] must be int32 or int64", i);
        Dims shape;
        if (!broadcast_dims(indexed.empty() ? t.dims : p.broadcast, t.dims, shape)) {
            return invalid(api, "indices[%zu] %s does not broadcast with the others", i, dims_text(t.dims).c_str());
        }
        p.broadcast = shape;
        p.index[i] = t;
        indexed.push_back(i);
    }
    if (indexed.empty()) return invalid(api, "indices indexes no dimension");
    const bool adjacent = indexed.back() - indexed.front() + 1 == indexed.size();
    p.first = adjacent ? indexed.front() : 0;
    for (size_t i = 0; i < self.rank(); ++i) {
        if (adjacent && i == indexed.front()) p.result.insert(p.result.end(), p.broadcast.begin(), p.broadcast.end());
        if (p.index[i].data == nullptr) p.result.push_back(self.dims[i]);
    }
    if (!adjacent) p.result.insert(p.result.begin(), p.broadcast.begin(), p.broadcast.end());
    return ACLNN_SUCCESS;
}

// The flat position in self of each element of the result (-1 where an index is out of range).
std::vector<int64_t> positions(const IndexPlan& p) {
    std::vector<std::vector<double>> values(p.index.size());
    for (size_t i = 0; i < p.index.size(); ++i) {
        if (p.index[i].data != nullptr) values[i] = read_doubles(p.index[i], p.broadcast);
    }
    Dims self_strides(p.self.rank(), 1);
    for (size_t i = p.self.rank(); i-- > 1;) self_strides[i - 1] = self_strides[i] * p.self.dims[i];
    const size_t b_rank = p.broadcast.size();
    std::vector<int64_t> out(static_cast<size_t>(numel(p.result)));
    std::vector<int64_t> at(p.result.size(), 0);
    for (size_t e = 0; e < out.size(); ++e) {
        // the broadcast coordinates sit at p.first .. p.first + b_rank of the result
        int64_t b_flat = 0;
        for (size_t j = 0; j < b_rank; ++j) b_flat = b_flat * p.broadcast[j] + at[p.first + j];
        int64_t pos = 0;
        size_t r = 0;  // the next result coordinate of a dimension that is not indexed
        bool valid = true;
        for (size_t i = 0; i < p.self.rank(); ++i) {
            if (r == p.first) r += b_rank;
            int64_t c = 0;
            if (p.index[i].data != nullptr) {
                c = static_cast<int64_t>(values[i][static_cast<size_t>(b_flat)]);
                if (c < 0) c += p.self.dims[i];
                valid = valid && c >= 0 && c < p.self.dims[i];
            } else {
                c = at[r++];
            }
            pos += c * self_strides[i];
        }
        out[e] = valid ? pos : -1;
        next_index(at, p.result);
    }
    return out;
}

aclnnStatus prepare_index(const aclTensor* self, const aclTensorList* indices, const aclTensor* out,
                          uint64_t* workspaceSize, aclOpExecutor** executor) {
    const char* api = "aclnnIndex";
    OPAPI_CHECK(check_not_null(api, {self, indices, out, workspaceSize, executor}));
    OPAPI_CHECK(check_tensor(api, "self", self));
    OPAPI_CHECK(check_tensor(api, "out", out));
    const TensorView x = view_of(self), y = view_of(out);
    if (!kAllTypes.has(x.dtype)) return invalid(api, "self has data type %s", nn::dtype_name(x.dtype));
    OPAPI_CHECK(check_same_dtype(api, "out", y.dtype, x.dtype));
    IndexPlan p;
    OPAPI_CHECK(plan_index(api, x, indices, p));
    OPAPI_CHECK(check_same_dims(api, "out", y.dims, p.result));
    std::vector<KernelLaunch> launches{
        {Kernel::Index, x.dtype, vector_cost(0.0, double(2 * y.bytes()), y.numel(), 4096)}};
    auto compute = [p, y]() {
        const std::vector<double> v = read_doubles(p.self);
        const std::vector<int64_t> at = positions(p);
        std::vector<double> r(at.size(), 0.0);
        for (size_t e = 0; e < at.size(); ++e) {
            if (at[e] >= 0) r[e] = v[static_cast<size_t>(at[e])];
        }
        write_doubles(y, r);
    };
    return hand_over(
        std::make_unique<OpExecutor>(api, 0, compute, std::move(launches), std::vector<void*>{x.data, y.data}),
        workspaceSize, executor);
}

aclnnStatus prepare_index_put(const aclTensor* selfRef, const aclTensorList* indices, const aclTensor* values,
                              bool accumulate, uint64_t* workspaceSize, aclOpExecutor** executor) {
    const char* api = "aclnnIndexPutImpl";
    OPAPI_CHECK(check_not_null(api, {selfRef, indices, values, workspaceSize, executor}));
    OPAPI_CHECK(check_tensor(api, "selfRef", selfRef));
    OPAPI_CHECK(check_tensor(api, "values", values));
    const TensorView x = view_of(selfRef), v = view_of(values);
    if (!kAllTypes.has(x.dtype)) return invalid(api, "selfRef has data type %s", nn::dtype_name(x.dtype));
    OPAPI_CHECK(check_same_dtype(api, "values", v.dtype, x.dtype));
    IndexPlan p;
    OPAPI_CHECK(plan_index(api, x, indices, p));
    Dims shape;
    if (!broadcast_dims(p.result, v.dims, shape) || shape != p.result) {
        return invalid(api, "values %s does not broadcast to %s", dims_text(v.dims).c_str(),
                       dims_text(p.result).c_str());
    }
    std::vector<KernelLaunch> launches{
        {Kernel::IndexPutV2, x.dtype,
         vector_cost(double(numel(p.result)), double(x.bytes() + v.bytes()), numel(p.result), 4096)}};
    auto compute = [p, v, accumulate]() {
        std::vector<double> r = read_doubles(p.self);
        const std::vector<double> given = read_doubles(v, p.result);
        const std::vector<int64_t> at = positions(p);
        for (size_t e = 0; e < at.size(); ++e) {
            if (at[e] < 0) continue;
            double& target = r[static_cast<size_t>(at[e])];
            target = accumulate ? target + given[e] : given[e];
        }
        write_doubles(p.self, r);
    };
    return hand_over(
        std::make_unique<OpExecutor>(api, 0, compute, std::move(launches), std::vector<void*>{x.data, v.data}),
        workspaceSize, executor);
}

}  // namespace

}  // namespace npusim::opapi

NPUSIM_C_EXPORT aclnnStatus aclnnIndexGetWorkspaceSize(const aclTensor* self, const aclTensorList* indices,
                                                       aclTensor* out, uint64_t* workspaceSize,
                                                       aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnIndexGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare_index(self, indices, out, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnIndex)

NPUSIM_C_EXPORT aclnnStatus aclnnIndexPutImplGetWorkspaceSize(aclTensor* selfRef, const aclTensorList* indices,
                                                              const aclTensor* values, const bool accumulate,
                                                              const bool unsafe, uint64_t* workspaceSize,
                                                              aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnIndexPutImplGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare_index_put(selfRef, indices, values, accumulate, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnIndexPutImpl)
