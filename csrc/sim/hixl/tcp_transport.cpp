#include "tcp_transport.h"

#include <unistd.h>

#include <cstring>
#include <new>
#include <shared_mutex>

#include "core/log.h"

namespace hixl {

using wire::IoResult;

Status TcpTransport::open(const Endpoint& remote, const std::string& local_name, int32_t timeout_ms,
                          std::unique_ptr<TcpTransport>& out) {
    const wire::Deadline deadline = wire::Deadline::after_ms(timeout_ms);
    bool timed_out = false;
    const int fd = wire::connect_tcp(remote.ip, remote.port, deadline, timed_out);
    if (fd < 0) {
        npusim::log_message(npusim::LogLevel::Error, "HIXL Connect: %s %s", remote.name().c_str(),
                            timed_out ? "did not answer in time" : "refused the connection");
        return timed_out ? TIMEOUT : FAILED;
    }
    std::unique_ptr<TcpTransport> link(new TcpTransport(fd));
    wire::Header h;
    wire::AckHead ack;
    IoResult r = wire::send_header(fd, wire::Kind::Hello, local_name.size(), deadline);
    if (r == IoResult::Ok) r = wire::send_all(fd, local_name.data(), local_name.size(), deadline);
    if (r == IoResult::Ok) r = wire::recv_header(fd, h, deadline);
    if (r == IoResult::Ok && (h.kind != static_cast<uint32_t>(wire::Kind::HelloAck) || h.length != sizeof ack)) {
        r = IoResult::Closed;
    }
    if (r == IoResult::Ok) r = wire::recv_all(fd, &ack, sizeof ack, deadline);
    if (r != IoResult::Ok || ack.status != SUCCESS) {
        npusim::log_message(npusim::LogLevel::Error, "HIXL Connect: %s is not a HIXL engine or did not answer",
                            remote.name().c_str());
        link->broken_ = true;
        return r == IoResult::Timeout ? TIMEOUT : FAILED;
    }
    out = std::move(link);
    return SUCCESS;
}

TcpTransport::~TcpTransport() {
    if (!broken_) (void)wire::send_header(fd_, wire::Kind::Bye, 0, wire::Deadline::after_ms(100));
    ::close(fd_);
}

Status TcpTransport::io_failure(IoResult r) {
    broken_ = true;
    npusim::log_message(npusim::LogLevel::Error, "HIXL transfer: the link to the remote engine %s",
                        r == IoResult::Timeout ? "timed out" : "broke");
    return r == IoResult::Timeout ? TIMEOUT : FAILED;
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
    const uint64_t ranges_bytes = ranges.size() * sizeof(wire::RangeDesc);
    const uint64_t length = sizeof head + ranges_bytes + (op == WRITE ? total : 0);

    IoResult r = wire::send_header(fd_, wire::Kind::Transfer, length, deadline);
    if (r == IoResult::Ok) r = wire::send_all(fd_, &head, sizeof head, deadline);
    if (r == IoResult::Ok) r = wire::send_all(fd_, ranges.data(), ranges_bytes, deadline);
    if (r == IoResult::Ok && op == WRITE) r = wire::send_all(fd_, write_data, total, deadline);
    wire::Header h;
    if (r == IoResult::Ok) r = wire::recv_header(fd_, h, deadline);
    if (r != IoResult::Ok) return io_failure(r);
    wire::AckHead ack;
    if (h.kind != static_cast<uint32_t>(wire::Kind::TransferAck) || h.length < sizeof ack)
        return io_failure(IoResult::Closed);
    r = wire::recv_all(fd_, &ack, sizeof ack, deadline);
    if (r != IoResult::Ok) return io_failure(r);
    const uint64_t data_len = h.length - sizeof ack;
    if (ack.status != SUCCESS) {
        r = wire::discard(fd_, data_len, deadline);
        if (r != IoResult::Ok) return io_failure(r);
        if (ack.status == PARAM_INVALID) {
            npusim::log_message(npusim::LogLevel::Error,
                                "HIXL transfer: a remote range is outside the remote engine's memory");
        }
        return ack.status;
    }
    if (data_len != (op == READ ? total : 0)) return io_failure(IoResult::Closed);
    if (op == READ) {
        r = wire::recv_all(fd_, read_data, total, deadline);
        if (r != IoResult::Ok) return io_failure(r);
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
