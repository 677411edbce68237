// The order of torch's sorting operators, shared by sort / topk (op_sort.cpp) and the medians
// (op_median.cpp): ascending, with nan the largest value.
#pragma once

#include <cmath>

namespace npusim::opapi {

// a before b in ascending order with nan the largest value.
inline bool ascending(double a, double b) { return std::isnan(b) ? !std::isnan(a) : a < b; }

}  // namespace npusim::opapi
