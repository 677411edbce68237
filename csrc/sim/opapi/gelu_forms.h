// The two forms of GELU and their derivatives, shared by aclnnGelu / aclnnGeluBackward and
// aclnnGeluV2 / aclnnGeluBackwardV2 (computed in double; the callers round once):
//   erf form   x * Phi(x) = 0.5 x (1 + erf(x / sqrt(2)))           (torch's approximate="none")
//   tanh form  0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3)))  (torch's approximate="tanh")
// CANN's Gelu and GeluGrad kernels (aclnnGelu, aclnnGeluBackward) compute the tanh form: ops-nn
// e5c3fa9 activation/gelu/op_kernel/arch35/gelu_dag.h computes x / (1 + exp(-1.5957691 (x +
// 0.044715 x^3))) (the same function), its golden (tests/assets/golden.py) is torch's
// GELU(approximate="tanh"), and gelu_grad's golden is the tanh form's derivative.
#pragma once

#include <cmath>

namespace npusim::opapi {

inline constexpr double kGeluSqrt2OverPi = 0.7978845608028654;  // sqrt(2 / pi)
inline constexpr double kGeluKappa = 0.044715;

inline double gelu_erf_value(double x) { return 0.5 * x * (1.0 + std::erf(x * M_SQRT1_2)); }
inline double gelu_tanh_value(double x) {
    return 0.5 * x * (1.0 + std::tanh(kGeluSqrt2OverPi * (x + kGeluKappa * x * x * x)));
}
inline double gelu_erf_derivative(double x) {
    const double cdf = 0.5 * (1.0 + std::erf(x * M_SQRT1_2));
    const double pdf = std::exp(-0.5 * x * x) * 0.3989422804014327;  // 1 / sqrt(2 pi)
    return cdf + x * pdf;
}
inline double gelu_tanh_derivative(double x) {
    const double t = std::tanh(kGeluSqrt2OverPi * (x + kGeluKappa * x * x * x));
    const double dt = (1.0 - t * t) * kGeluSqrt2OverPi * (1.0 + 3.0 * kGeluKappa * x * x);
    return 0.5 * (1.0 + t) + 0.5 * x * dt;
}

}  // namespace npusim::opapi
