// The peer-to-peer data path: a Transport that runs over another (local or remote, the
// "control" transport) and moves a collective's data between the ranks themselves instead of
// through the process hosting the rendezvous: through shared-memory segments (shm_segment.h)
// between the ranks of one host, over socket links (host_links.h) between hosts.
//
// A collective: the rank lays its descriptor and input into its segment, then runs the
// operation through the control transport without data (the hub checks the descriptors
// against each other, the ranks agree on the start and place their device tasks exactly as
// on the hub path, so the simulated timeline does not depend on the data path). Once agreed,
// every input of the host's ranks is in place.
//
// Across hosts (hierarchical: shared memory inside a host, sockets between hosts) each rank
// sends its descriptor and input to one rank of every other host (the rank whose index on
// that host is its own index modulo that host's rank count) and receives those sent to it
// into its segment; after a first step barrier of the host's ranks every rank of every host
// is readable on each host. Every byte of an input crosses each inter-host link once.
//
// Then each rank computes its share of its host's outputs (the executor's Share over the
// host's ranks: for an all-reduce, its 1/k of the elements reduced over all inputs in rank
// order — so results equal the hub path's — and written to the host's k outputs, i.e. the
// mesh reduce-scatter + all-gather), marks its step done and waits until every peer of its
// host has; then it copies its output out of its segment. A peer that does not finish in
// time, whose process is gone, or whose link closes fails the collective with HCCL_E_TIMEOUT
// naming it; the rank that saw it marks its segment so that the ranks of its host waiting for
// it fail at once, naming the same rank.
//
// When the communicator is created (or else at the first collective that moves data) the
// ranks exchange (through the control transport's point-to-point path) their pid, segment
// descriptor, random token, host identity and link address; ranks of one host open each
// other's segments, ranks that exchange data across hosts connect. The path is used only when
// every rank could, and the ranks are not all threads of one process (those share memory
// already; they skip the exchange). Otherwise the control transport carries the data as before.
//
// Point-to-point operations (the path is set up as the communicator is created, so from the
// first one): the hub matches the items without data (the sizes are checked, the start agreed);
// then the data goes straight between the two ranks, as a byte stream per (sender, receiver)
// in matching order: through the sender's segment within a host (the sender posts a chunk,
// the receiver copies it and says how far it has taken; the sender returns once all is
// taken), over a socket link between hosts (made at the first use when the pair has none).
// HCCL_SIM_DATA_PATH=hub keeps the data on the hub.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "data_step.h"
#include "host_links.h"
#include "shm_segment.h"
#include "transport.h"

namespace npusim::hcomm {

// It is the DataStep libhccl's data step runs over (data_step.h), during a collective.
class ShmTransport : public Transport, private DataStep {
public:
    ShmTransport(std::unique_ptr<Transport> control, uint32_t nranks);
    // Sets the path up (every rank, as its communicator is created); a collective that moves
    // data sets it up when this was not called.
    void start(uint32_t rank, Deadline deadline) override;
    Outcome collective(uint32_t rank, const CollectiveRequest& req, const AgreedFn& agreed, Deadline deadline) override;
    Outcome p2p(uint32_t rank, uint64_t earliest, const std::vector<P2PItem>& items, bool data, const AgreedFn& agreed,
                Deadline deadline) override;
    void leave(uint32_t rank) override;

private:
    enum class State { Unknown, On, Off };
    // Exchanges segments (and link addresses) with the peers; false when the path cannot be used.
    bool setup(uint32_t rank, Deadline deadline);
    // Connects the ranks this rank exchanges data with across hosts.
    bool connect_hosts(uint32_t rank, uint64_t token, const std::vector<HostLinks::Partner>& all, Deadline deadline);
    // The rank of host `host` that receives rank `sender`'s input.
    uint32_t receiver(uint32_t sender, uint32_t host) const;
    // Moves this rank's input to its receivers on the other hosts and the inputs sent to it
    // into its segment's extra area; false (with the missing rank) on failure.
    bool exchange_across(uint32_t rank, Deadline deadline, int32_t& missing);
    // The descriptor and input of rank `q` of another host, in its receiver's segment here.
    bool remote_input(uint32_t rank, uint32_t q, std::vector<uint8_t>& desc, CollectiveInput& input);
    // The segment (base, header) of rank `r` of this host, remapped when it grew.
    bool segment_of(uint32_t rank, uint32_t r, uint8_t*& base, const ShmHeader*& header);
    // Marks this rank's data step done and waits for every peer of its host; false (with the
    // missing rank) when one does not finish in time, is gone, or gave the step up.
    bool host_barrier(uint32_t rank, Deadline deadline, int32_t& missing);
    // Gives the data step up: the host's ranks waiting for this one fail naming `missing`.
    Outcome abandon(Outcome outcome, int32_t missing);
    // Moves the data of matched point-to-point items: through the segments with ranks of this
    // host, over links with the others; received bytes are dropped unless `deliver`. False (with
    // the missing rank) on failure.
    bool move_p2p(uint32_t rank, const std::vector<P2PItem>& items, bool deliver, Deadline deadline, int32_t& missing);
    // Waits until `ready()` or the word changes, looking every 100 ms whether rank `r`'s process
    // is alive and whether it gave its step up; false (with the missing rank) when not in time.
    bool wait_for(uint32_t rank, uint32_t r, std::atomic<uint32_t>& word, const std::function<bool()>& ready,
                  Deadline deadline, int32_t& missing);

    // DataStep, for the collective under way (step_*).
    const std::vector<std::vector<uint32_t>>& hosts() const override { return hosts_; }
    uint32_t rank() const override { return step_rank_; }
    uint32_t host_of(uint32_t r) const override { return host_of_[r]; }
    uint32_t index_of(uint32_t r) const override { return index_of_[r]; }
    const uint8_t* input(uint32_t r) override;
    uint8_t* scratch(uint64_t bytes) override;
    const uint8_t* scratch_of(uint32_t r) override;
    bool barrier() override;
    void send(uint32_t peer, const uint8_t* data, uint64_t length) override;
    void receive(uint32_t peer, uint8_t* data, uint64_t length) override;
    bool exchange() override;
    uint8_t* output() const override { return step_out_; }
    uint64_t output_len() const override { return step_out_len_; }
    // The base of rank r's segment of this host (a failure to map it fails the step).
    uint8_t* step_segment(uint32_t r, const ShmHeader*& header);

    std::unique_ptr<Transport> control_;
    const uint32_t nranks_;
    State state_ = State::Unknown;
    OwnSegment own_;
    std::vector<PeerSegment> peers_;  // by rank; entries of this host's other ranks only
    std::vector<uint32_t> pids_;
    uint32_t steps_ = 0;  // data steps done (the futex word's value; two per collective across hosts)
    uint32_t collectives_ = 0;  // collectives that moved data here (named in log lines)
    // Hosts: ranks grouped by host identity, in order of their lowest rank.
    std::vector<std::vector<uint32_t>> hosts_;
    std::vector<uint32_t> host_of_, index_of_;  // by rank: its host, its index there
    std::vector<uint32_t> receivers_;  // this rank's input goes to these (one per other host)
    std::vector<uint32_t> senders_;  // inputs this rank receives, ascending
    HostLinks links_;
    std::vector<HostLinks::Partner> addresses_;  // every rank's link address and token, by rank
    uint64_t token_ = 0;  // this rank's
    std::vector<uint64_t> sent_, got_;  // point-to-point stream bytes to and from each rank of this host
    bool p2p_logged_ = false;
    // The collective under way on the data step.
    uint32_t step_rank_ = 0;
    Deadline step_deadline_;
    uint8_t* step_out_ = nullptr;
    uint64_t step_out_len_ = 0;
    int32_t step_missing_ = -1;
    std::vector<uint8_t> step_fallback_;  // scratch when the segment cannot grow (the step fails)
    // Messages to and from other hosts, kept from one collective to the next (no allocation once
    // grown): the first *_used_ entries are queued.
    std::vector<LinkMessage> outbox_, inbox_;
    size_t out_used_ = 0, in_used_ = 0;
    // The executor's view of the ranks (collectives left to the executor's shares), reused.
    std::vector<std::vector<uint8_t>> descs_;
    std::vector<CollectiveInput> inputs_;
};

// The transport a communicator uses: `control` wrapped in the peer-to-peer data path unless
// HCCL_SIM_DATA_PATH=hub (or the communicator has one rank).
std::unique_ptr<Transport> with_data_path(std::unique_ptr<Transport> control, uint32_t nranks);

}  // namespace npusim::hcomm
