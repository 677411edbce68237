#include "opapi/tensor_io.h"

#include <algorithm>
#include <cstring>
#include <utility>

#include "nnopbase/dtype.h"
#include "nnopbase/tensor.h"

namespace npusim::opapi {

namespace {

bool contiguous(const Dims& dims, const Dims& strides) {
    int64_t expected = 1;
    for (size_t i = dims.size(); i-- > 0;) {
        if (dims[i] != 1 && strides[i] != expected) return false;
        expected *= dims[i];
    }
    return true;
}

// Strides of `v` seen as a tensor of shape `dims` (broadcast dimensions get stride 0).
Dims broadcast_strides(const TensorView& v, const Dims& dims) {
    Dims strides(dims.size(), 0);
    const size_t lead = dims.size() - v.dims.size();
    for (size_t i = 0; i < v.dims.size(); ++i) {
        strides[lead + i] = v.dims[i] == 1 ? 0 : v.strides[i];
    }
    return strides;
}

// Calls fn(index, element offset, element stride, count) for every stretch of the last dimension of
// `dims` in row-major order: elements index .. index + count - 1 at offset + j * stride.
template <typename Fn>
void for_each_run(const Dims& dims, const Dims& strides, int64_t offset, Fn&& fn) {
    const int64_t total = numel(dims);
    if (total == 0) return;
    const size_t rank = dims.size();
    if (rank == 0) {
        fn(int64_t{0}, offset, int64_t{0}, int64_t{1});
        return;
    }
    std::vector<int64_t> index(rank, 0);
    int64_t pos = offset;
    const int64_t inner = dims[rank - 1];
    const int64_t inner_stride = strides[rank - 1];
    for (int64_t i = 0; i < total; i += inner) {
        fn(i, pos, inner_stride, inner);
        // Carry into the outer dimensions.
        size_t d = rank - 1;
        while (d-- > 0) {
            pos += strides[d];
            if (++index[d] < dims[d]) break;
            pos -= strides[d] * dims[d];
            index[d] = 0;
        }
    }
}

template <typename T, typename Load>
std::vector<T> gather(const TensorView& v, const Dims& dims, const Dims& strides, Load load) {
    std::vector<T> out(static_cast<size_t>(numel(dims)));
    const size_t esize = nn::dtype_size(v.dtype);
    const auto* base = static_cast<const unsigned char*>(v.data);
    if (base == nullptr) return out;
    if (v.dtype == ACL_FLOAT) {  // the common type read directly (the values load() gives)
        const auto* src = static_cast<const float*>(v.data);
        for_each_run(dims, strides, v.offset, [&](int64_t i, int64_t pos, int64_t stride, int64_t count) {
            T* o = out.data() + i;
            if (stride == 0) {
                std::fill(o, o + count, static_cast<T>(src[pos]));
            } else {
                for (int64_t j = 0; j < count; ++j) o[j] = static_cast<T>(src[pos + j * stride]);
            }
        });
        return out;
    }
    for_each_run(dims, strides, v.offset, [&](int64_t i, int64_t pos, int64_t stride, int64_t count) {
        for (int64_t j = 0; j < count; ++j) {
            out[static_cast<size_t>(i + j)] = load(base + (pos + j * stride) * static_cast<int64_t>(esize), v.dtype);
        }
    });
    return out;
}

template <typename T, typename Store>
void scatter(const TensorView& v, const std::vector<T>& values, Store store) {
    const size_t esize = nn::dtype_size(v.dtype);
    auto* base = static_cast<unsigned char*>(v.data);
    if (base == nullptr) return;
    if (v.dtype == ACL_FLOAT) {  // the common type stored directly (rounded as store() rounds)
        auto* dst = static_cast<float*>(v.data);
        for_each_run(v.dims, v.strides, v.offset, [&](int64_t i, int64_t pos, int64_t stride, int64_t count) {
            const T* in = values.data() + i;
            for (int64_t j = 0; j < count; ++j) dst[pos + j * stride] = static_cast<float>(in[j]);
        });
        return;
    }
    for_each_run(v.dims, v.strides, v.offset, [&](int64_t i, int64_t pos, int64_t stride, int64_t count) {
        for (int64_t j = 0; j < count; ++j) {
            store(base + (pos + j * stride) * static_cast<int64_t>(esize), v.dtype, values[static_cast<size_t>(i + j)]);
        }
    });
}

// [lowest, highest) byte addresses a view reaches.
std::pair<const char*, const char*> byte_span(const TensorView& v) {
    const auto* base = static_cast<const char*>(v.data);
    int64_t lo = v.offset, hi = v.offset;
    for (size_t i = 0; i < v.rank(); ++i) {
        if (v.dims[i] == 0) return {base, base};
        const int64_t reach = (v.dims[i] - 1) * v.strides[i];
        (reach < 0 ? lo : hi) += reach;
    }
    const auto esize = static_cast<int64_t>(nn::dtype_size(v.dtype));
    return {base + lo * esize, base + (hi + 1) * esize};
}

template <typename T>
void copy_typed(const TensorView& src, const Dims& src_strides, const TensorView& dst) {
    const auto* s = static_cast<const T*>(src.data);
    auto* d = static_cast<T*>(dst.data);
    const size_t rank = dst.dims.size();
    const int64_t total = numel(dst.dims);
    if (total == 0) return;
    if (rank == 0) {
        d[dst.offset] = s[src.offset];
        return;
    }
    std::vector<int64_t> index(rank, 0);
    int64_t sp = src.offset, dp = dst.offset;
    const int64_t inner = dst.dims[rank - 1], si = src_strides[rank - 1], di = dst.strides[rank - 1];
    for (int64_t i = 0; i < total; i += inner) {
        if (si == 1 && di == 1) {
            std::memcpy(d + dp, s + sp, size_t(inner) * sizeof(T));
        } else {
            for (int64_t j = 0; j < inner; ++j) d[dp + j * di] = s[sp + j * si];
        }
        size_t k = rank - 1;
        while (k-- > 0) {
            sp += src_strides[k];
            dp += dst.strides[k];
            if (++index[k] < dst.dims[k]) break;
            sp -= src_strides[k] * dst.dims[k];
            dp -= dst.strides[k] * dst.dims[k];
            index[k] = 0;
        }
    }
}

}  // namespace

bool views_overlap(const TensorView& a, const TensorView& b) {
    const auto [al, ah] = byte_span(a);
    const auto [bl, bh] = byte_span(b);
    return al < bh && bl < ah;
}

bool copy_same_type(const TensorView& src, const TensorView& dst) {
    if (src.dtype != dst.dtype || src.data == nullptr || dst.data == nullptr) return false;
    const bool same_view =
        src.data == dst.data && src.offset == dst.offset && src.dims == dst.dims && src.strides == dst.strides;
    if (same_view) return true;
    if (views_overlap(src, dst)) return false;
    const Dims strides = broadcast_strides(src, dst.dims);
    switch (nn::dtype_size(dst.dtype)) {
        case 1: copy_typed<uint8_t>(src, strides, dst); return true;
        case 2: copy_typed<uint16_t>(src, strides, dst); return true;
        case 4: copy_typed<uint32_t>(src, strides, dst); return true;
        case 8: copy_typed<uint64_t>(src, strides, dst); return true;
        default: return false;
    }
}

int64_t numel(const Dims& dims) {
    int64_t n = 1;
    for (int64_t d : dims) n *= d;
    return n;
}

int64_t TensorView::numel() const { return opapi::numel(dims); }
int64_t TensorView::bytes() const { return numel() * static_cast<int64_t>(nn::dtype_size(dtype)); }

bool is_contiguous(const TensorView& v) { return contiguous(v.dims, v.strides); }

void set_result_view(aclTensor* out, const Dims& dims) {
    out->view = dims;
    out->strides.assign(dims.size(), 1);
    for (size_t i = dims.size(); i-- > 1;) out->strides[i - 1] = out->strides[i] * std::max<int64_t>(dims[i], 1);
}

TensorView view_of(const aclTensor* tensor) {
    TensorView v;
    if (tensor == nullptr) return v;
    v.dtype = tensor->dtype;
    v.dims = tensor->view;
    v.strides = tensor->strides;
    v.offset = tensor->offset;
    v.data = tensor->data;
    return v;
}

std::vector<float> read_floats(const TensorView& v) {
    if (v.dtype == ACL_FLOAT && v.data != nullptr && contiguous(v.dims, v.strides)) {
        std::vector<float> out(static_cast<size_t>(v.numel()));
        std::memcpy(out.data(), static_cast<const float*>(v.data) + v.offset, out.size() * sizeof(float));
        return out;
    }
    return gather<float>(v, v.dims, v.strides, nn::load_float);
}

std::vector<double> read_doubles(const TensorView& v) {
    if (v.dtype == ACL_FLOAT && v.data != nullptr && contiguous(v.dims, v.strides)) {
        const float* src = static_cast<const float*>(v.data) + v.offset;
        return std::vector<double>(src, src + v.numel());
    }
    return gather<double>(v, v.dims, v.strides, nn::load_element);
}

std::vector<float> read_floats(const TensorView& v, const Dims& dims) {
    if (dims == v.dims) return read_floats(v);
    return gather<float>(v, dims, broadcast_strides(v, dims), nn::load_float);
}

std::vector<double> read_doubles(const TensorView& v, const Dims& dims) {
    if (dims == v.dims) return read_doubles(v);
    return gather<double>(v, dims, broadcast_strides(v, dims), nn::load_element);
}

void write_floats(const TensorView& v, const std::vector<float>& values) {
    if (v.dtype == ACL_FLOAT && v.data != nullptr && contiguous(v.dims, v.strides)) {
        std::memcpy(static_cast<float*>(v.data) + v.offset, values.data(), values.size() * sizeof(float));
        return;
    }
    scatter(v, values, nn::store_float);
}

void write_doubles(const TensorView& v, const std::vector<double>& values) {
    if (v.dtype == ACL_FLOAT && v.data != nullptr && contiguous(v.dims, v.strides)) {
        float* dst = static_cast<float*>(v.data) + v.offset;
        for (size_t i = 0; i < values.size(); ++i) dst[i] = static_cast<float>(values[i]);
        return;
    }
    scatter(v, values, nn::store_element);
}

FloatInput::FloatInput(const TensorView& v) {
    if (v.dtype == ACL_FLOAT && v.data != nullptr && contiguous(v.dims, v.strides)) {
        data_ = static_cast<const float*>(v.data) + v.offset;
    } else {
        copy_ = read_floats(v);
        data_ = copy_.data();
    }
}

FloatOutput::FloatOutput(const TensorView& v, std::initializer_list<const TensorView*> inputs) : view_(v) {
    bool direct = v.dtype == ACL_FLOAT && v.data != nullptr && contiguous(v.dims, v.strides);
    for (const TensorView* in : inputs) {
        if (direct && in != nullptr && in->data != nullptr && views_overlap(v, *in)) direct = false;
    }
    if (direct) {
        data_ = static_cast<float*>(v.data) + v.offset;
    } else {
        buffer_.resize(static_cast<size_t>(v.numel()));
        data_ = buffer_.data();
    }
}

void FloatOutput::commit() const {
    if (!buffer_.empty()) write_floats(view_, buffer_);
}

float round_to(aclDataType dtype, float value) {
    switch (dtype) {
        case ACL_FLOAT16: return nn::half_to_float(nn::float_to_half(value));
        case ACL_BF16: return nn::bfloat16_to_float(nn::float_to_bfloat16(value));
        default: return value;
    }
}

}  // namespace npusim::opapi
