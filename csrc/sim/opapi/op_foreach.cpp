// aclnnForeachAddList (alpha a one-element tensor) and aclnnForeachAddListV2 (alpha an aclScalar):
// out[i] = x1[i] + alpha * x2[i] for every pair of equally shaped tensors of the lists, in the
// working type of each pair (torch's _foreach_add, the multi-tensor step of its optimisers). One
// ForeachAddList kernel for the whole list, as CANN's multi-tensor kernels do.
#include <memory>

#include "aclnnop/aclnn_foreach_add_list.h"
#include "core/fault_plan.h"
#include "nnopbase/dtype.h"
#include "nnopbase/tensor.h"
#include "opapi/checks.h"
#include "opapi/op_launcher.h"

namespace npusim::opapi {

namespace {

struct Triple {
    TensorView a, b, y;
};

aclnnStatus check_list(const char* api, const char* what, const aclTensorList* list, size_t size) {
    if (list->magic != nn::kArrayMagic) return invalid(api, "%s is not a live aclTensorList", what);
    if (list->tensors.size() != size) {
        return invalid(api, "%s has %zu tensors; %zu expected", what, list->tensors.size(), size);
    }
    for (const aclTensor* t : list->tensors) OPAPI_CHECK(check_tensor(api, what, t));
    return ACLNN_SUCCESS;
}

// alpha_tensor != nullptr: alpha is read from that tensor's first element when the kernel runs.
aclnnStatus prepare(const char* api, const aclTensorList* x1, const aclTensorList* x2,
                    const aclTensor* alpha_tensor, const aclScalar* alpha_scalar, const aclTensorList* out,
                    uint64_t* workspaceSize, aclOpExecutor** executor) {
    OPAPI_CHECK(check_not_null(api, {x1, x2, out, workspaceSize, executor}));
    const size_t size = x1->magic == nn::kArrayMagic ? x1->tensors.size() : 0;
    OPAPI_CHECK(check_list(api, "x1", x1, size));
    OPAPI_CHECK(check_list(api, "x2", x2, size));
    OPAPI_CHECK(check_list(api, "out", out, size));
    TensorView alpha_view;
    double alpha_value = 1.0;
    if (alpha_tensor != nullptr) {
        OPAPI_CHECK(check_tensor(api, "alpha", alpha_tensor));
        alpha_view = view_of(alpha_tensor);
        if (alpha_view.numel() != 1) return invalid(api, "alpha has %lld elements; 1 expected", (long long)alpha_view.numel());
    } else {
        if (!nn::valid(alpha_scalar)) return invalid(api, "alpha is not a live aclScalar");
        alpha_value = alpha_scalar->value;
    }
    std::vector<Triple> items;
    items.reserve(size);
    double flops = 0, bytes = 0;
    int64_t elements = 0;
    aclDataType dtype = ACL_FLOAT;
    for (size_t i = 0; i < size; ++i) {
        Triple t{view_of(x1->tensors[i]), view_of(x2->tensors[i]), view_of(out->tensors[i])};
        OPAPI_CHECK(check_float_type(api, "x1", t.a.dtype));
        OPAPI_CHECK(check_float_type(api, "x2", t.b.dtype));
        OPAPI_CHECK(check_float_type(api, "out", t.y.dtype));
        OPAPI_CHECK(check_same_dims(api, "x2", t.b.dims, t.a.dims));
        OPAPI_CHECK(check_same_dims(api, "out", t.y.dims, t.a.dims));
        flops += 2.0 * double(t.a.numel());
        bytes += double(t.a.bytes() + t.b.bytes() + t.y.bytes());
        elements += t.a.numel();
        if (i == 0) dtype = t.y.dtype;
        items.push_back(std::move(t));
    }
    std::vector<KernelLaunch> launches{{Kernel::ForeachAddList, dtype, vector_cost(flops, bytes, elements, 4096)}};
    std::vector<void*> args;
    for (const Triple& t : items) args.insert(args.end(), {t.a.data, t.b.data, t.y.data});
    const bool from_tensor = alpha_tensor != nullptr;
    auto compute = [items, alpha_view, alpha_value, from_tensor]() {
        const double alpha = from_tensor ? read_doubles(alpha_view).front() : alpha_value;
        for (const Triple& t : items) {
            const aclDataType work = promote_float(t.a.dtype, t.b.dtype);
            const std::vector<float> p = read_floats(t.a), q = read_floats(t.b);
            std::vector<float> r(p.size());
            const float scale = static_cast<float>(alpha);
            for (size_t i = 0; i < r.size(); ++i) {
                r[i] = round_to(work, round_to(work, p[i]) + scale * round_to(work, q[i]));
            }
            write_floats(t.y, r);
        }
    };
    return hand_over(std::make_unique<OpExecutor>(api, 0, compute, std::move(launches), std::move(args)),
                     workspaceSize, executor);
}

}  // namespace

}  // namespace npusim::opapi

NPUSIM_C_EXPORT aclnnStatus aclnnForeachAddListGetWorkspaceSize(const aclTensorList* x1, const aclTensorList* x2,
                                                                const aclTensor* alpha, aclTensorList* out,
                                                                uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnForeachAddListGetWorkspaceSize", aclnnStatus);
    if (alpha == nullptr) return npusim::opapi::check_not_null("aclnnForeachAddList", {alpha});
    return npusim::opapi::prepare("aclnnForeachAddList", x1, x2, alpha, nullptr, out, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnForeachAddList)

NPUSIM_C_EXPORT aclnnStatus aclnnForeachAddListV2GetWorkspaceSize(const aclTensorList* x1, const aclTensorList* x2,
                                                                  const aclScalar* alpha, const aclTensorList* out,
                                                                  uint64_t* workspaceSize, aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnForeachAddListV2GetWorkspaceSize", aclnnStatus);
    if (alpha == nullptr) return npusim::opapi::check_not_null("aclnnForeachAddListV2", {alpha});
    return npusim::opapi::prepare("aclnnForeachAddListV2", x1, x2, nullptr, alpha, out, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnForeachAddListV2)
