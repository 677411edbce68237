// The rendezvous a process hosts for a communicator (HcclGetRootInfo, or the first rank
// of a rank-table communicator): a listening socket, the communicator's Group, and one
// thread per rank that connects from another process, which turns that rank's messages
// into Group calls and sends back the replies. Ranks in the hosting process use the Group
// directly. Once every rank has joined the server stops listening and leaves the registry.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

#include "group.h"
#include "socket_io.h"
#include "wire.h"

namespace npusim::hcomm {

class HubServer : public std::enable_shared_from_this<HubServer> {
public:
    // Listens on host:port (port 0: any free port). nullptr, `error` and `error_number` (errno)
    // on failure. `key` tells communicators apart that meet at the same address (a rank table's
    // fingerprint; 0 for a root info): a rank that brings another key is turned away.
    static std::shared_ptr<HubServer> start(const std::string& host, uint16_t port, uint64_t uid, uint64_t key,
                                            std::string* error, int* error_number = nullptr);

    uint64_t uid() const { return uid_; }
    const std::string& host() const { return host_; }
    uint16_t port() const { return port_; }

    // The communicator's group; the first call fixes its rank count.
    std::shared_ptr<Group> group(uint32_t nranks);
    void stop();

    HubServer(uint64_t uid, uint64_t key, std::string host, uint16_t port, Fd listener);

private:
    void accept_loop();
    void serve(std::shared_ptr<Channel> channel);

    const uint64_t uid_;
    const uint64_t key_;
    const std::string host_;
    const uint16_t port_;
    Fd listener_;
    std::mutex mutex_;
    std::shared_ptr<Group> group_;
};

}  // namespace npusim::hcomm
