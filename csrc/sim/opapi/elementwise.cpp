#include "opapi/elementwise.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <vector>

#include "nnopbase/dtype.h"
#include "nnopbase/tensor.h"
#include "opapi/checks.h"
#include "opapi/math_library.h"
#include "opapi/op_launcher.h"

namespace npusim::opapi {

namespace {

constexpr size_t kMaxInputs = 4;

// 0 bool, 1 integer, 2 float.
int category(aclDataType t) {
    if (t == ACL_BOOL) return 0;
    return nn::is_floating(t) ? 2 : 1;
}

bool is_unsigned(aclDataType t) { return t == ACL_UINT8 || t == ACL_UINT16 || t == ACL_UINT32 || t == ACL_UINT64; }

// An input after the first phase: a tensor view (Tensor, TensorValue) or a number.
struct Bound {
    Operand::Kind kind = Operand::Kind::Constant;
    TensorView view;
    double value = 0;
};

// What the second phase computes for one result: inputs, output and the working type.
struct Item {
    std::array<Bound, kMaxInputs> in{};
    size_t count = 0;
    TensorView out;
    Dims shape;
    aclDataType work = ACL_FLOAT;
};

double round_value(aclDataType work, double v) {
    switch (work) {
        case ACL_FLOAT: return static_cast<double>(static_cast<float>(v));
        case ACL_FLOAT16:
        case ACL_BF16: return static_cast<double>(round_to(work, static_cast<float>(v)));
        case ACL_DOUBLE: return v;
        case ACL_BOOL: return v != 0.0 ? 1.0 : 0.0;
        default: return std::isfinite(v) ? std::trunc(v) : 0.0;
    }
}

// The common case: float32 work, a contiguous float32 output and float32 tensor inputs, read in
// place when contiguous of the result's shape (each either the output itself or apart from it),
// otherwise gathered (broadcast) into float32 first. The numbers
// are those of the general path (float32 inputs are already rounded to the working type; the
// result is rounded once to float32); false when the item does not qualify.
bool compute_float_item(ElementFn fn, const Item& item) {
    const TensorView& out = item.out;
    if (item.work != ACL_FLOAT || out.dtype != ACL_FLOAT || out.data == nullptr || !is_contiguous(out)) return false;
    const int64_t n = numel(item.shape);
    float* dst = static_cast<float*>(out.data) + out.offset;
    std::array<const float*, kMaxInputs> src{};
    std::array<std::vector<float>, kMaxInputs> gathered;  // strided or broadcast inputs, read first
    std::array<double, kMaxInputs> fixed{};
    for (size_t k = 0; k < item.count; ++k) {
        const Bound& b = item.in[k];
        if (b.kind == Operand::Kind::Tensor || b.kind == Operand::Kind::List) {
            if (b.view.dtype != ACL_FLOAT || b.view.data == nullptr) return false;
            if (b.view.dims != item.shape || !is_contiguous(b.view)) {
                gathered[k] = read_floats(b.view, item.shape);
                src[k] = gathered[k].data();
                continue;
            }
            src[k] = static_cast<const float*>(b.view.data) + b.view.offset;
            if (src[k] != dst && src[k] < dst + n && dst < src[k] + n) return false;  // a shifted alias
        } else if (b.kind == Operand::Kind::TensorValue) {
            const std::vector<double> v = read_doubles(b.view);
            fixed[k] = v.empty() ? 0.0 : v.front();
        } else {
            fixed[k] = b.value;
        }
    }
    if (std::all_of(src.begin(), src.end(), [](const float* p) { return p == nullptr; })) {  // a fill
        std::fill(dst, dst + n, static_cast<float>(fn(fixed[0], fixed[1], fixed[2], fixed[3])));
        return true;
    }
    auto at = [&](size_t k, int64_t i) { return src[k] != nullptr ? static_cast<double>(src[k][i]) : fixed[k]; };
    auto range = [&](int64_t first, int64_t last) {
        for (int64_t i = first; i < last; ++i) dst[i] = static_cast<float>(fn(at(0, i), at(1, i), at(2, i), at(3, i)));
    };
    // Large items split across torch's thread count, as CPU torch splits its element-wise loops.
    if (n >= kParallelFrom) {
        parallel_parts(n, range);
    } else {
        range(0, n);
    }
    return true;
}

void compute_item(ElementFn fn, const Item& item) {
    if (compute_float_item(fn, item)) return;
    const size_t n = static_cast<size_t>(numel(item.shape));
    std::array<std::vector<double>, kMaxInputs> data;
    std::array<double, kMaxInputs> fixed{};
    for (size_t k = 0; k < item.count; ++k) {
        const Bound& b = item.in[k];
        if (b.kind == Operand::Kind::Tensor || b.kind == Operand::Kind::List) {
            data[k] = read_doubles(b.view, item.shape);
            for (double& v : data[k]) v = round_value(item.work, v);
        } else if (b.kind == Operand::Kind::TensorValue) {
            const std::vector<double> v = read_doubles(b.view);
            fixed[k] = v.empty() ? 0.0 : v.front();
        } else {
            fixed[k] = b.value;
        }
    }
    auto at = [&](size_t k, size_t i) { return data[k].empty() ? fixed[k] : data[k][i]; };
    std::vector<double> r(n);
    for (size_t i = 0; i < n; ++i) r[i] = round_value(item.work, fn(at(0, i), at(1, i), at(2, i), at(3, i)));
    write_doubles(item.out, r);
}

// The working type of an item: its tensors' promoted type, lifted by promoting scalars.
aclDataType working_type(const ElementwiseOp& op, const Item& item,
                         const std::array<aclDataType, kMaxInputs>& scalar_types) {
    bool any = false;
    aclDataType work = item.out.dtype;
    for (size_t k = 0; k < item.count; ++k) {
        const Bound& b = item.in[k];
        if (b.kind != Operand::Kind::Tensor && b.kind != Operand::Kind::List) continue;
        work = any ? promote_types(work, b.view.dtype) : b.view.dtype;
        any = true;
    }
    if (any) {
        for (size_t k = 0; k < item.count; ++k) {
            const aclDataType s = scalar_types[k];
            if (s == ACL_DT_UNDEFINED || category(s) <= category(work)) continue;
            work = category(s) == 2 ? ACL_FLOAT : ACL_INT64;
        }
    }
    if (op.promotion == Promotion::ToFloat && category(work) < 2) work = ACL_FLOAT;
    return work;
}

aclnnStatus check_dtype(const ElementwiseOp& op, const char* what, aclDataType t) {
    if (op.dtypes.has(t)) return ACLNN_SUCCESS;
    return invalid(op.api, "%s has data type %s; %s expected", what, nn::dtype_name(t), op.dtypes.text().c_str());
}

// Checks an item's tensors and out, and finds its shape and working type.
aclnnStatus finish_item(const ElementwiseOp& op, const std::array<const char*, kMaxInputs>& names,
                        const std::array<aclDataType, kMaxInputs>& scalar_types, bool broadcast, Item& item) {
    bool first = true;
    for (size_t k = 0; k < item.count; ++k) {
        const Bound& b = item.in[k];
        if (b.kind != Operand::Kind::Tensor && b.kind != Operand::Kind::List) continue;
        OPAPI_CHECK(check_dtype(op, names[k], b.view.dtype));
        OPAPI_CHECK(check_rank(op.api, names[k], b.view.dims, 0, nn::kMaxDims));
        if (first) {
            item.shape = b.view.dims;
            first = false;
        } else if (!broadcast) {
            OPAPI_CHECK(check_same_dims(op.api, names[k], b.view.dims, item.shape));
        } else {
            Dims shape;
            if (!broadcast_dims(item.shape, b.view.dims, shape)) {
                return invalid(op.api, "%s %s does not broadcast with %s", names[k], dims_text(b.view.dims).c_str(),
                               dims_text(item.shape).c_str());
            }
            item.shape = shape;
        }
    }
    OPAPI_CHECK(check_dtype(op, "out", item.out.dtype));
    OPAPI_CHECK(check_rank(op.api, "out", item.out.dims, 0, nn::kMaxDims));
    if (first) item.shape = item.out.dims;  // no tensor inputs: a fill of the output
    OPAPI_CHECK(check_same_dims(op.api, "out", item.out.dims, item.shape));
    item.work = working_type(op, item, scalar_types);
    if (op.promotion != Promotion::Predicate && category(item.work) > category(item.out.dtype)) {
        return invalid(op.api, "the result type %s cannot be stored in out of type %s", nn::dtype_name(item.work),
                       nn::dtype_name(item.out.dtype));
    }
    return ACLNN_SUCCESS;
}

// Binds the non-list inputs (the same for every item) and records each input's name and, for a
// promoting scalar, its type.
aclnnStatus bind_common(const ElementwiseOp& op, std::initializer_list<Operand> inputs, Item& proto,
                        std::array<const char*, kMaxInputs>& names, std::array<aclDataType, kMaxInputs>& scalar_types) {
    if (inputs.size() > kMaxInputs) return invalid(op.api, "%zu inputs; at most 4 expected", inputs.size());
    proto.count = inputs.size();
    size_t k = 0;
    for (const Operand& o : inputs) {
        names[k] = o.name;
        scalar_types[k] = ACL_DT_UNDEFINED;
        Bound& b = proto.in[k];
        b.kind = o.kind;
        switch (o.kind) {
            case Operand::Kind::Tensor:
            case Operand::Kind::TensorValue: {
                const auto* t = static_cast<const aclTensor*>(o.handle);
                OPAPI_CHECK(check_tensor(op.api, o.name, t));
                b.view = view_of(t);
                if (o.kind == Operand::Kind::TensorValue) {
                    if (b.view.numel() != 1) {
                        return invalid(op.api, "%s has %lld elements; 1 expected", o.name,
                                       static_cast<long long>(b.view.numel()));
                    }
                    if (o.promotes) scalar_types[k] = b.view.dtype;
                }
                break;
            }
            case Operand::Kind::List: {
                const auto* l = static_cast<const aclTensorList*>(o.handle);
                if (l->magic != nn::kArrayMagic) return invalid(op.api, "%s is not a live aclTensorList", o.name);
                break;
            }
            case Operand::Kind::Scalar: {
                const auto* s = static_cast<const aclScalar*>(o.handle);
                if (!nn::valid(s)) return invalid(op.api, "%s is not a live aclScalar", o.name);
                b.value = s->value;
                if (o.promotes) scalar_types[k] = s->dtype;
                break;
            }
            case Operand::Kind::Constant: b.value = o.constant; break;
        }
        ++k;
    }
    return ACLNN_SUCCESS;
}

aclnnStatus check_nulls(const ElementwiseOp& op, std::initializer_list<Operand> inputs, const void* out,
                        uint64_t* workspaceSize, aclOpExecutor** executor) {
    for (const Operand& o : inputs) {
        if (o.kind != Operand::Kind::Constant) OPAPI_CHECK(check_not_null(op.api, {o.handle}));
    }
    return check_not_null(op.api, {out, workspaceSize, executor});
}

LaunchCost cast_cost(const TensorView& in) {
    return vector_cost(double(in.numel()), double(in.bytes() + in.numel() * 4), in.numel(), 4096);
}

}  // namespace

double lerp(double self, double end, double weight) {
    return std::abs(weight) < 0.5 ? self + weight * (end - self) : end - (end - self) * (1.0 - weight);
}

aclDataType promote_types(aclDataType a, aclDataType b) {
    if (a == b) return a;
    const int ca = category(a), cb = category(b);
    if (ca != cb) return ca > cb ? a : b;
    if (ca == 2) return a == ACL_DOUBLE || b == ACL_DOUBLE ? ACL_DOUBLE : ACL_FLOAT;
    const size_t sa = nn::dtype_size(a), sb = nn::dtype_size(b);
    if (is_unsigned(a) == is_unsigned(b)) return sa >= sb ? a : b;
    // Signed with unsigned: the signed type when it is wider, otherwise the next wider signed type.
    const aclDataType s = is_unsigned(a) ? b : a, u = is_unsigned(a) ? a : b;
    if (nn::dtype_size(s) > nn::dtype_size(u)) return s;
    switch (nn::dtype_size(u)) {
        case 1: return ACL_INT16;
        case 2: return ACL_INT32;
        default: return ACL_INT64;
    }
}

aclnnStatus prepare_elementwise(const ElementwiseOp& op, std::initializer_list<Operand> inputs, const aclTensor* out,
                                uint64_t* workspaceSize, aclOpExecutor** executor, std::optional<KernelChoice> kernel) {
    OPAPI_CHECK(check_nulls(op, inputs, out, workspaceSize, executor));
    Item item;
    std::array<const char*, kMaxInputs> names{};
    std::array<aclDataType, kMaxInputs> scalar_types{};
    OPAPI_CHECK(bind_common(op, inputs, item, names, scalar_types));
    OPAPI_CHECK(check_tensor(op.api, "out", out));
    item.out = view_of(out);
    OPAPI_CHECK(finish_item(op, names, scalar_types, true, item));

    const KernelChoice choice = kernel.value_or(op.kernel);
    const int64_t n = numel(item.shape);
    const double elem = static_cast<double>(nn::dtype_size(item.work));
    std::vector<KernelLaunch> launches;
    std::vector<void*> args;
    double read = 0;
    for (size_t k = 0; k < item.count; ++k) {
        const Bound& b = item.in[k];
        if (b.kind != Operand::Kind::Tensor) continue;
        if (b.view.dtype != item.work) launches.push_back({Kernel::Cast, item.work, cast_cost(b.view)});
        read += double(b.view.numel());
        args.push_back(b.view.data);
    }
    launches.push_back(
        {choice.kernel, item.work, vector_cost(choice.flops * double(n), elem * (read + double(n)), n, 4096)});
    if (item.out.dtype != item.work && op.promotion != Promotion::Predicate) {  // a predicate writes out's type
        launches.push_back({Kernel::Cast, item.out.dtype,
                            vector_cost(double(n), elem * double(n) + double(item.out.bytes()), n, 4096)});
    }
    args.push_back(item.out.data);
    const ElementFn fn = op.fn;
    auto compute = [fn, item]() { compute_item(fn, item); };
    return hand_over(std::make_unique<OpExecutor>(op.api, 0, compute, std::move(launches), std::move(args)),
                     workspaceSize, executor);
}

aclnnStatus prepare_foreach(const ElementwiseOp& op, std::initializer_list<Operand> inputs, const aclTensorList* out,
                            uint64_t* workspaceSize, aclOpExecutor** executor) {
    OPAPI_CHECK(check_nulls(op, inputs, out, workspaceSize, executor));
    Item proto;
    std::array<const char*, kMaxInputs> names{};
    std::array<aclDataType, kMaxInputs> scalar_types{};
    OPAPI_CHECK(bind_common(op, inputs, proto, names, scalar_types));
    if (out->magic != nn::kArrayMagic) return invalid(op.api, "out is not a live aclTensorList");
    // Every list has as many tensors as the first one.
    std::array<const aclTensorList*, kMaxInputs> lists{};
    std::optional<size_t> length;
    size_t k = 0;
    for (const Operand& o : inputs) {
        if (o.kind == Operand::Kind::List) {
            lists[k] = static_cast<const aclTensorList*>(o.handle);
            const size_t n = lists[k]->tensors.size();
            if (length && n != *length) return invalid(op.api, "%s has %zu tensors; %zu expected", o.name, n, *length);
            length = n;
        }
        ++k;
    }
    const size_t size = length.value_or(out->tensors.size());
    if (out->tensors.size() != size) {
        return invalid(op.api, "out has %zu tensors; %zu expected", out->tensors.size(), size);
    }
    std::vector<Item> items;
    items.reserve(size);
    double flops = 0, bytes = 0;
    int64_t elements = 0;
    std::vector<void*> args;
    for (size_t i = 0; i < size; ++i) {
        Item item = proto;
        for (size_t j = 0; j < item.count; ++j) {
            if (lists[j] == nullptr) continue;
            OPAPI_CHECK(check_tensor(op.api, names[j], lists[j]->tensors[i]));
            item.in[j].view = view_of(lists[j]->tensors[i]);
            bytes += double(item.in[j].view.bytes());
            args.push_back(item.in[j].view.data);
        }
        OPAPI_CHECK(check_tensor(op.api, "out", out->tensors[i]));
        item.out = view_of(out->tensors[i]);
        OPAPI_CHECK(finish_item(op, names, scalar_types, false, item));
        const int64_t n = numel(item.shape);
        flops += op.kernel.flops * double(n);
        bytes += double(item.out.bytes());
        elements += n;
        args.push_back(item.out.data);
        items.push_back(std::move(item));
    }
    const aclDataType dtype = items.empty() ? ACL_FLOAT : items.front().out.dtype;
    std::vector<KernelLaunch> launches{{op.kernel.kernel, dtype, vector_cost(flops, bytes, elements, 4096)}};
    const ElementFn fn = op.fn;
    auto compute = [fn, items = std::move(items)]() {
        for (const Item& item : items) compute_item(fn, item);
    };
    return hand_over(std::make_unique<OpExecutor>(op.api, 0, compute, std::move(launches), std::move(args)),
                     workspaceSize, executor);
}

}  // namespace npusim::opapi
