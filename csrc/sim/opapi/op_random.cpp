// Random fills on the device RNG (opapi/device_rng.h): the stream of (seed, offset) — element k is word
// k % 4 of philox(counter = offset + k / 4, key = seed) — so the same seed and offset give the same
// numbers and another seed or offset others (torch.rand / randn / uniform_ / normal_ on "npu"):
//   aclnnInplaceUniform  from + (to - from) * u, u the top 24 bits of element k as a float in [0, 1)
//   aclnnInplaceRandom   from + element k mod (to - from): integers in [from, to) (a range up to 2^32)
//   aclnnInplaceNormal   mean + std * z, z from elements 2i and 2i + 1 by Box-Muller (cos for element
//                        2i, sin for 2i + 1; the first uniform taken in (0, 1] so that its log is finite)
// selfRef of a float type (aclnnInplaceRandom: also an integer type), any shape (written through its view in row-major order).
#include <cmath>
#include <memory>

#include "aclnnop/aclnn_normal.h"
#include "aclnnop/aclnn_random.h"
#include "aclnnop/aclnn_uniform.h"
#include "core/fault_plan.h"
#include "nnopbase/dtype.h"
#include "nnopbase/tensor.h"
#include "opapi/checks.h"
#include "opapi/device_rng.h"
#include "opapi/op_launcher.h"
#include "opapi/registry.h"

namespace npusim::opapi {

namespace {

[[maybe_unused]] const bool kRegistered =
    register_op({"aclnnInplaceUniform", OpFamily::Random, kFloatTypes, Kernel::StatelessRandomUniformV2}) &&
    register_op({"aclnnInplaceNormal", OpFamily::Random, kFloatTypes, Kernel::StatelessRandomNormalV2}) &&
    register_op({"aclnnInplaceRandom", OpFamily::Random, kNumericTypes, Kernel::StatelessRandomInt});

uint32_t element(const RngStream& stream, int64_t k) {
    return rng_block(stream, static_cast<uint64_t>(k) / 4)[static_cast<size_t>(k % 4)];
}

enum class Distribution : uint8_t { Uniform, Normal, Integer };

aclnnStatus prepare(const char* api, Distribution kind, const aclTensor* selfRef, double a, double b, RngStream stream,
                    uint64_t* workspaceSize, aclOpExecutor** executor) {
    OPAPI_CHECK(check_not_null(api, {selfRef, workspaceSize, executor}));
    OPAPI_CHECK(check_tensor(api, "selfRef", selfRef));
    const TensorView y = view_of(selfRef);
    if (kind == Distribution::Integer ? !kNumericTypes.has(y.dtype) : !is_float_type(y.dtype)) {
        return invalid(api, "selfRef has data type %s", nn::dtype_name(y.dtype));
    }
    OPAPI_CHECK(check_rank(api, "selfRef", y.dims, 0, nn::kMaxDims));
    if (!std::isfinite(a) || !std::isfinite(b)) return invalid(api, "the bounds or moments must be finite");
    if (kind == Distribution::Uniform && !(a <= b)) return invalid(api, "from %g is above to %g", a, b);
    if (kind == Distribution::Integer && !(a < b && b - a <= 4294967296.0)) {
        return invalid(api, "[from %g, to %g) is empty or wider than 2^32", a, b);
    }
    if (kind == Distribution::Normal && !(b >= 0)) return invalid(api, "std %g is negative", b);
    const int64_t n = y.numel();
    const Kernel kernel = kind == Distribution::Uniform  ? Kernel::StatelessRandomUniformV2
                          : kind == Distribution::Normal ? Kernel::StatelessRandomNormalV2
                                                         : Kernel::StatelessRandomInt;
    std::vector<KernelLaunch> launches{{kernel, y.dtype, vector_cost(double(n) * 12.0, double(y.bytes()), n, 4096)}};
    auto compute = [y, kind, a, b, stream, n]() {
        std::vector<double> r(static_cast<size_t>(n));
        for (int64_t k = 0; k < n; ++k) {
            if (kind == Distribution::Integer) {
                r[static_cast<size_t>(k)] = a + double(uint64_t{element(stream, k)} % static_cast<uint64_t>(b - a));
                continue;
            }
            if (kind == Distribution::Uniform) {
                r[static_cast<size_t>(k)] = a + (b - a) * double(rng_to_uniform(element(stream, k)));
                continue;
            }
            const int64_t pair = k / 2;
            const double u1 = 1.0 - double(rng_to_uniform(element(stream, 2 * pair)));  // (0, 1]
            const double u2 = double(rng_to_uniform(element(stream, 2 * pair + 1)));
            const double radius = std::sqrt(-2.0 * std::log(u1)), angle = 2.0 * M_PI * u2;
            r[static_cast<size_t>(k)] = a + b * radius * (k % 2 == 0 ? std::cos(angle) : std::sin(angle));
        }
        write_doubles(y, r);
    };
    return hand_over(std::make_unique<OpExecutor>(api, 0, compute, std::move(launches), std::vector<void*>{y.data}),
                     workspaceSize, executor);
}

}  // namespace

}  // namespace npusim::opapi

using npusim::opapi::Distribution;
using npusim::opapi::RngStream;

NPUSIM_C_EXPORT aclnnStatus aclnnInplaceUniformGetWorkspaceSize(const aclTensor* selfRef, double from, double to,
                                                                uint64_t seed, uint64_t offset, uint64_t* workspaceSize,
                                                                aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnInplaceUniformGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare("aclnnInplaceUniform", Distribution::Uniform, selfRef, from, to,
                                  RngStream{seed, offset, 0}, workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnInplaceUniform)

NPUSIM_C_EXPORT aclnnStatus aclnnInplaceNormalGetWorkspaceSize(const aclTensor* selfRef, float mean, float std,
                                                               int64_t seed, int64_t offset, uint64_t* workspaceSize,
                                                               aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnInplaceNormalGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare("aclnnInplaceNormal", Distribution::Normal, selfRef, mean, std,
                                  RngStream{static_cast<uint64_t>(seed), static_cast<uint64_t>(offset), 0},
                                  workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnInplaceNormal)

NPUSIM_C_EXPORT aclnnStatus aclnnInplaceRandomGetWorkspaceSize(const aclTensor* selfRef, int64_t from, int64_t to,
                                                               int64_t seed, int64_t offset, uint64_t* workspaceSize,
                                                               aclOpExecutor** executor) {
    NPUSIM_FAULT_RETURN("aclnnInplaceRandomGetWorkspaceSize", aclnnStatus);
    return npusim::opapi::prepare("aclnnInplaceRandom", Distribution::Integer, selfRef, double(from), double(to),
                                  RngStream{static_cast<uint64_t>(seed), static_cast<uint64_t>(offset), 0},
                                  workspaceSize, executor);
}
OPAPI_DEFINE_RUN(aclnnInplaceRandom)
