#include "opapi/op_costs.h"

#include <algorithm>
#include <cmath>

#include "core/config.h"
#include "core/timing_model.h"
#include "nnopbase/dtype.h"

namespace npusim::opapi {

namespace {

constexpr int64_t kCubeTileM = 128;
constexpr int64_t kCubeTileN = 256;
constexpr int64_t kAttentionRowsPerBlock = 128;
constexpr double kAttentionKeysPerTile = 128;

int64_t ceil_div(int64_t a, int64_t b) { return b <= 0 ? a : (a + b - 1) / b; }

uint32_t clamp_blocks(int64_t wanted, CoreType core) {
    const int64_t cores = core_count(core);
    return static_cast<uint32_t>(std::clamp<int64_t>(wanted, 1, std::max<int64_t>(cores, 1)));
}

double cube_rate(const SocTiming& t, aclDataType dtype) {
    switch (dtype) {
        case ACL_FLOAT: return t.cube_rate_fp32;  // HF32 (cubeMathType) has the same measured rate on A2
        case ACL_BF16: return t.cube_rate_bf16;
        case ACL_INT8: return t.cube_rate_int8;
        default: return t.cube_rate_fp16;
    }
}

}  // namespace

uint32_t core_count(CoreType core) {
    const SocSpec* soc = sim_config().soc;
    if (soc == nullptr) return core == CoreType::AIV ? 40 : 20;
    return core == CoreType::AIV ? soc->aiv : soc->aic;
}

double vector_rate(aclDataType dtype) {
    const SocSpec* soc = sim_config().soc;
    if (soc == nullptr) return 1.0;
    const SocTiming& t = TimingModel::active().soc(soc->name);
    switch (dtype) {
        case ACL_FLOAT: return t.vector_rate_fp32;
        case ACL_BF16: return t.vector_rate_bf16;
        case ACL_INT8: return t.vector_rate_int8;
        default: return t.vector_rate_fp16;
    }
}

LaunchCost vector_cost(double flops, double bytes, int64_t parallel_items, int64_t items_per_block) {
    LaunchCost c;
    c.flops = flops;
    c.bytes = bytes;
    c.block_dim = clamp_blocks(ceil_div(parallel_items, std::max<int64_t>(items_per_block, 1)), CoreType::AIV);
    return c;
}

LaunchCost cube_cost(int64_t batch, int64_t m, int64_t n, int64_t k, double bytes, aclDataType dtype) {
    LaunchCost c;
    c.flops =
        2.0 * static_cast<double>(batch) * static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k);
    c.bytes = bytes;
    c.block_dim = clamp_blocks(batch * ceil_div(m, kCubeTileM) * ceil_div(n, kCubeTileN), CoreType::AIC);
    const SocSpec* soc = sim_config().soc;
    if (soc == nullptr || soc->aic == 0 || c.flops <= 0) return c;
    const SocTiming& t = TimingModel::active().soc(soc->name);
    // Tile quantisation: output tiles run in waves over the cube cores; the last wave may be partial.
    const int64_t tm = std::max<int64_t>(1, std::llround(t.cube_tile_m)),
                  tn = std::max<int64_t>(1, std::llround(t.cube_tile_n));
    const double blocks = static_cast<double>(std::max<int64_t>(1, batch * ceil_div(m, tm) * ceil_div(n, tn)));
    const double cores = soc->aic;
    const double waves = std::ceil(blocks / cores);
    const double rate = soc->cube_flops_per_ns() * cube_rate(t, dtype) * t.cube_efficiency;  // FLOPs per ns
    const double elem = static_cast<double>(nn::dtype_size(dtype));
    const double operands = static_cast<double>(batch) * (double(m) * k + double(k) * n + double(m) * n) * elem;
    const double spill = operands > static_cast<double>(soc->l2_bytes) ? t.cube_l2_spill : 1.0;
    if (rate <= 0 || spill <= 0) return c;
    // A wave costs one whole base block on every core: a block the output covers only in part (m or n
    // not a multiple of the tile, as in a head-size-128 BatchMatMul) costs the MACs of a full one. The
    // pipeline fills once per kernel (the first K panels load before the cube starts, the last block
    // drains); later blocks load behind the current one's MACs. The fill is what makes small GEMMs
    // cost microseconds, not a flat floor.
    const double block_flops = 2.0 * static_cast<double>(tm) * static_cast<double>(tn) * static_cast<double>(k);
    const double compute_ns = waves * cores * block_flops / (rate * spill) + t.cube_wave_ns;
    const double memory_ns = soc->hbm_gbps > 0 ? bytes / soc->hbm_gbps : 0;
    c.duration_ns = t.cube_floor_ns + std::max(compute_ns, memory_ns);
    c.compute_ns = compute_ns;
    c.memory_ns = memory_ns;
    return c;
}

LaunchCost attention_cost(int64_t batch, int64_t heads, int64_t sq, int64_t skv, int64_t d, double bytes,
                          aclDataType dtype) {
    LaunchCost c;
    const double scores = static_cast<double>(batch) * heads * sq * skv;
    c.flops = 4.0 * scores * static_cast<double>(d) + 5.0 * scores;
    c.bytes = bytes;
    const int64_t blocks = std::max<int64_t>(1, batch * heads * ceil_div(sq, kAttentionRowsPerBlock));
    const SocSpec* soc = sim_config().soc;
    if (soc == nullptr || soc->aic == 0 || scores <= 0) {
        c.block_dim = clamp_blocks(blocks, CoreType::MIX);
        return c;
    }
    const SocTiming& t = TimingModel::active().soc(soc->name);
    const int64_t cores = soc->aic;
    // Too few row blocks to fill the cores: the key axis is split as well.
    const int64_t kv_split = std::max<int64_t>(1, std::llround(t.attention_kv_split));
    const int64_t split = std::max<int64_t>(1, std::min<int64_t>(cores / blocks, ceil_div(skv, kv_split)));
    const double units = static_cast<double>(blocks * split);
    const double waves = std::max(1.0, units / static_cast<double>(cores));
    const double tiles = std::ceil(static_cast<double>(skv) / static_cast<double>(split) / kAttentionKeysPerTile);
    const double core_rate = soc->cube_flops_per_ns() / cores * cube_rate(t, dtype) * t.attention_efficiency;
    if (core_rate <= 0) return c;
    // Cube (QK^T and PV, in the head size) and vector (softmax, not in it) overlap tile by tile.
    const double tile_ns =
        std::max(4.0 * kAttentionRowsPerBlock * kAttentionKeysPerTile * static_cast<double>(d) / core_rate,
                 t.attention_vector_tile_ns);
    const double memory_ns = soc->hbm_gbps > 0 ? bytes / soc->hbm_gbps : 0;
    c.compute_ns = waves * (tiles + t.attention_fill_tiles) * tile_ns;
    c.memory_ns = memory_ns;
    c.duration_ns = t.attention_floor_ns + std::max(c.compute_ns, memory_ns);
    c.block_dim = clamp_blocks(blocks * split, CoreType::MIX);
    return c;
}

LaunchCost attention_grad_cost(int64_t batch, int64_t heads, int64_t sq, int64_t skv, int64_t d, double bytes,
                               aclDataType dtype) {
    constexpr double kProductsRatio = 5.0 / 2.0;  // the backward's products to the forward's
    LaunchCost c = attention_cost(batch, heads, sq, skv, d, bytes, dtype);
    c.flops *= kProductsRatio;
    c.duration_ns *= kProductsRatio;
    c.compute_ns *= kProductsRatio;
    c.memory_ns *= kProductsRatio;
    return c;
}

}  // namespace npusim::opapi
