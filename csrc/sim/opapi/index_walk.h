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

// The same reduction walked in place over a view: the row-major positions of the outputs among the
// kept dimensions (`strides`, 0 for a reduced dimension) and their count.
struct ReductionWalk {
    Dims out_strides;
    int64_t outputs = 1;
    int split = -1;  // the kept dimension whose indices parts of the walk may divide (-1: none)
};
ReductionWalk reduction_walk(const Dims& dims, const std::vector<bool>& reduced);

// Calls run(element offset, element stride, output slot, output stride, count) for each stretch of the
// last dimension of the view (dims, strides, offset), in row-major order, over the indices [first,
// last) of dimension w.split (everything when w.split is -1). Each output's elements are visited in
// the row-major order reduction_layout gives them, whichever part of the split walks them.
template <typename Run>
void walk_reduction_runs(const Dims& dims, const Dims& strides, int64_t offset, const ReductionWalk& w, int64_t first,
                         int64_t last, Run&& run) {
    const size_t rank = dims.size();
    if (rank == 0) {
        run(offset, int64_t{0}, int64_t{0}, int64_t{0}, int64_t{1});
        return;
    }
    Dims lo(rank, 0), hi = dims;
    if (w.split >= 0) lo[size_t(w.split)] = first, hi[size_t(w.split)] = last;
    int64_t runs = 1;
    for (size_t i = 0; i + 1 < rank; ++i) runs *= hi[i] - lo[i];
    const int64_t count = hi[rank - 1] - lo[rank - 1];
    if (runs <= 0 || count <= 0) return;
    Dims index = lo;
    int64_t pos = offset, slot = 0;
    for (size_t i = 0; i < rank; ++i) pos += lo[i] * strides[i], slot += lo[i] * w.out_strides[i];
    for (int64_t r = 0; r < runs; ++r) {
        run(pos, strides[rank - 1], slot, w.out_strides[rank - 1], count);
        for (size_t d = rank - 1; d-- > 0;) {  // carry into the outer dimensions
            pos += strides[d], slot += w.out_strides[d];
            if (++index[d] < hi[d]) break;
            pos -= strides[d] * (hi[d] - lo[d]), slot -= w.out_strides[d] * (hi[d] - lo[d]);
            index[d] = lo[d];
        }
    }
}

}  // namespace npusim::opapi
