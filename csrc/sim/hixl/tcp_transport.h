// A link to an engine of another process over TCP (protocol in wire.h). One request is in
// flight per link; a link whose byte stream broke (peer gone, timeout mid-message) fails every
// later transfer.
#pragma once

#include <memory>
#include <mutex>
#include <string>

#include "endpoint.h"
#include "transport.h"

namespace hixl {

class TcpTransport : public Transport {
public:
    // Connects and greets the remote engine within timeout_ms.
    static Status open(const Endpoint& remote, const std::string& local_name, int32_t timeout_ms,
                       std::unique_ptr<TcpTransport>& out);
    ~TcpTransport() override;
    TcpTransport(const TcpTransport&) = delete;
    TcpTransport& operator=(const TcpTransport&) = delete;

    Status transfer(TransferOp op, const std::vector<TransferOpDesc>& descs, MemRegistry& local,
                    wire::Deadline deadline) override;

private:
    explicit TcpTransport(wire::Fd fd) : link_(std::move(fd)) {}
    Status exchange(TransferOp op, const std::vector<TransferOpDesc>& descs, const char* write_data, uint64_t total,
                    char* read_data, wire::Deadline deadline);
    Status io_failure(wire::IoStatus r);

    std::mutex mutex_;
    wire::Channel link_;
    bool broken_ = false;
};

}  // namespace hixl
