#include "shm_transport.h"

#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <string>

#include "core/fault_plan.h"
#include "core/log.h"

namespace npusim::hcomm {

namespace {

// How often a waiting rank looks whether a peer's process is still there.
constexpr int kLivenessCheckMs = 100;

struct SetupRecord {
    uint32_t pid = 0;
    int32_t fd = -1;
    uint64_t token = 0;
};

// A process that ended (or is a zombie) cannot finish its step.
bool process_alive(uint32_t pid) {
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string text;
    if (!stat || !std::getline(stat, text)) return false;
    const auto paren = text.rfind(')');
    if (paren == std::string::npos || paren + 2 >= text.size()) return false;
    const char state = text[paren + 2];
    return state != 'Z' && state != 'X';
}

// Every rank sends `mine` to every other rank and receives theirs into `all` (by rank), over
// the control transport's point-to-point path.
bool all_gather_small(Transport& control, uint32_t rank, uint32_t nranks, const void* mine, uint64_t bytes,
                      uint8_t* all, Deadline deadline) {
    std::vector<P2PItem> items;
    for (uint32_t peer = 0; peer < nranks; ++peer) {
        if (peer == rank) {
            std::memcpy(all + uint64_t(peer) * bytes, mine, static_cast<size_t>(bytes));
            continue;
        }
        P2PItem send;
        send.peer = peer;
        send.send = true;
        send.count = bytes;
        send.dtype = HCCL_DATA_TYPE_UINT8;
        send.bytes = bytes;
        send.src = static_cast<const uint8_t*>(mine);
        items.push_back(send);
        P2PItem recv = send;
        recv.send = false;
        recv.src = nullptr;
        recv.dst = all + uint64_t(peer) * bytes;
        items.push_back(recv);
    }
    return control.p2p(rank, 0, items, true, nullptr, deadline).status == HCCL_SUCCESS;
}

}  // namespace

ShmTransport::ShmTransport(std::unique_ptr<Transport> control, uint32_t nranks)
    : control_(std::move(control)), nranks_(nranks) {}

bool ShmTransport::setup(uint32_t rank, Deadline deadline) {
    std::random_device entropy;
    const uint64_t token = (uint64_t(entropy()) << 32) ^ entropy() ^ uint64_t(::getpid());
    SetupRecord mine;
    if (own_.create(token)) {
        mine.pid = static_cast<uint32_t>(::getpid());
        mine.fd = own_.fd();
        mine.token = token;
    }
    std::vector<SetupRecord> all(nranks_);
    if (!all_gather_small(*control_, rank, nranks_, &mine, sizeof(mine), reinterpret_cast<uint8_t*>(all.data()),
                          deadline)) {
        return false;
    }
    peers_.resize(nranks_);
    pids_.resize(nranks_);
    uint32_t ok = 1, other_process = 0;
    for (uint32_t r = 0; r < nranks_; ++r) {
        pids_[r] = all[r].pid;
        if (all[r].fd < 0) ok = 0;
        if (all[r].pid != mine.pid) other_process = 1;
        if (r != rank && ok != 0 && !peers_[r].open(all[r].pid, all[r].fd, all[r].token)) ok = 0;
    }
    // Every rank must come to the same answer.
    std::vector<uint32_t> oks(nranks_);
    if (!all_gather_small(*control_, rank, nranks_, &ok, sizeof(ok), reinterpret_cast<uint8_t*>(oks.data()),
                          deadline)) {
        return false;
    }
    for (uint32_t v : oks) ok &= v;
    if (ok == 0 || other_process == 0) peers_.clear();
    return ok != 0 && other_process != 0;
}

bool ShmTransport::barrier(uint32_t rank, Deadline deadline, int32_t& missing) {
    ShmHeader* own = own_.header();
    own->done.store(++steps_, std::memory_order_release);
    futex_wake_all(own->done);
    for (uint32_t r = 0; r < nranks_; ++r) {
        if (r == rank) continue;
        std::atomic<uint32_t>& word = peers_[r].header()->done;
        for (uint32_t slices = 0;; ++slices) {
            const uint32_t seen = word.load(std::memory_order_acquire);
            if (static_cast<int32_t>(seen - steps_) >= 0) break;
            const bool alive = slices == 0 || process_alive(pids_[r]);
            if (deadline.passed() || !alive) {
                log_message(LogLevel::Error, "hccl: rank %u: rank %u %s during the data step of collective %u", rank, r,
                            alive ? "did not finish within HCCL_EXEC_TIMEOUT" : "is gone (its process ended)", steps_);
                missing = static_cast<int32_t>(r);
                return false;
            }
            if (slices == 1) {  // once, after the first wait
                log_message(LogLevel::Debug, "hccl: rank %u waits for rank %u to finish the data step of collective %u",
                            rank, r, steps_);
            }
            const int left = deadline.poll_ms();
            futex_wait_for(word, seen, left < 0 ? kLivenessCheckMs : std::min(left + 1, kLivenessCheckMs));
        }
    }
    return true;
}

Outcome ShmTransport::collective(uint32_t rank, const CollectiveRequest& req, const AgreedFn& agreed,
                                 Deadline deadline) {
    // Every rank takes the same branch (a rank whose buffers are empty still takes part in the step).
    if (req.data && state_ == State::Unknown) {
        state_ = !control_->all_local() && setup(rank, deadline) ? State::On : State::Off;
        if (state_ == State::On) {
            log_message(LogLevel::Debug, "hccl: rank %u moves collective data through shared memory with %u peers",
                        rank, nranks_ - 1);
        }
    }
    if (!req.data || state_ != State::On) return control_->collective(rank, req, agreed, deadline);

    Outcome failed;
    failed.status = HCCL_E_INTERNAL;
    if (!own_.prepare(req.desc->size(), req.in_len, req.out_len)) {
        log_message(LogLevel::Error, "hccl: rank %u cannot grow its shared-memory segment to %llu bytes", rank,
                    static_cast<unsigned long long>(req.in_len + req.out_len));
        return failed;
    }
    const ShmHeader* h = own_.header();
    uint8_t* base = own_.mapping().base();
    std::memcpy(base + h->desc_off, req.desc->data(), req.desc->size());
    if (req.in_len > 0) std::memcpy(base + h->in_off, req.in, static_cast<size_t>(req.in_len));

    // The descriptors are checked and the ranks agree through the control transport; when it
    // answers, every rank's input is in its segment.
    CollectiveRequest control = req;
    control.data = false;
    Outcome outcome = control_->collective(rank, control, agreed, deadline);
    if (outcome.status != HCCL_SUCCESS) return outcome;

    std::vector<std::vector<uint8_t>> descs(nranks_);
    std::vector<CollectiveInput> inputs(nranks_);
    for (uint32_t r = 0; r < nranks_; ++r) {
        uint8_t* b = base;
        const ShmHeader* peer = h;
        if (r != rank) {
            if (!peers_[r].refresh()) {
                log_message(LogLevel::Error, "hccl: rank %u cannot map the shared-memory segment of rank %u", rank, r);
                return failed;
            }
            b = peers_[r].base();
            peer = peers_[r].header();
        }
        descs[r].assign(b + peer->desc_off, b + peer->desc_off + peer->desc_len);
        inputs[r] = CollectiveInput{r,
                                    &descs[r],
                                    peer->in_len > 0 ? b + peer->in_off : nullptr,
                                    peer->in_len,
                                    peer->out_len > 0 ? b + peer->out_off : nullptr,
                                    peer->out_len};
    }
    CollectiveExecutor ex = collective_executor();
    (void)NPUSIM_FAULT("HcclShmDataStep");  // a delay here holds this rank inside its data step
    const CollectiveResult result = ex(inputs, true, Share{rank, nranks_});
    int32_t missing = -1;
    if (!barrier(rank, deadline, missing)) {
        state_ = State::Off;  // later operations go through the control transport, which knows the rank is gone
        outcome.status = HCCL_E_TIMEOUT;
        outcome.missing_rank = missing;
        return outcome;
    }
    outcome.status = result.status;
    if (result.status != HCCL_SUCCESS || rank >= result.written.size()) return outcome;
    for (const Segment& s : result.written[rank]) {
        if (req.out != nullptr && s.offset <= req.out_len && s.length <= req.out_len - s.offset) {
            std::memcpy(static_cast<uint8_t*>(req.out) + s.offset, base + h->out_off + s.offset,
                        static_cast<size_t>(s.length));
            outcome.written.push_back(s);
        }
    }
    return outcome;
}

Outcome ShmTransport::p2p(uint32_t rank, uint64_t earliest, const std::vector<P2PItem>& items, bool data,
                          const AgreedFn& agreed, Deadline deadline) {
    return control_->p2p(rank, earliest, items, data, agreed, deadline);
}

void ShmTransport::leave(uint32_t rank) { control_->leave(rank); }

std::unique_ptr<Transport> with_data_path(std::unique_ptr<Transport> control, uint32_t nranks) {
    const char* env = std::getenv("HCCL_SIM_DATA_PATH");
    const std::string path = env != nullptr ? env : "";
    if (path == "hub" || nranks < 2) return control;
    if (!path.empty() && path != "shm") {
        log_message(LogLevel::Error, "hccl: HCCL_SIM_DATA_PATH=%s is not a data path; use shm (default) or hub",
                    path.c_str());
    }
    return std::make_unique<ShmTransport>(std::move(control), nranks);
}

}  // namespace npusim::hcomm
