// What one rank says about its call of a collective, as it travels to the other ranks
// (the opaque descriptor of the exchange), and the buffer extents that follow from it.
#pragma once

#include <cstdint>
#include <vector>

namespace hccl {

enum class OpKind : uint8_t {
    AllReduce = 1,
    Broadcast,
    AllGather,
    AllGatherV,
    ReduceScatter,
    ReduceScatterV,
    Reduce,
    AlltoAll,
    AlltoAllV,
    Scatter,
    Barrier,
};

struct OpDesc {
    OpKind kind = OpKind::Barrier;
    uint32_t dtype = 0;
    uint32_t recv_dtype = 0;  // AlltoAll(V)
    uint32_t reduce_op = 0;
    uint32_t root = 0;
    uint64_t count = 0;       // the count argument of the call (send count for gathers and all-to-all)
    uint64_t recv_count = 0;  // AlltoAll
    // Per-rank element counts and displacements (V operations).
    std::vector<uint64_t> send_counts, send_displs, recv_counts, recv_displs;

    // Bytes this rank reads from its input buffer and the extent of its output buffer.
    uint64_t input_bytes(uint32_t rank, uint32_t nranks) const;
    uint64_t output_bytes(uint32_t rank, uint32_t nranks) const;
};

std::vector<uint8_t> encode(const OpDesc& desc);
bool decode(const std::vector<uint8_t>& bytes, OpDesc& out);

// The largest displacement + count of a V layout, in elements (0 for an empty layout).
uint64_t layout_extent(const std::vector<uint64_t>& counts, const std::vector<uint64_t>& displs);

}  // namespace hccl
