#include "tcp_transport.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <new>
#include <shared_mutex>

#include "core/log.h"

namespace hixl {

using wire::IoStatus;

namespace {

// The acknowledgement of a request: an AckHead meta of the expected kind, else the link broke.
IoStatus receive_ack(wire::Channel& link, wire::Kind kind, wire::AckHead& ack, uint64_t& payload,
                     wire::Deadline deadline) {
    wire::Message msg;
    const IoStatus r = link.receive(msg, deadline);
    if (r != IoStatus::Ok) return r;
    npusim::transport::Reader meta(msg.meta);
    ack = meta.get<wire::AckHead>();
    if (msg.type != kind || !meta.ok() || msg.meta.size() != sizeof ack) return IoStatus::Closed;
    payload = msg.payload;
    return IoStatus::Ok;
}

}  // namespace

Status TcpTransport::open(const Endpoint& remote, const std::string& local_name, int32_t timeout_ms,
                          std::unique_ptr<TcpTransport>& out) {
    const wire::Deadline deadline = wire::Deadline::after_ms(timeout_ms);
    IoStatus why = IoStatus::Closed;
    wire::Fd fd = npusim::transport::connect_tcp(remote.ip, remote.port, std::string(),
                                                 std::chrono::milliseconds(std::max(timeout_ms, 1)), &why);
    if (!fd.valid()) {
        const bool timed_out = why == IoStatus::Timeout;
        npusim::log_message(npusim::LogLevel::Error, "HIXL Connect: %s %s", remote.name().c_str(),
                            timed_out ? "did not answer in time" : "refused the connection");
        return timed_out ? TIMEOUT : FAILED;
    }
    std::unique_ptr<TcpTransport> link(new TcpTransport(std::move(fd)));
    wire::Writer hello;
    hello.raw(local_name.data(), local_name.size());
    wire::AckHead ack;
    uint64_t payload = 0;
    IoStatus r = link->link_.send(wire::Kind::Hello, 0, hello, {}, deadline);
    if (r == IoStatus::Ok) r = receive_ack(link->link_, wire::Kind::HelloAck, ack, payload, deadline);
    if (r == IoStatus::Ok && payload != 0) r = IoStatus::Closed;
    if (r != IoStatus::Ok || ack.status != SUCCESS) {
        npusim::log_message(npusim::LogLevel::Error, "HIXL Connect: %s is not a HIXL engine or did not answer",
                            remote.name().c_str());
        link->broken_ = true;
        return r == IoStatus::Timeout ? TIMEOUT : FAILED;
    }
    out = std::move(link);
    return SUCCESS;
}

TcpTransport::~TcpTransport() {
    if (!broken_) (void)link_.send(wire::Kind::Bye, 0, wire::Writer(), {}, wire::Deadline::after_ms(100));
}

Status TcpTransport::io_failure(IoStatus r) {
    broken_ = true;
    npusim::log_message(npusim::LogLevel::Error, "HIXL transfer: the link to the remote engine %s",
                        r == IoStatus::Timeout ? "timed out" : "broke");
    return r == IoStatus::Timeout ? TIMEOUT : FAILED;
}

Status TcpTransport::exchange(TransferOp op, const std::vector<TransferOpDesc>& descs, const char* write_data,
                              uint64_t total, char* read_data, wire::Deadline deadline) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (broken_) return FAILED;
    wire::TransferHead head;
    head.op = static_cast<uint32_t>(op);
    head.count = static_cast<uint32_t>(descs.size());
    std::vector<wire::RangeDesc> ranges(descs.size());
    for (size_t i = 0; i < descs.size(); ++i) ranges[i] = wire::RangeDesc{descs[i].remote_addr, descs[i].len};
    std::vector<wire::Piece> payload{{ranges.data(), ranges.size() * sizeof(wire::RangeDesc)}};
    if (op == WRITE) payload.emplace_back(write_data, total);
    IoStatus r = link_.send(wire::Kind::Transfer, 0, wire::Writer().put(head), payload, deadline);
    wire::AckHead ack;
    uint64_t data_len = 0;
    if (r == IoStatus::Ok) r = receive_ack(link_, wire::Kind::TransferAck, ack, data_len, deadline);
    if (r != IoStatus::Ok) return io_failure(r);
    if (ack.status != SUCCESS) {
        r = npusim::transport::skip_bytes(link_.fd(), data_len, deadline);
        if (r != IoStatus::Ok) return io_failure(r);
        if (ack.status == PARAM_INVALID) {
            npusim::log_message(npusim::LogLevel::Error,
                                "HIXL transfer: a remote range is outside the remote engine's memory");
        }
        return ack.status;
    }
    if (data_len != (op == READ ? total : 0)) return io_failure(IoStatus::Closed);
    if (op == READ) {
        r = npusim::transport::read_all(link_.fd(), read_data, total, deadline);
        if (r != IoStatus::Ok) return io_failure(r);
    }
    return SUCCESS;
}

Status TcpTransport::transfer(TransferOp op, const std::vector<TransferOpDesc>& descs, MemRegistry& local,
                              wire::Deadline deadline) {
    uint64_t total = 0;
    for (const TransferOpDesc& d : descs) total += d.len;
    std::unique_ptr<char[]> buffer(new (std::nothrow) char[total]);
    if (!buffer) return FAILED;
    {
        // Check the local ranges (and, for WRITE, take the data) before anything goes out.
        std::shared_lock<std::shared_mutex> lock(local.mutex());
        if (!locals_covered(local, descs)) {
            npusim::log_message(npusim::LogLevel::Error, "HIXL transfer: a local range is outside registered memory");
            return PARAM_INVALID;
        }
        if (op == WRITE) {
            char* p = buffer.get();
            for (const TransferOpDesc& d : descs) {
                std::memcpy(p, reinterpret_cast<const void*>(d.local_addr), d.len);
                p += d.len;
            }
        }
    }
    const Status st = exchange(op, descs, buffer.get(), total, buffer.get(), deadline);
    if (st != SUCCESS || op == WRITE) return st;
    std::shared_lock<std::shared_mutex> lock(local.mutex());
    if (!locals_covered(local, descs)) {  // deregistered while the data travelled
        npusim::log_message(npusim::LogLevel::Error, "HIXL transfer: local memory was deregistered during a READ");
        return PARAM_INVALID;
    }
    const char* p = buffer.get();
    for (const TransferOpDesc& d : descs) {
        std::memcpy(reinterpret_cast<void*>(d.local_addr), p, d.len);
        p += d.len;
    }
    return SUCCESS;
}

}  // namespace hixl
