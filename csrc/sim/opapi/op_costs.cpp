#include "opapi/op_costs.h"

#include <algorithm>

#include "core/config.h"

namespace npusim::opapi {

namespace {

constexpr int64_t kCubeTileM = 128;
constexpr int64_t kCubeTileN = 256;
constexpr int64_t kAttentionRowsPerBlock = 128;

int64_t ceil_div(int64_t a, int64_t b) { return b <= 0 ? a : (a + b - 1) / b; }

uint32_t clamp_blocks(int64_t wanted, CoreType core) {
    const int64_t cores = core_count(core);
    return static_cast<uint32_t>(std::clamp<int64_t>(wanted, 1, std::max<int64_t>(cores, 1)));
}

}  // namespace

uint32_t core_count(CoreType core) {
    const SocSpec* soc = sim_config().soc;
    if (soc == nullptr) return core == CoreType::AIV ? 40 : 20;
    return core == CoreType::AIV ? soc->aiv : soc->aic;
}

LaunchCost vector_cost(double flops, double bytes, int64_t parallel_items, int64_t items_per_block) {
    LaunchCost c;
    c.flops = flops;
    c.bytes = bytes;
    c.block_dim = clamp_blocks(ceil_div(parallel_items, std::max<int64_t>(items_per_block, 1)), CoreType::AIV);
    return c;
}

LaunchCost cube_cost(int64_t batch, int64_t m, int64_t n, int64_t k, double bytes) {
    LaunchCost c;
    c.flops = 2.0 * static_cast<double>(batch) * static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k);
    c.bytes = bytes;
    c.block_dim = clamp_blocks(batch * ceil_div(m, kCubeTileM) * ceil_div(n, kCubeTileN), CoreType::AIC);
    return c;
}

LaunchCost attention_cost(int64_t batch, int64_t heads, int64_t sq, int64_t skv, int64_t d, double bytes) {
    LaunchCost c;
    const double scores = static_cast<double>(batch) * heads * sq * skv;
    c.flops = 4.0 * scores * static_cast<double>(d) + 5.0 * scores;
    c.bytes = bytes;
    c.block_dim = clamp_blocks(batch * heads * ceil_div(sq, kAttentionRowsPerBlock), CoreType::MIX);
    return c;
}

}  // namespace npusim::opapi
