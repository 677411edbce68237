// The listening side of an engine: accepts links from engines of other processes and serves
// their transfers against the engine's registered memory, one thread per link (the transport
// layer's Acceptor). stop() wakes and joins every thread.
#pragma once

#include <cstdint>

#include "endpoint.h"
#include "hixl/hixl_types.h"
#include "mem_registry.h"
#include "transport/acceptor.h"
#include "wire.h"

namespace hixl {

class TcpServer {
public:
    explicit TcpServer(MemRegistry& memory) : memory_(memory) {}
    ~TcpServer() { stop(); }
    TcpServer(const TcpServer&) = delete;
    TcpServer& operator=(const TcpServer&) = delete;

    // Listens on ep (port 0: any free port); `bound_port` is the port in use.
    Status start(const Endpoint& ep, uint16_t& bound_port);
    void stop() { acceptor_.stop(); }

private:
    void serve(const wire::Fd& fd);
    // False when the stream is no longer usable.
    bool serve_transfer(wire::Channel& link, const wire::Message& request);

    MemRegistry& memory_;
    npusim::transport::Acceptor acceptor_;
};

}  // namespace hixl
