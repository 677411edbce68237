#include "op_desc.h"

#include <algorithm>
#include <cstring>

#include "dtype.h"

namespace hccl {

namespace {

constexpr uint8_t kVersion = 1;
constexpr uint32_t kMaxRanks = 1u << 20;

template <typename T>
void put(std::vector<uint8_t>& out, T v) {
    const auto* p = reinterpret_cast<const uint8_t*>(&v);
    out.insert(out.end(), p, p + sizeof v);
}

void put_vector(std::vector<uint8_t>& out, const std::vector<uint64_t>& v) {
    put<uint32_t>(out, static_cast<uint32_t>(v.size()));
    for (uint64_t x : v) put(out, x);
}

class Cursor {
public:
    explicit Cursor(const std::vector<uint8_t>& b) : b_(b) {}
    template <typename T>
    bool get(T& v) {
        if (b_.size() - pos_ < sizeof v) return false;
        std::memcpy(&v, b_.data() + pos_, sizeof v);
        pos_ += sizeof v;
        return true;
    }
    bool get_vector(std::vector<uint64_t>& v) {
        uint32_t n = 0;
        if (!get(n) || n > kMaxRanks * uint64_t(kMaxRanks) || (b_.size() - pos_) / sizeof(uint64_t) < n) return false;
        v.resize(n);
        for (auto& x : v) get(x);
        return true;
    }
    bool done() const { return pos_ == b_.size(); }

private:
    const std::vector<uint8_t>& b_;
    size_t pos_ = 0;
};

}  // namespace

uint64_t layout_extent(const std::vector<uint64_t>& counts, const std::vector<uint64_t>& displs) {
    uint64_t extent = 0;
    for (size_t i = 0; i < counts.size() && i < displs.size(); ++i) {
        if (counts[i] > 0) extent = std::max(extent, displs[i] + counts[i]);
    }
    return extent;
}

uint64_t OpDesc::input_bytes(uint32_t rank, uint32_t nranks) const {
    const uint64_t es = dtype_size(dtype);
    switch (kind) {
        case OpKind::AllReduce:
        case OpKind::Reduce:
        case OpKind::AllGather:
        case OpKind::AllGatherV: return count * es;
        case OpKind::Broadcast: return rank == root ? count * es : 0;
        case OpKind::ReduceScatter: return uint64_t(nranks) * count * es;
        case OpKind::ReduceScatterV:
        case OpKind::AlltoAllV: return layout_extent(send_counts, send_displs) * es;
        case OpKind::AlltoAll: return uint64_t(nranks) * count * es;
        case OpKind::Scatter: return rank == root ? uint64_t(nranks) * count * es : 0;
        case OpKind::Barrier: return 0;
    }
    return 0;
}

uint64_t OpDesc::output_bytes(uint32_t rank, uint32_t nranks) const {
    const uint64_t es = dtype_size(dtype);
    switch (kind) {
        case OpKind::AllReduce:
        case OpKind::ReduceScatter:
        case OpKind::ReduceScatterV:
        case OpKind::Scatter: return count * es;
        case OpKind::Broadcast: return rank == root ? 0 : count * es;
        case OpKind::Reduce: return rank == root ? count * es : 0;
        case OpKind::AllGather: return uint64_t(nranks) * count * es;
        case OpKind::AllGatherV: return layout_extent(recv_counts, recv_displs) * es;
        case OpKind::AlltoAll: return uint64_t(nranks) * recv_count * dtype_size(recv_dtype);
        case OpKind::AlltoAllV: return layout_extent(recv_counts, recv_displs) * dtype_size(recv_dtype);
        case OpKind::Barrier: return 0;
    }
    return 0;
}

std::vector<uint8_t> encode(const OpDesc& d) {
    std::vector<uint8_t> out;
    put<uint8_t>(out, kVersion);
    put<uint8_t>(out, static_cast<uint8_t>(d.kind));
    put(out, d.dtype);
    put(out, d.recv_dtype);
    put(out, d.reduce_op);
    put(out, d.root);
    put(out, d.count);
    put(out, d.recv_count);
    put_vector(out, d.send_counts);
    put_vector(out, d.send_displs);
    put_vector(out, d.recv_counts);
    put_vector(out, d.recv_displs);
    return out;
}

bool decode(const std::vector<uint8_t>& bytes, OpDesc& d) {
    Cursor c(bytes);
    uint8_t version = 0, kind = 0;
    if (!c.get(version) || version != kVersion || !c.get(kind)) return false;
    if (kind < uint8_t(OpKind::AllReduce) || kind > uint8_t(OpKind::Barrier)) return false;
    d.kind = static_cast<OpKind>(kind);
    return c.get(d.dtype) && c.get(d.recv_dtype) && c.get(d.reduce_op) && c.get(d.root) && c.get(d.count) &&
           c.get(d.recv_count) && c.get_vector(d.send_counts) && c.get_vector(d.send_displs) &&
           c.get_vector(d.recv_counts) && c.get_vector(d.recv_displs) && c.done();
}

}  // namespace hccl
