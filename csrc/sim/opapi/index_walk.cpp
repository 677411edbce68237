#include "opapi/index_walk.h"

namespace npusim::opapi {

ReductionLayout reduction_layout(const Dims& dims, const std::vector<bool>& reduced) {
    ReductionLayout layout;
    Dims out_strides(dims.size(), 0);  // a reduced dimension moves to no other output
    for (size_t i = dims.size(); i-- > 0;) {
        if (reduced[i]) continue;
        out_strides[i] = layout.outputs;
        layout.outputs *= dims[i];
    }
    const int64_t total = numel(dims);
    layout.group = layout.outputs > 0 ? total / layout.outputs : 0;
    layout.slot.resize(static_cast<size_t>(total));
    walk_indices(dims, [&](int64_t e, const Dims& index) {
        int64_t pos = 0;
        for (size_t i = 0; i < index.size(); ++i) pos += index[i] * out_strides[i];
        layout.slot[static_cast<size_t>(e)] = pos;
    });
    return layout;
}

ReductionWalk reduction_walk(const Dims& dims, const std::vector<bool>& reduced) {
    ReductionWalk w;
    w.out_strides.assign(dims.size(), 0);
    for (size_t i = dims.size(); i-- > 0;) {
        if (reduced[i]) continue;
        w.out_strides[i] = w.outputs;
        w.outputs *= dims[i];
        if (dims[i] > 1 && (w.split < 0 || dims[i] > dims[size_t(w.split)])) w.split = static_cast<int>(i);
    }
    return w;
}

}  // namespace npusim::opapi
