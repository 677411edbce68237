// The index map of padding, shared by the padding operators (op_pad.cpp) and the gradient of
// padding (aclop_pad_grad.cpp): which input element a padded position copies.
#pragma once

#include <algorithm>
#include <cstdint>

namespace npusim::opapi {

enum class PadMode : uint8_t { Constant, Reflect, Replicate };

// The input index along a dimension of size `size` for padded index i (already shifted by the
// amount before); -1 outside the input (constant mode). Reflect: -i maps to i, size - 1 + i to
// size - 1 - i; replicate: indices outside clamp to the edge.
inline int64_t pad_source_index(PadMode mode, int64_t i, int64_t size) {
    switch (mode) {
        case PadMode::Reflect:
            if (i < 0) return -i;
            return i >= size ? 2 * (size - 1) - i : i;
        case PadMode::Replicate: return std::clamp<int64_t>(i, 0, size - 1);
        case PadMode::Constant: break;
    }
    return i >= 0 && i < size ? i : -1;
}

}  // namespace npusim::opapi
