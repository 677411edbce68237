#include "tcp_server.h"

#include <cstring>
#include <memory>
#include <new>
#include <shared_mutex>
#include <string>
#include <vector>

#include "core/log.h"

namespace hixl {

using wire::IoStatus;

namespace {

bool send_ack(wire::Channel& link, wire::Kind kind, Status status, const char* data, uint64_t len) {
    wire::AckHead ack;
    ack.status = status;
    std::vector<wire::Piece> payload;
    if (len > 0) payload.emplace_back(data, len);
    return link.send(kind, 0, wire::Writer().put(ack), payload) == IoStatus::Ok;
}

}  // namespace

Status TcpServer::start(const Endpoint& ep, uint16_t& bound_port) {
    std::string error;
    wire::Fd listener = npusim::transport::listen_tcp(ep.ip, ep.port, &bound_port, &error);
    if (!listener.valid()) {
        npusim::log_message(npusim::LogLevel::Error, "HIXL Initialize: cannot listen on %s: %s", ep.name().c_str(),
                            error.c_str());
        return FAILED;
    }
    acceptor_.start(std::move(listener), [this](const wire::Fd& fd) { serve(fd); });
    return SUCCESS;
}

void TcpServer::serve(const wire::Fd& fd) {
    wire::Channel link(npusim::transport::Borrowed{}, fd);  // the Acceptor owns and closes the descriptor
    for (bool open = true; open;) {
        wire::Message msg;
        if (link.receive(msg) != IoStatus::Ok || msg.payload > wire::kMaxPayload) break;
        switch (msg.type) {
            case wire::Kind::Hello:
                open = npusim::transport::skip_bytes(link.fd(), msg.payload) == IoStatus::Ok &&
                       send_ack(link, wire::Kind::HelloAck, SUCCESS, nullptr, 0);
                break;
            case wire::Kind::Transfer: open = serve_transfer(link, msg); break;
            default: open = false;  // Bye, or a message this side does not know
        }
    }
}

bool TcpServer::serve_transfer(wire::Channel& link, const wire::Message& request) {
    const wire::Fd& fd = link.fd();
    npusim::transport::Reader meta(request.meta);
    wire::TransferHead head = meta.get<wire::TransferHead>();
    if (!meta.ok()) return false;
    const uint64_t ranges_bytes = uint64_t(head.count) * sizeof(wire::RangeDesc);
    if (request.payload < ranges_bytes) return false;
    std::vector<wire::RangeDesc> ranges(head.count);
    if (npusim::transport::read_all(fd, ranges.data(), ranges_bytes) != IoStatus::Ok) return false;
    const uint64_t data_len = request.payload - ranges_bytes;
    uint64_t total = 0;
    bool sane = head.op == READ || head.op == WRITE;
    for (const wire::RangeDesc& r : ranges) {
        sane = sane && r.len != 0 && total + r.len > total;
        total += r.len;
    }
    if (!sane || data_len != (head.op == WRITE ? total : 0)) {
        if (npusim::transport::skip_bytes(fd, data_len) != IoStatus::Ok) return false;
        return send_ack(link, wire::Kind::TransferAck, PARAM_INVALID, nullptr, 0);
    }
    std::unique_ptr<char[]> buffer(new (std::nothrow) char[total]);
    if (!buffer) {
        if (npusim::transport::skip_bytes(fd, data_len) != IoStatus::Ok) return false;
        return send_ack(link, wire::Kind::TransferAck, FAILED, nullptr, 0);
    }
    if (head.op == WRITE && npusim::transport::read_all(fd, buffer.get(), total) != IoStatus::Ok) return false;
    Status status = SUCCESS;
    {
        std::shared_lock<std::shared_mutex> lock(memory_.mutex());
        for (const wire::RangeDesc& r : ranges) {
            if (!memory_.covers(r.addr, r.len)) status = PARAM_INVALID;
        }
        char* p = buffer.get();
        for (size_t i = 0; status == SUCCESS && i < ranges.size(); ++i) {
            void* target = reinterpret_cast<void*>(ranges[i].addr);
            if (head.op == WRITE) std::memcpy(target, p, ranges[i].len);
            else std::memcpy(p, target, ranges[i].len);
            p += ranges[i].len;
        }
    }
    if (status != SUCCESS) {
        npusim::log_message(npusim::LogLevel::Error, "HIXL server: a requested range is outside registered memory");
    }
    const bool with_data = status == SUCCESS && head.op == READ;
    return send_ack(link, wire::Kind::TransferAck, status, buffer.get(), with_data ? total : 0);
}

}  // namespace hixl
