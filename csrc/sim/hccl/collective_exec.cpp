#include "collective_exec.h"

#include <algorithm>
#include <cstring>
#include <functional>

#include "dtype.h"
#include "op_desc.h"
#include "reduce_kernels.h"

namespace hccl {

using npusim::hcomm::CollectiveInput;
using npusim::hcomm::CollectiveResult;
using npusim::hcomm::Segment;
using npusim::hcomm::Share;

namespace {

struct Buffers {
    std::vector<const uint8_t*> in;
    std::vector<uint64_t> in_len;
    std::vector<uint8_t*> out;
    std::vector<uint64_t> out_len;
    std::vector<std::vector<uint8_t>> owned;  // input copies when they had to be taken
};

bool overlap(const uint8_t* a, uint64_t alen, const uint8_t* b, uint64_t blen) {
    if (a == nullptr || b == nullptr || alen == 0 || blen == 0) return false;
    const auto x = reinterpret_cast<uintptr_t>(a), y = reinterpret_cast<uintptr_t>(b);
    return x < y + blen && y < x + alen;
}

// Copies every input when some input overlaps some output other than in the ways the
// operation handles (`safe(in_rank, out_rank)`).
void protect_inputs(Buffers& b, const std::function<bool(size_t, size_t)>& safe) {
    const size_t p = b.in.size();
    for (size_t i = 0; i < p; ++i) {
        for (size_t o = 0; o < p; ++o) {
            if (!overlap(b.in[i], b.in_len[i], b.out[o], b.out_len[o]) || safe(i, o)) continue;
            b.owned.resize(p);
            for (size_t r = 0; r < p; ++r) {
                if (b.in[r] == nullptr) continue;
                b.owned[r].assign(b.in[r], b.in[r] + b.in_len[r]);
                b.in[r] = b.owned[r].data();
            }
            return;
        }
    }
}

void copy(uint8_t* dst, const uint8_t* src, uint64_t n) {
    if (n > 0 && dst != src) std::memmove(dst, src, static_cast<size_t>(n));
}

// acc = reduction over ranks of in[r][offset, offset + len) for all r.
void reduce_range(std::vector<uint8_t>& acc, const std::vector<const uint8_t*>& in,
                  const std::vector<uint64_t>& offsets, uint64_t len, const OpDesc& d) {
    const uint64_t es = dtype_size(d.dtype);
    acc.assign(in[0] + offsets[0], in[0] + offsets[0] + len);
    for (size_t r = 1; r < in.size(); ++r) reduce_into(acc.data(), in[r] + offsets[r], len / es, d.dtype, d.reduce_op);
}

bool same_everywhere(const std::vector<OpDesc>& d, const std::function<bool(const OpDesc&, const OpDesc&)>& eq) {
    for (size_t r = 1; r < d.size(); ++r) {
        if (!eq(d[0], d[r])) return false;
    }
    return true;
}

// Checks the descriptors against each other; returns the byte figure every rank models
// (non-zero only for AlltoAllV, whose volume no single rank knows).
bool consistent(const std::vector<OpDesc>& d, uint64_t& agreed) {
    const auto p = static_cast<uint32_t>(d.size());
    const OpDesc& a = d[0];
    if (!same_everywhere(d, [](const OpDesc& x, const OpDesc& y) { return x.kind == y.kind && x.dtype == y.dtype; })) {
        return false;
    }
    if (a.kind != OpKind::Barrier && !valid_dtype(a.dtype)) return false;
    auto sized = [p](const std::vector<uint64_t>& v) { return v.size() == p; };
    switch (a.kind) {
        case OpKind::AllReduce:
        case OpKind::ReduceScatter:
            return same_everywhere(d,
                                   [](auto& x, auto& y) { return x.count == y.count && x.reduce_op == y.reduce_op; });
        case OpKind::Reduce:
            return a.root < p &&
                   same_everywhere(
                       d, [](auto& x,
                             auto& y) { return x.count == y.count && x.reduce_op == y.reduce_op && x.root == y.root; });
        case OpKind::Broadcast:
        case OpKind::Scatter:
            return a.root < p &&
                   same_everywhere(d, [](auto& x, auto& y) { return x.count == y.count && x.root == y.root; });
        case OpKind::AllGather: return same_everywhere(d, [](auto& x, auto& y) { return x.count == y.count; });
        case OpKind::AlltoAll:
            return a.count == a.recv_count && a.dtype == a.recv_dtype && same_everywhere(d, [](auto& x, auto& y) {
                       return x.count == y.count && x.recv_count == y.recv_count && x.recv_dtype == y.recv_dtype;
                   });
        case OpKind::AllGatherV:
            for (uint32_t r = 0; r < p; ++r) {
                if (!sized(d[r].recv_counts) || !sized(d[r].recv_displs)) return false;
                for (uint32_t j = 0; j < p; ++j) {
                    if (d[r].recv_counts[j] != d[j].count) return false;
                }
            }
            return true;
        case OpKind::ReduceScatterV:
            for (uint32_t r = 0; r < p; ++r) {
                if (!sized(d[r].send_counts) || !sized(d[r].send_displs) || d[r].send_counts != a.send_counts ||
                    d[r].reduce_op != a.reduce_op || d[r].count != a.send_counts[r]) {
                    return false;
                }
            }
            return true;
        case OpKind::AlltoAllV: {
            uint64_t most = 0;
            for (uint32_t r = 0; r < p; ++r) {
                const OpDesc& x = d[r];
                if (!sized(x.send_counts) || !sized(x.send_displs) || !sized(x.recv_counts) || !sized(x.recv_displs) ||
                    x.recv_dtype != a.dtype) {
                    return false;
                }
                uint64_t sent = 0, received = 0;
                for (uint32_t j = 0; j < p; ++j) {
                    if (x.send_counts[j] != d[j].recv_counts[r]) return false;
                    sent += x.send_counts[j];
                    received += x.recv_counts[j];
                }
                most = std::max({most, sent, received});
            }
            agreed = most * dtype_size(a.dtype);
            return true;
        }
        case OpKind::Barrier: return true;
    }
    return false;
}

bool mine(size_t index, Share share) { return index % share.parts == share.part; }

void run_all_reduce(Buffers& b, const OpDesc& d, std::vector<std::vector<Segment>>& w, bool to_root_only, Share share) {
    const auto p = b.in.size();
    const uint64_t es = dtype_size(d.dtype), n = d.count * es;
    const uint64_t step = std::max<uint64_t>(es, kReduceChunkBytes / es * es);
    // This share's elements: [count * part / parts, count * (part + 1) / parts).
    const uint64_t first = d.count * share.part / share.parts * es;
    const uint64_t end = d.count * (share.part + 1) / share.parts * es;
    std::vector<uint8_t> acc;
    std::vector<uint64_t> offsets(p);
    for (uint64_t off = first; off < end; off += step) {
        const uint64_t len = std::min(step, end - off);
        std::fill(offsets.begin(), offsets.end(), off);
        reduce_range(acc, b.in, offsets, len, d);
        for (size_t r = 0; r < p; ++r) {
            if ((to_root_only && r != d.root) || b.out[r] == nullptr) continue;
            copy(b.out[r] + off, acc.data(), len);
        }
    }
    for (size_t r = 0; r < p; ++r) {
        if (!to_root_only || r == d.root) w[r] = {Segment{0, n}};
    }
}

// Block j of every rank's input reduces into rank j's output.
void run_reduce_scatter(Buffers& b, const std::vector<OpDesc>& d, std::vector<std::vector<Segment>>& w, Share share) {
    const auto p = b.in.size();
    const OpDesc& a = d[0];
    const uint64_t es = dtype_size(a.dtype);
    const uint64_t step = std::max<uint64_t>(es, kReduceChunkBytes / es * es);
    std::vector<uint8_t> acc;
    std::vector<uint64_t> offsets(p);
    for (size_t j = 0; j < p; ++j) {
        const bool v = a.kind == OpKind::ReduceScatterV;
        const uint64_t block = (v ? a.send_counts[j] : a.count) * es;
        for (uint64_t off = 0; off < block && mine(j, share) && b.out[j] != nullptr; off += step) {
            const uint64_t len = std::min(step, block - off);
            for (size_t r = 0; r < p; ++r) offsets[r] = (v ? d[r].send_displs[j] * es : j * block) + off;
            reduce_range(acc, b.in, offsets, len, a);
            copy(b.out[j] + off, acc.data(), len);
        }
        w[j] = {Segment{0, block}};
    }
}

void move_blocks(Buffers& b, const std::vector<OpDesc>& d, std::vector<std::vector<Segment>>& w, Share share) {
    const auto p = static_cast<uint32_t>(b.in.size());
    const OpDesc& a = d[0];
    const uint64_t es = dtype_size(a.dtype);
    auto put = [&](uint32_t dst_rank, uint64_t dst_off, const uint8_t* src, uint64_t len) {
        if (mine(dst_rank, share) && b.out[dst_rank] != nullptr) copy(b.out[dst_rank] + dst_off, src, len);
        if (len > 0) w[dst_rank].push_back(Segment{dst_off, len});
    };
    switch (a.kind) {
        case OpKind::Broadcast:
            for (uint32_t r = 0; r < p; ++r) {
                if (r != a.root) put(r, 0, b.in[a.root], a.count * es);
            }
            break;
        case OpKind::Scatter:
            for (uint32_t r = 0; r < p; ++r) put(r, 0, b.in[a.root] + uint64_t(r) * a.count * es, a.count * es);
            break;
        case OpKind::AllGather:
            for (uint32_t r = 0; r < p; ++r) {
                for (uint32_t j = 0; j < p; ++j) put(r, uint64_t(j) * a.count * es, b.in[j], a.count * es);
            }
            break;
        case OpKind::AllGatherV:
            for (uint32_t r = 0; r < p; ++r) {
                for (uint32_t j = 0; j < p; ++j) put(r, d[r].recv_displs[j] * es, b.in[j], d[j].count * es);
            }
            break;
        case OpKind::AlltoAll:
            for (uint32_t r = 0; r < p; ++r) {
                for (uint32_t j = 0; j < p; ++j) {
                    put(r, uint64_t(j) * a.count * es, b.in[j] + uint64_t(r) * a.count * es, a.count * es);
                }
            }
            break;
        case OpKind::AlltoAllV:
            for (uint32_t r = 0; r < p; ++r) {
                for (uint32_t j = 0; j < p; ++j) {
                    put(r, d[r].recv_displs[j] * es, b.in[j] + d[j].send_displs[r] * es, d[j].send_counts[r] * es);
                }
            }
            break;
        default: break;
    }
}

}  // namespace

CollectiveResult execute_collective(const std::vector<CollectiveInput>& ranks, bool move_data, Share share) {
    CollectiveResult result;
    const auto p = static_cast<uint32_t>(ranks.size());
    std::vector<OpDesc> d(p);
    for (uint32_t r = 0; r < p; ++r) {
        if (ranks[r].desc == nullptr || !decode(*ranks[r].desc, d[r])) {
            result.status = HCCL_E_PARA;
            return result;
        }
    }
    if (!consistent(d, result.agreed)) {
        result.status = HCCL_E_PARA;
        return result;
    }
    result.written.resize(p);
    if (!move_data || d[0].kind == OpKind::Barrier) return result;

    Buffers b;
    for (uint32_t r = 0; r < p; ++r) {
        const uint64_t need_in = d[r].input_bytes(r, p), need_out = d[r].output_bytes(r, p);
        if ((need_in > 0 && (ranks[r].in == nullptr || ranks[r].in_len < need_in)) ||
            (need_out > 0 && !ranks[r].elsewhere && (ranks[r].out == nullptr || ranks[r].out_len < need_out))) {
            result.status = HCCL_E_PARA;  // a rank's buffers do not hold what its call describes
            result.written.clear();
            return result;
        }
        b.in.push_back(need_in > 0 ? ranks[r].in : nullptr);
        b.in_len.push_back(need_in);
        b.out.push_back(need_out > 0 && !ranks[r].elsewhere ? ranks[r].out : nullptr);
        b.out_len.push_back(need_out);
    }
    const OpDesc& a = d[0];
    const uint64_t es = dtype_size(a.dtype);
    switch (a.kind) {
        case OpKind::AllReduce:
        case OpKind::Reduce:
            // Chunks are read from every rank before any is written: a rank may reduce in place.
            protect_inputs(b, [&](size_t i, size_t o) { return i == o && b.in[i] == b.out[o]; });
            run_all_reduce(b, a, result.written, a.kind == OpKind::Reduce, share);
            break;
        case OpKind::ReduceScatter:
        case OpKind::ReduceScatterV:
            // In place: a rank's output is its own block of its input.
            protect_inputs(b, [&](size_t i, size_t o) {
                const uint64_t off = a.kind == OpKind::ReduceScatterV ? d[i].send_displs[o] * es : o * a.count * es;
                return i == o && b.out[o] == b.in[i] + off;
            });
            run_reduce_scatter(b, d, result.written, share);
            break;
        case OpKind::AllGather:
            // In place: a rank's input is its own slot of its output.
            protect_inputs(b, [&](size_t i, size_t o) { return i == o && b.in[i] == b.out[o] + i * a.count * es; });
            move_blocks(b, d, result.written, share);
            break;
        case OpKind::AllGatherV:
            protect_inputs(
                b, [&](size_t i, size_t o) { return i == o && b.in[i] == b.out[o] + d[o].recv_displs[i] * es; });
            move_blocks(b, d, result.written, share);
            break;
        default:
            protect_inputs(b, [](size_t, size_t) { return false; });
            move_blocks(b, d, result.written, share);
            break;
    }
    return result;
}

}  // namespace hccl
