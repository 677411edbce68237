// Socket links between ranks of different hosts on the peer-to-peer data path
// (shm_transport.h): each rank listens on its host's address (the interface CANN's
// selection picks, host_nic.h), the ranks exchange the addresses through the control
// transport, and each pair of ranks that moves data between hosts holds one TCP connection
// (the lower rank connects, the higher accepts). An exchange moves several messages at once,
// in both directions, without blocking on any one peer (so no cycle of full socket buffers
// can stall it), until the deadline.
#pragma once

#include <poll.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "socket_io.h"

namespace npusim::hcomm {

// A piece of a message: bytes to send from, or to receive into.
struct LinkPiece {
    uint8_t* data = nullptr;
    uint64_t length = 0;
};

// One message to or from a peer, made of pieces in order.
struct LinkMessage {
    uint32_t peer = 0;
    std::vector<LinkPiece> pieces;
};

class HostLinks {
public:
    // Listens on this host's address; false (with a log line) when no address can be bound.
    bool listen(std::string& ip, uint16_t& port);
    // A connection to every partner: the ranks above `rank` are connected to at their
    // address, those below are accepted (each names its rank and token first). The listener
    // stays open for links made later (ensure). False, with the missing rank, when one does not
    // connect in time.
    struct Partner {
        uint32_t rank = 0;
        std::string ip;
        uint16_t port = 0;
        uint64_t token = 0;  // the partner's; a connecting rank sends its own
    };
    bool connect(uint32_t rank, uint64_t token, const std::vector<Partner>& partners, Deadline deadline,
                 int32_t& missing);
    // Sends `outgoing` and receives `incoming` (at most one message each way per peer; every
    // peer a partner). False, with the peer missing, when one closes its end or the deadline
    // passes first.
    bool exchange(const LinkMessage* outgoing, size_t n_out, const LinkMessage* incoming, size_t n_in,
                  Deadline deadline, int32_t& missing);
    bool exchange(const std::vector<LinkMessage>& outgoing, const std::vector<LinkMessage>& incoming, Deadline deadline,
                  int32_t& missing) {
        return exchange(outgoing.data(), outgoing.size(), incoming.data(), incoming.size(), deadline, missing);
    }
    // Bytes sent to other hosts over the links so far (collective and point-to-point data, the
    // sizes sent ahead of inputs; not the connections' greetings).
    uint64_t bytes_sent() const { return bytes_sent_; }
    // The number of peers linked.
    size_t size() const { return links_.size(); }
    // A link to `peer` (point-to-point data between two ranks that exchange no collective
    // data): made now when missing, the same way as connect() (`all`: every rank's address and
    // token, by rank); a lower rank's connection accepted meanwhile for another link is kept.
    bool ensure(uint32_t rank, uint64_t token, uint32_t peer, const std::vector<Partner>& all, Deadline deadline,
                int32_t& missing);

private:
    // Accepts connections until one from `peer`; those of other ranks of `all` are kept.
    bool accept_from(uint32_t peer, const std::vector<Partner>& all, Deadline deadline);

    // Progress of one message.
    struct Flow {
        const LinkMessage* message = nullptr;
        size_t piece = 0;
        uint64_t offset = 0;
        bool done() const { return message == nullptr || piece >= message->pieces.size(); }
        void settle();  // skips the pieces moved (and empty ones)
    };
    // A link taking part in an exchange.
    struct Active {
        uint32_t peer = 0;
        int fd = -1;
        Flow out, in;
    };

    Fd listener_;
    std::map<uint32_t, Fd> links_;  // by peer rank
    uint64_t bytes_sent_ = 0;
    // An exchange's working lists, kept from one to the next (no allocation once grown).
    std::vector<Active> active_;
    std::vector<pollfd> fds_;
    std::vector<size_t> polled_;  // index into active_ of each entry of fds_
};

// An identity shared by the ranks of one host: the boot, the network and pid namespaces and
// the address the host interface selection chose (two "hosts" on one machine, as the loopback
// addresses 127.0.0.1 and 127.0.0.2 or two network namespaces, are told apart).
uint64_t host_identity();

}  // namespace npusim::hcomm
