#include "transport/frame.h"

namespace npusim::transport {

FramePrefix make_prefix(uint32_t magic, uint32_t type, uint64_t request, uint32_t meta_length, uint64_t payload) {
    FramePrefix p;
    p.header = FrameHeader{magic, type, request, sizeof(uint32_t) + uint64_t(meta_length) + payload};
    p.meta_length = meta_length;
    return p;
}

void encode_prefix(const FramePrefix& prefix, uint8_t (&out)[kFramePrefixBytes]) {
    std::memcpy(out, &prefix.header, sizeof prefix.header);
    std::memcpy(out + sizeof prefix.header, &prefix.meta_length, sizeof prefix.meta_length);
}

bool header_valid(const FrameHeader& header, uint32_t magic) {
    return header.magic == magic && header.body >= sizeof(uint32_t);
}

bool meta_length_valid(const FrameHeader& header, uint32_t meta_length) {
    return meta_length <= kMaxMeta && meta_length <= header.body - sizeof(uint32_t);
}

bool decode_prefix(const uint8_t (&in)[kFramePrefixBytes], uint32_t magic, FramePrefix& out) {
    FramePrefix p;
    std::memcpy(&p.header, in, sizeof p.header);
    std::memcpy(&p.meta_length, in + sizeof p.header, sizeof p.meta_length);
    if (!header_valid(p.header, magic) || !meta_length_valid(p.header, p.meta_length)) return false;
    out = p;
    return true;
}

IoStatus FramedLink::send(uint32_t type, uint64_t request, const Writer& meta, const std::vector<Piece>& payload,
                          Deadline deadline) {
    uint64_t total = 0;
    for (const Piece& p : payload) total += p.second;
    const auto meta_len = static_cast<uint32_t>(meta.bytes().size());
    uint8_t prefix[kFramePrefixBytes];
    encode_prefix(make_prefix(magic_, type, request, meta_len, total), prefix);
    std::lock_guard<std::mutex> lock(write_mutex_);
    IoStatus st = write_all(*fd_, prefix, sizeof prefix, deadline);
    if (st == IoStatus::Ok && meta_len > 0) st = write_all(*fd_, meta.bytes().data(), meta_len, deadline);
    for (const Piece& p : payload) {
        if (st != IoStatus::Ok) break;
        if (p.second > 0) st = write_all(*fd_, p.first, static_cast<size_t>(p.second), deadline);
    }
    return st;
}

IoStatus FramedLink::receive(Message<uint32_t>& out, Deadline deadline) {
    // The header first: a peer of another protocol is refused before more is read.
    FramePrefix prefix;
    IoStatus st = read_all(*fd_, &prefix.header, sizeof prefix.header, deadline);
    if (st != IoStatus::Ok) return st;
    if (!header_valid(prefix.header, magic_)) return IoStatus::Error;
    st = read_all(*fd_, &prefix.meta_length, sizeof prefix.meta_length, deadline);
    if (st != IoStatus::Ok) return st;
    if (!meta_length_valid(prefix.header, prefix.meta_length)) return IoStatus::Error;
    out.type = prefix.header.type;
    out.request = prefix.header.request;
    out.meta.assign(prefix.meta_length, 0);
    if (prefix.meta_length > 0) st = read_all(*fd_, out.meta.data(), prefix.meta_length, deadline);
    out.payload = payload_bytes(prefix);
    return st;
}

}  // namespace npusim::transport
