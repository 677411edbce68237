#include "wire.h"

namespace npusim::hcomm {

namespace {

struct Header {
    uint32_t magic;
    uint32_t type;
    uint64_t request;
    uint64_t body;
};
static_assert(sizeof(Header) == 24, "wire header is 24 bytes");

constexpr uint32_t kMaxMeta = 64u << 20;  // a sanity bound on the fixed fields

}  // namespace

IoStatus Channel::send(MsgType type, uint64_t request, const Writer& meta, const std::vector<Piece>& payload) {
    uint64_t payload_bytes = 0;
    for (const Piece& p : payload) payload_bytes += p.second;
    const auto meta_len = static_cast<uint32_t>(meta.bytes().size());
    const Header h{kWireMagic, static_cast<uint32_t>(type), request, sizeof(uint32_t) + meta_len + payload_bytes};
    std::lock_guard<std::mutex> lock(write_mutex_);
    IoStatus st = write_all(fd_, &h, sizeof h);
    if (st == IoStatus::Ok) st = write_all(fd_, &meta_len, sizeof meta_len);
    if (st == IoStatus::Ok && meta_len > 0) st = write_all(fd_, meta.bytes().data(), meta_len);
    for (const Piece& p : payload) {
        if (st != IoStatus::Ok) break;
        if (p.second > 0) st = write_all(fd_, p.first, static_cast<size_t>(p.second));
    }
    return st;
}

IoStatus Channel::receive(Incoming& out, Deadline deadline) {
    Header h{};
    IoStatus st = read_all(fd_, &h, sizeof h, deadline);
    if (st != IoStatus::Ok) return st;
    uint32_t meta_len = 0;
    if (h.magic != kWireMagic || h.body < sizeof meta_len) return IoStatus::Error;
    st = read_all(fd_, &meta_len, sizeof meta_len, deadline);
    if (st != IoStatus::Ok) return st;
    if (meta_len > kMaxMeta || meta_len > h.body - sizeof meta_len) return IoStatus::Error;
    out.type = static_cast<MsgType>(h.type);
    out.request = h.request;
    out.meta.assign(meta_len, 0);
    if (meta_len > 0) st = read_all(fd_, out.meta.data(), meta_len, deadline);
    out.payload = h.body - sizeof meta_len - meta_len;
    return st;
}

}  // namespace npusim::hcomm
