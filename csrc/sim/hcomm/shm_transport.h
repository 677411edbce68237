// The peer-to-peer data path of ranks on one host: a Transport that runs over another
// (local or remote, the "control" transport) and moves a collective's data through the
// ranks' shared-memory segments (shm_segment.h) instead of through the process hosting the
// rendezvous.
//
// A collective: the rank lays its descriptor and input into its segment, then runs the
// operation through the control transport without data (the hub checks the descriptors
// against each other, the ranks agree on the start and place their device tasks exactly as
// on the hub path, so the simulated timeline does not depend on the data path). Once agreed,
// every rank's input is in place; each rank computes its share of every rank's output (the
// executor's Share: for an all-reduce, its 1/n of the elements reduced over all inputs and
// written to all outputs, i.e. the mesh reduce-scatter + all-gather, 2(n-1)/n of the data
// moved per rank), marks its step done and waits until every peer's is; then it copies its
// output out of its segment. A peer that does not finish its step before the deadline, or
// whose process is gone, fails the collective with HCCL_E_TIMEOUT naming it.
//
// At the first collective that moves data the ranks exchange (through the control
// transport's point-to-point path) their pid, segment descriptor and a random token, and
// each opens every peer's segment; the path is used only when every rank could (all ranks
// on one host, the same pid namespace) and the ranks are not all threads of one process
// (those share memory already; they skip the exchange). Otherwise, and for point-to-point operations, the control
// transport carries the data as before. HCCL_SIM_DATA_PATH=hub keeps the data on the hub.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "shm_segment.h"
#include "transport.h"

namespace npusim::hcomm {

class ShmTransport : public Transport {
public:
    ShmTransport(std::unique_ptr<Transport> control, uint32_t nranks);
    Outcome collective(uint32_t rank, const CollectiveRequest& req, const AgreedFn& agreed, Deadline deadline) override;
    Outcome p2p(uint32_t rank, uint64_t earliest, const std::vector<P2PItem>& items, bool data, const AgreedFn& agreed,
                Deadline deadline) override;
    void leave(uint32_t rank) override;

private:
    enum class State { Unknown, On, Off };
    // Exchanges segments with the peers; false when the path cannot be used.
    bool setup(uint32_t rank, Deadline deadline);
    // Marks this rank's data step done and waits for every peer's; false (with the missing
    // rank) when one does not finish in time or is gone.
    bool barrier(uint32_t rank, Deadline deadline, int32_t& missing);

    std::unique_ptr<Transport> control_;
    const uint32_t nranks_;
    State state_ = State::Unknown;
    OwnSegment own_;
    std::vector<PeerSegment> peers_;  // by rank; this rank's entry unused
    std::vector<uint32_t> pids_;
    uint32_t steps_ = 0;  // data steps done (the futex word's value)
};

// The transport a communicator uses: `control` wrapped in the peer-to-peer data path unless
// HCCL_SIM_DATA_PATH=hub (or the communicator has one rank).
std::unique_ptr<Transport> with_data_path(std::unique_ptr<Transport> control, uint32_t nranks);

}  // namespace npusim::hcomm
