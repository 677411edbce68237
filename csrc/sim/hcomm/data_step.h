// The data step of a collective on the peer-to-peer path (shm_transport.h) as libhccl runs
// it: libhcomm offers the ranks' layout by host, the inputs in the segments of this host's
// ranks, a scratch area per rank, barriers of the host's ranks and messages to ranks of other
// hosts; libhccl (which knows the operations) moves and reduces the data with them
// (hccl/data_step.h: the hierarchical movement). It runs after the ranks have agreed through
// the hub, so every rank's input is in its segment and the descriptors agree.
#pragma once

#include <cstdint>
#include <vector>

#include "core/export.h"
#include "exchange.h"

namespace npusim::hcomm {

class DataStep {
public:
    virtual ~DataStep() = default;
    // Ranks by host: each host's ranks ascending, hosts in order of their lowest rank.
    virtual const std::vector<std::vector<uint32_t>>& hosts() const = 0;
    virtual uint32_t rank() const = 0;
    virtual uint32_t host_of(uint32_t r) const = 0;
    virtual uint32_t index_of(uint32_t r) const = 0;  // its index among its host's ranks
    // The input of rank r of this host as it laid it into its segment (null when empty). A
    // pointer stays valid until the next input() or scratch_of() of the same rank.
    virtual const uint8_t* input(uint32_t r) = 0;
    // This rank's scratch area of at least `bytes`, in its segment (contents are not kept from
    // one collective to the next). Pointers into this rank's own segment taken before are
    // invalid after it.
    virtual uint8_t* scratch(uint64_t bytes) = 0;
    // The scratch area of rank r of this host; readable once a barrier has followed r's scratch()
    // and r's writes. Valid like input().
    virtual const uint8_t* scratch_of(uint32_t r) = 0;
    // Waits until every rank of this host has reached its same barrier; false when one is
    // missing (the step then fails; stop and return).
    virtual bool barrier() = 0;
    // Queues bytes to send to, or receive from, a rank of another host; exchange() moves every
    // queued piece at once (in both directions, pieces per peer in queuing order) and clears
    // the queues. Pairs that may exchange: ranks x, y of different hosts where the index of one
    // is the other's index modulo the rank count of the first's host. False when a peer is
    // missing (its process ended, its link closed or the execution timeout passed).
    virtual void send(uint32_t peer, const uint8_t* data, uint64_t length) = 0;
    virtual void receive(uint32_t peer, uint8_t* data, uint64_t length) = 0;
    virtual bool exchange() = 0;
    // The caller's output buffer (null when it has none).
    virtual uint8_t* output() const = 0;
    virtual uint64_t output_len() const = 0;
};

// Runs the data step of the collective `desc`: true when it has a movement for the operation
// (`outcome`'s status and written segments of this rank's output are set; every rank of the
// collective makes the same choice), false when the transport is to move every input whole
// and run the executor's shares.
using DataStepFn = bool (*)(DataStep& step, const std::vector<uint8_t>& desc, Outcome& outcome);

// libhccl registers its data step when it is loaded.
NPUSIM_API void set_data_step(DataStepFn fn);
DataStepFn data_step();

}  // namespace npusim::hcomm
