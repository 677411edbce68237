#include "data_step.h"

#include <algorithm>
#include <cstring>

#include "dtype.h"
#include "op_desc.h"
#include "reduce_kernels.h"

namespace hccl {

using npusim::hcomm::DataStep;
using npusim::hcomm::Outcome;
using npusim::hcomm::Segment;

namespace {

// The layout as this rank sees it.
struct Place {
    uint32_t hosts = 1;  // h
    uint32_t host = 0;   // this rank's host
    uint32_t index = 0;  // this rank's index there
    uint32_t parts = 1;  // P: the smallest host's rank count
    uint32_t local = 1;  // k: this host's rank count
    uint32_t ranks = 1;  // p: the communicator's
};

Place place_of(const DataStep& step) {
    Place p;
    const auto& hosts = step.hosts();
    p.hosts = static_cast<uint32_t>(hosts.size());
    p.host = step.host_of(step.rank());
    p.index = step.index_of(step.rank());
    p.parts = static_cast<uint32_t>(hosts.front().size());
    p.ranks = 0;
    for (const auto& h : hosts) {
        p.parts = std::min(p.parts, static_cast<uint32_t>(h.size()));
        p.ranks += static_cast<uint32_t>(h.size());
    }
    p.local = static_cast<uint32_t>(hosts[p.host].size());
    return p;
}

// Rank q is of another host and this rank is its partner here (q's index modulo this host's rank
// count is this rank's index): the pairs the links join.
bool partner_here(const DataStep& step, const Place& at, uint32_t q) {
    return step.host_of(q) != at.host && step.index_of(q) % at.local == at.index;
}

// Part j of `count` elements split into `parts`: its first element and its element count.
uint64_t part_first(uint64_t count, uint32_t j, uint32_t parts) { return count * j / parts; }
uint64_t part_count(uint64_t count, uint32_t j, uint32_t parts) {
    return part_first(count, j + 1, parts) - part_first(count, j, parts);
}

// dst = src(0) (op) src(1) (op) ... (op) src(n - 1), in that order, `bytes` of them, a chunk
// at a time; dst may be src(0). src(i) is asked for every chunk (its pointer may move).
template <class Src>
void reduce_in_order(uint8_t* dst, uint32_t n, const Src& src, uint64_t bytes, const OpDesc& d) {
    const uint64_t es = dtype_size(d.dtype);
    const uint64_t step = std::max<uint64_t>(es, kReduceChunkBytes / es * es);
    for (uint64_t off = 0; off < bytes; off += step) {
        const uint64_t len = std::min(step, bytes - off);
        const uint8_t* first = src(0) + off;
        if (first != dst + off) std::memcpy(dst + off, first, static_cast<size_t>(len));
        for (uint32_t i = 1; i < n; ++i) reduce_into(dst + off, src(i) + off, len / es, d.dtype, d.reduce_op);
    }
}

void copy(uint8_t* dst, const uint8_t* src, uint64_t n) {
    if (n > 0) std::memcpy(dst, src, static_cast<size_t>(n));
}

// All-reduce and reduce (module comment).
bool reduce_data(DataStep& step, const OpDesc& d, Outcome& outcome) {
    const Place at = place_of(step);
    const auto& hosts = step.hosts();
    const auto& local = hosts[at.host];
    const uint64_t es = dtype_size(d.dtype), count = d.count;
    const bool to_root = d.kind == OpKind::Reduce;
    const uint32_t root_host = to_root ? step.host_of(d.root) : 0;
    const bool gets_result = !to_root || at.host == root_host;  // this host reduces across hosts
    const uint64_t slot = (count + at.parts - 1) / at.parts * es;  // one host's partial of a part
    if (at.index < at.parts) {
        // Scratch: slot h holds host h's partial of this rank's part; slot 0 ends as the result.
        uint8_t* s = step.scratch(slot * at.hosts);
        const uint64_t first = part_first(count, at.index, at.parts) * es;
        const uint64_t len = part_count(count, at.index, at.parts) * es;
        uint8_t* mine = s + slot * at.host;
        reduce_in_order(
            mine, static_cast<uint32_t>(local.size()), [&](uint32_t i) { return step.input(local[i]) + first; }, len,
            d);
        if (at.hosts > 1) {
            for (uint32_t h = 0; h < at.hosts; ++h) {
                if (h == at.host) continue;
                const uint32_t peer = hosts[h][at.index];
                if (!to_root || h == root_host) step.send(peer, mine, len);
                if (gets_result) step.receive(peer, s + slot * h, len);
            }
            if (!step.exchange()) return true;
            if (gets_result) reduce_in_order(s, at.hosts, [&](uint32_t h) { return s + slot * h; }, len, d);
        }
    }
    if (!step.barrier()) return true;
    if (!to_root || step.rank() == d.root) {
        uint8_t* out = step.output();
        for (uint32_t j = 0; j < at.parts; ++j) {
            copy(out + part_first(count, j, at.parts) * es, step.scratch_of(local[j]),
                 part_count(count, j, at.parts) * es);
        }
        outcome.written.push_back(Segment{0, count * es});
    }
    step.barrier();  // the owners' scratch is read: it may be reused
    return true;
}

bool broadcast_data(DataStep& step, const OpDesc& d, Outcome& outcome) {
    const Place at = place_of(step);
    const auto& hosts = step.hosts();
    const auto& local = hosts[at.host];
    const uint64_t es = dtype_size(d.dtype), count = d.count;
    const uint32_t root_host = step.host_of(d.root);
    const uint64_t slot = (count + at.parts - 1) / at.parts * es;
    if (at.hosts > 1 && at.index < at.parts) {
        const uint64_t first = part_first(count, at.index, at.parts) * es;
        const uint64_t len = part_count(count, at.index, at.parts) * es;
        if (at.host == root_host) {
            const uint8_t* root_input = step.input(d.root);
            for (uint32_t h = 0; h < at.hosts; ++h) {
                if (h != at.host) step.send(hosts[h][at.index], root_input + first, len);
            }
        } else {
            step.receive(hosts[root_host][at.index], step.scratch(slot), len);
        }
        if (!step.exchange()) return true;
    }
    if (!step.barrier()) return true;
    if (step.rank() != d.root) {
        uint8_t* out = step.output();
        if (at.host == root_host) {
            copy(out, step.input(d.root), count * es);
        } else {
            for (uint32_t j = 0; j < at.parts; ++j) {
                copy(out + part_first(count, j, at.parts) * es, step.scratch_of(local[j]),
                     part_count(count, j, at.parts) * es);
            }
        }
        outcome.written.push_back(Segment{0, count * es});
    }
    step.barrier();
    return true;
}

bool all_gather_data(DataStep& step, const OpDesc& d, Outcome& outcome) {
    const Place at = place_of(step);
    const auto& hosts = step.hosts();
    const uint32_t k = at.local;
    const uint64_t bytes = d.count * dtype_size(d.dtype);
    // The slot of a rank q of another host in its receiver's scratch here: the number of ranks
    // below q on other hosts that the same receiver takes.
    auto slot_of = [&](uint32_t q) {
        uint64_t slot = 0;
        for (uint32_t x = 0; x < q; ++x) {
            if (step.host_of(x) != at.host && step.index_of(x) % k == step.index_of(q) % k) ++slot;
        }
        return slot;
    };
    uint32_t taken = 0;
    if (at.hosts > 1) {
        for (uint32_t q = 0; q < at.ranks; ++q) taken += partner_here(step, at, q) ? 1 : 0;
        uint8_t* s = step.scratch(bytes * taken);
        const uint8_t* mine = step.input(step.rank());
        for (uint32_t h = 0; h < at.hosts; ++h) {
            if (h != at.host) step.send(hosts[h][at.index % hosts[h].size()], mine, bytes);
        }
        uint64_t slot = 0;
        for (uint32_t q = 0; q < at.ranks; ++q) {
            if (partner_here(step, at, q)) step.receive(q, s + bytes * slot++, bytes);
        }
        if (!step.exchange()) return true;
        if (!step.barrier()) return true;
    }
    uint8_t* out = step.output();
    for (uint32_t q = 0; q < at.ranks; ++q) {
        const uint8_t* src = step.host_of(q) == at.host
                                 ? step.input(q)
                                 : step.scratch_of(hosts[at.host][step.index_of(q) % k]) + bytes * slot_of(q);
        copy(out + uint64_t(q) * bytes, src, bytes);
        if (bytes > 0) outcome.written.push_back(Segment{uint64_t(q) * bytes, bytes});
    }
    step.barrier();
    return true;
}

bool reduce_scatter_data(DataStep& step, const OpDesc& d, Outcome& outcome) {
    const Place at = place_of(step);
    const auto& hosts = step.hosts();
    const uint32_t me = step.rank();
    const uint64_t bytes = d.count * dtype_size(d.dtype);
    // Block j over this host's inputs, in rank order.
    auto host_partial = [&](uint8_t* dst, uint32_t j) {
        reduce_in_order(
            dst, at.local, [&](uint32_t i) { return step.input(hosts[at.host][i]) + uint64_t(j) * bytes; }, bytes, d);
    };
    if (at.hosts == 1) {
        host_partial(step.output(), me);
    } else {
        // Scratch: h slots for the partials of this rank's block (slot h: host h's), then the
        // partials this rank makes for ranks of other hosts.
        uint32_t makes = 0;
        for (uint32_t j = 0; j < at.ranks; ++j) makes += partner_here(step, at, j) ? 1 : 0;
        uint8_t* s = step.scratch(bytes * (at.hosts + makes));
        uint8_t* made = s + bytes * at.hosts;
        for (uint32_t j = 0; j < at.ranks; ++j) {
            if (!partner_here(step, at, j)) continue;
            host_partial(made, j);
            step.send(j, made, bytes);
            made += bytes;
        }
        for (uint32_t h = 0; h < at.hosts; ++h) {
            if (h == at.host) continue;
            step.receive(hosts[h][at.index % hosts[h].size()], s + bytes * h, bytes);
        }
        host_partial(s + bytes * at.host, me);
        if (!step.exchange()) return true;
        reduce_in_order(step.output(), at.hosts, [&](uint32_t h) { return s + bytes * h; }, bytes, d);
    }
    outcome.written.push_back(Segment{0, bytes});
    step.barrier();  // the host's ranks have read this rank's input
    return true;
}

}  // namespace

bool run_data_step(DataStep& step, const std::vector<uint8_t>& desc, Outcome& outcome) {
    OpDesc d;
    if (!decode(desc, d) || dtype_size(d.dtype) == 0) return false;
    outcome.written.clear();
    switch (d.kind) {
        case OpKind::AllReduce:
        case OpKind::Reduce: return reduce_data(step, d, outcome);
        case OpKind::Broadcast: return broadcast_data(step, d, outcome);
        case OpKind::AllGather: return all_gather_data(step, d, outcome);
        case OpKind::ReduceScatter: return reduce_scatter_data(step, d, outcome);
        default: return false;
    }
}

}  // namespace hccl
