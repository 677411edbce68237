// Reading and writing aclnn tensors on the host: device memory is host memory in
// the simulator, so an operator gathers its inputs through their views (dims,
// strides, offset) into contiguous row-major buffers, computes, and scatters the
// result through the output's view, rounding to the output's data type.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <vector>

#include "aclnn/acl_meta.h"

namespace npusim::opapi {

using Dims = std::vector<int64_t>;

// A copy of a tensor's view, taken in the first phase (the caller may destroy the
// aclTensor before the second phase; the memory it points to must stay valid).
struct TensorView {
    aclDataType dtype = ACL_FLOAT;
    Dims dims;
    Dims strides;
    int64_t offset = 0;
    void* data = nullptr;

    int64_t numel() const;
    int64_t bytes() const;  // numel * element size: the bytes a kernel moves for it
    size_t rank() const { return dims.size(); }
};

TensorView view_of(const aclTensor* tensor);
// Sets the view of `out` to `dims` (contiguous, row-major): the shape the caller reads back with
// aclGetViewShape after an operator whose output shape depends on the data.
void set_result_view(aclTensor* out, const Dims& dims);
// Row-major contiguous (dimensions of size 1 take any stride).
bool is_contiguous(const TensorView& v);
int64_t numel(const Dims& dims);

// Elements in row-major order of the view's dims, as float (or double, exact for integers).
std::vector<float> read_floats(const TensorView& v);
std::vector<double> read_doubles(const TensorView& v);
// The same, broadcast to `dims` (v.dims must be broadcastable to dims).
std::vector<float> read_floats(const TensorView& v, const Dims& dims);
std::vector<double> read_doubles(const TensorView& v, const Dims& dims);

// Stores `values` (row-major, numel(v.dims) of them) through the view, rounding to v.dtype.
void write_floats(const TensorView& v, const std::vector<float>& values);
void write_doubles(const TensorView& v, const std::vector<double>& values);

// A view's elements in row-major order as float32: the view's own memory when it is a contiguous
// float32 tensor, otherwise a copy read once (read_floats).
class FloatInput {
public:
    explicit FloatInput(const TensorView& v);
    const float* data() const { return data_; }

private:
    std::vector<float> copy_;
    const float* data_ = nullptr;
};

// Where an operator writes a view's elements in row-major order as float32: the view's own memory
// when it is a contiguous float32 tensor that no input reaches, otherwise a buffer that commit()
// stores through the view (write_floats, rounding to its type).
class FloatOutput {
public:
    FloatOutput(const TensorView& v, std::initializer_list<const TensorView*> inputs);
    float* data() { return data_; }
    void commit() const;

private:
    TensorView view_;
    std::vector<float> buffer_;
    float* data_ = nullptr;
};

// Copies src, broadcast to dst.dims, into dst element by element when both have one data type
// (bit-exact, any element size); false (nothing copied) for differing types or views that overlap
// other than exactly.
bool copy_same_type(const TensorView& src, const TensorView& dst);
// Whether the bytes two views reach overlap.
bool views_overlap(const TensorView& a, const TensorView& b);

// `value` rounded to the precision of `dtype` (float32, float16, bfloat16; others unchanged).
float round_to(aclDataType dtype, float value);

}  // namespace npusim::opapi
