// The row-major index walk shared by the operators that compute element by element on the host:
// the multi-dimensional index of each element of a shape in row-major order, and, for a reduction,
// the output each input element contributes to.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "opapi/tensor_io.h"

namespace npusim::opapi {

// Advances `index` to the next row-major index of `dims` (the last dimension fastest); false after
// the last one, with `index` back at all zeros.
inline bool next_index(Dims& index, const Dims& dims) {
    for (size_t i = index.size(); i-- > 0;) {
        if (++index[i] < dims[i]) return true;
        index[i] = 0;
    }
    return false;
}

// Calls fn(element, index) for every element of `dims` in row-major order.
template <typename Fn>
void walk_indices(const Dims& dims, Fn&& fn) {
    const int64_t total = numel(dims);
    Dims index(dims.size(), 0);
    for (int64_t e = 0; e < total; ++e) {
        fn(e, static_cast<const Dims&>(index));
        next_index(index, dims);
    }
}

// The row-major strides (in elements) of a contiguous tensor of `dims`.
inline Dims row_major_strides(const Dims& dims) {
    Dims strides(dims.size(), 1);
    for (size_t i = dims.size(); i-- > 1;) strides[i - 1] = strides[i] * dims[i];
    return strides;
}

// A reduction of the dimensions flagged in `reduced`: for each input element (row-major) the
// row-major position of its output among the kept dimensions.
struct ReductionLayout {
    std::vector<int64_t> slot;  // per input element
    int64_t outputs = 1;        // the number of outputs (the product of the kept dimensions)
    int64_t group = 0;          // the elements reduced into each output
};
ReductionLayout reduction_layout(const Dims& dims, const std::vector<bool>& reduced);

}  // namespace npusim::opapi
