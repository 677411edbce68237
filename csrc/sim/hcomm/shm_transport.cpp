#include "shm_transport.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
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
    uint64_t host = 0;  // host_identity()
    uint16_t port = 0;  // the rank's link listener (0: none)
    char ip[62] = {};   // its address, NUL-terminated
};

// What a rank sends ahead of its input across hosts, so that the receiver can make room.
struct InputHeader {
    uint64_t desc_len = 0;
    uint64_t in_len = 0;
};

// An input received from another host, as laid out in the receiver's extra area: this
// record, the descriptor right after it, the input at `in_at`; the next record `record_size` on.
struct ExtraRecord {
    uint32_t rank = 0;
    uint32_t reserved = 0;
    uint64_t desc_len = 0;
    uint64_t in_len = 0;
};

uint64_t align64(uint64_t n) { return (n + 63) / 64 * 64; }
uint64_t in_at(uint64_t desc_len) { return align64(sizeof(ExtraRecord) + desc_len); }
uint64_t record_size(uint64_t desc_len, uint64_t in_len) { return align64(in_at(desc_len) + in_len); }

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
    mine.host = host_identity();
    std::string ip;
    token_ = token;
    if (own_.create(token, nranks_) && links_.listen(ip, mine.port) && ip.size() < sizeof(mine.ip)) {
        mine.pid = static_cast<uint32_t>(::getpid());
        mine.fd = own_.fd();
        mine.token = token;
        std::memcpy(mine.ip, ip.data(), ip.size());
    }
    std::vector<SetupRecord> all(nranks_);
    if (!all_gather_small(*control_, rank, nranks_, &mine, sizeof(mine), reinterpret_cast<uint8_t*>(all.data()),
                          deadline)) {
        return false;
    }
    peers_.resize(nranks_);
    pids_.resize(nranks_);
    host_of_.assign(nranks_, 0);
    index_of_.assign(nranks_, 0);
    hosts_.clear();
    std::vector<uint64_t> identities;
    uint32_t ok = 1, other_process = 0;
    std::vector<HostLinks::Partner> partners(nranks_);
    for (uint32_t r = 0; r < nranks_; ++r) {
        pids_[r] = all[r].pid;
        if (all[r].fd < 0) ok = 0;
        if (all[r].pid != mine.pid) other_process = 1;
        const auto found = std::find(identities.begin(), identities.end(), all[r].host);
        host_of_[r] = static_cast<uint32_t>(found - identities.begin());
        if (found == identities.end()) {
            identities.push_back(all[r].host);
            hosts_.emplace_back();
        }
        index_of_[r] = static_cast<uint32_t>(hosts_[host_of_[r]].size());
        hosts_[host_of_[r]].push_back(r);
        all[r].ip[sizeof(all[r].ip) - 1] = '\0';
        partners[r] = HostLinks::Partner{r, all[r].ip, all[r].port, all[r].token};
    }
    for (uint32_t r = 0; r < nranks_; ++r) {
        if (r != rank && ok != 0 && host_of_[r] == host_of_[rank] &&
            !peers_[r].open(all[r].pid, all[r].fd, all[r].token)) {
            ok = 0;
        }
    }
    if (ok != 0 && hosts_.size() > 1 && !connect_hosts(rank, token, partners, deadline)) ok = 0;
    if (hosts_.size() == 1) links_ = HostLinks();  // one host: no links, the listener closes
    addresses_ = partners;
    sent_.assign(nranks_, 0);
    got_.assign(nranks_, 0);
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

uint32_t ShmTransport::receiver(uint32_t sender, uint32_t host) const {
    const std::vector<uint32_t>& ranks = hosts_[host];
    return ranks[index_of_[sender] % ranks.size()];
}

bool ShmTransport::connect_hosts(uint32_t rank, uint64_t token, const std::vector<HostLinks::Partner>& all,
                                 Deadline deadline) {
    const uint32_t here = host_of_[rank];
    receivers_.clear();
    senders_.clear();
    for (uint32_t h = 0; h < hosts_.size(); ++h) {
        if (h != here) receivers_.push_back(receiver(rank, h));
    }
    for (uint32_t q = 0; q < nranks_; ++q) {
        if (host_of_[q] != here && receiver(q, here) == rank) senders_.push_back(q);
    }
    std::vector<uint32_t> ranks = receivers_;
    ranks.insert(ranks.end(), senders_.begin(), senders_.end());
    std::sort(ranks.begin(), ranks.end());
    ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
    std::vector<HostLinks::Partner> partners;
    for (uint32_t r : ranks) partners.push_back(all[r]);
    int32_t missing = -1;
    return links_.connect(rank, token, partners, deadline, missing);
}

bool ShmTransport::host_barrier(uint32_t rank, Deadline deadline, int32_t& missing) {
    ShmHeader* own = own_.header();
    own->done.store(++steps_, std::memory_order_release);
    futex_wake_all(own->done);
    for (uint32_t r : hosts_[host_of_[rank]]) {
        if (r == rank) continue;
        ShmHeader* peer = peers_[r].header();
        bool graced = false;
        for (uint32_t slices = 0;; ++slices) {
            const uint32_t seen = peer->done.load(std::memory_order_acquire);
            const int32_t abandoned = peer->abandoned.load(std::memory_order_acquire);
            if (abandoned != 0) {
                missing = abandoned - 1;
                log_message(LogLevel::Error,
                            "hccl: rank %u: rank %u gave up the data step of collective %u: rank %d is missing", rank,
                            r, collectives_, missing);
                return false;
            }
            if (static_cast<int32_t>(seen - steps_) >= 0) break;
            const bool alive = slices == 0 || process_alive(pids_[r]);
            if (deadline.passed() && alive && !graced) {
                // The peer's own deadline is about ours: when it gave up waiting for a rank of
                // another host, name that rank rather than the peer.
                graced = true;
                futex_wait_for(peer->done, seen, kLivenessCheckMs);
                continue;
            }
            if (deadline.passed() || !alive) {
                log_message(LogLevel::Error, "hccl: rank %u: rank %u %s during the data step of collective %u", rank, r,
                            alive ? "did not finish within HCCL_EXEC_TIMEOUT" : "is gone (its process ended)",
                            collectives_);
                missing = static_cast<int32_t>(r);
                return false;
            }
            if (slices == 1) {  // once, after the first wait
                log_message(LogLevel::Debug, "hccl: rank %u waits for rank %u to finish the data step of collective %u",
                            rank, r, collectives_);
            }
            const int left = deadline.poll_ms();
            futex_wait_for(peer->done, seen, left < 0 ? kLivenessCheckMs : std::min(left + 1, kLivenessCheckMs));
        }
    }
    return true;
}

Outcome ShmTransport::abandon(Outcome outcome, int32_t missing) {
    ShmHeader* own = own_.header();
    own->abandoned.store(missing + 1, std::memory_order_release);
    futex_wake_all(own->done);
    state_ = State::Off;  // later operations go through the control transport, which knows the rank is gone
    outcome.status = HCCL_E_TIMEOUT;
    outcome.missing_rank = missing;
    outcome.written.clear();
    return outcome;
}

bool ShmTransport::exchange_across(uint32_t rank, Deadline deadline, int32_t& missing) {
    // First the sizes (small: never stalls on a full socket buffer), then the bytes.
    const ShmHeader* h = own_.header();
    InputHeader sent{h->desc_len, h->in_len};
    std::vector<InputHeader> heads(senders_.size());
    std::vector<LinkMessage> out, in;
    for (uint32_t r : receivers_)
        out.push_back(LinkMessage{r, {LinkPiece{reinterpret_cast<uint8_t*>(&sent), sizeof(sent)}}});
    for (size_t i = 0; i < senders_.size(); ++i) {
        in.push_back(LinkMessage{senders_[i], {LinkPiece{reinterpret_cast<uint8_t*>(&heads[i]), sizeof(InputHeader)}}});
    }
    if (!links_.exchange(out, in, deadline, missing)) return false;
    uint64_t extra = 0;
    for (const InputHeader& x : heads) extra += record_size(x.desc_len, x.in_len);
    if (!own_.reserve_extra(extra)) {
        log_message(LogLevel::Error, "hccl: rank %u cannot grow its shared-memory segment by %llu bytes", rank,
                    static_cast<unsigned long long>(extra));
        missing = static_cast<int32_t>(rank);
        return false;
    }
    h = own_.header();
    uint8_t* base = own_.mapping().base();
    const std::vector<LinkPiece> mine{{base + h->desc_off, h->desc_len}, {base + h->in_off, h->in_len}};
    for (LinkMessage& m : out) m.pieces = mine;
    in.clear();
    uint64_t at = h->extra_off;
    for (size_t i = 0; i < senders_.size(); ++i) {
        const ExtraRecord record{senders_[i], 0, heads[i].desc_len, heads[i].in_len};
        std::memcpy(base + at, &record, sizeof(record));
        in.push_back(LinkMessage{
            senders_[i],
            {{base + at + sizeof(record), record.desc_len}, {base + at + in_at(record.desc_len), record.in_len}}});
        at += record_size(record.desc_len, record.in_len);
    }
    return links_.exchange(out, in, deadline, missing);
}

bool ShmTransport::segment_of(uint32_t rank, uint32_t r, uint8_t*& base, const ShmHeader*& header) {
    if (r == rank) {
        base = own_.mapping().base();
        header = own_.header();
        return true;
    }
    if (!peers_[r].refresh()) {
        log_message(LogLevel::Error, "hccl: rank %u cannot map the shared-memory segment of rank %u", rank, r);
        return false;
    }
    base = peers_[r].base();
    header = peers_[r].header();
    return true;
}

bool ShmTransport::remote_input(uint32_t rank, uint32_t q, std::vector<uint8_t>& desc, CollectiveInput& input) {
    uint8_t* base = nullptr;
    const ShmHeader* h = nullptr;
    if (!segment_of(rank, receiver(q, host_of_[rank]), base, h)) return false;
    for (uint64_t at = h->extra_off; at + sizeof(ExtraRecord) <= h->extra_off + h->extra_len;) {
        ExtraRecord record;
        std::memcpy(&record, base + at, sizeof(record));
        if (record.rank == q) {
            desc.assign(base + at + sizeof(record), base + at + sizeof(record) + record.desc_len);
            input = CollectiveInput{
                q, &desc, record.in_len > 0 ? base + at + in_at(record.desc_len) : nullptr, record.in_len, nullptr,
                0, true};
            return true;
        }
        at += record_size(record.desc_len, record.in_len);
    }
    log_message(LogLevel::Error, "hccl: rank %u finds no input of rank %u from its host", rank, q);
    return false;
}

void ShmTransport::start(uint32_t rank, Deadline deadline) {
    if (state_ != State::Unknown) return;
    state_ = !control_->all_local() && setup(rank, deadline) ? State::On : State::Off;
    if (state_ != State::On) return;
    const size_t peers = hosts_[host_of_[rank]].size() - 1;
    if (hosts_.size() == 1) {
        log_message(LogLevel::Debug, "hccl: rank %u moves collective data through shared memory with %zu peers", rank,
                    peers);
    } else {
        log_message(LogLevel::Debug,
                    "hccl: rank %u moves collective data through shared memory with %zu peers of its host and "
                    "over sockets to %zu ranks of %zu other hosts",
                    rank, peers, links_.size(), hosts_.size() - 1);
    }
}

Outcome ShmTransport::collective(uint32_t rank, const CollectiveRequest& req, const AgreedFn& agreed,
                                 Deadline deadline) {
    // Every rank takes the same branch (a rank whose buffers are empty still takes part in the step).
    if (req.data && state_ == State::Unknown) start(rank, deadline);
    if (!req.data || state_ != State::On) return control_->collective(rank, req, agreed, deadline);

    ++collectives_;
    Outcome failed;
    failed.status = HCCL_E_INTERNAL;
    if (!own_.prepare(req.desc->size(), req.in_len, req.out_len)) {
        log_message(LogLevel::Error, "hccl: rank %u cannot grow its shared-memory segment to %llu bytes", rank,
                    static_cast<unsigned long long>(req.in_len + req.out_len));
        return failed;
    }
    {
        const ShmHeader* h = own_.header();
        uint8_t* base = own_.mapping().base();
        std::memcpy(base + h->desc_off, req.desc->data(), req.desc->size());
        if (req.in_len > 0) std::memcpy(base + h->in_off, req.in, static_cast<size_t>(req.in_len));
    }

    // The descriptors are checked and the ranks agree through the control transport; when it
    // answers, every input of this host's ranks is in its segment.
    CollectiveRequest control = req;
    control.data = false;
    Outcome outcome = control_->collective(rank, control, agreed, deadline);
    if (outcome.status != HCCL_SUCCESS) return outcome;

    (void)NPUSIM_FAULT("HcclShmDataStep");  // a delay here holds this rank inside its data step
    int32_t missing = -1;
    if (hosts_.size() > 1) {
        log_message(LogLevel::Debug,
                    "hccl: rank %u exchanges inputs with other hosts in the data step of collective %u", rank,
                    collectives_);
    }
    // libhccl's data step (the hierarchical movement) when it has one for the operation.
    if (const DataStepFn run = data_step(); run != nullptr) {
        step_rank_ = rank;
        step_deadline_ = deadline;
        step_out_ = static_cast<uint8_t*>(req.out);
        step_out_len_ = req.out_len;
        step_missing_ = -1;
        out_used_ = in_used_ = 0;
        if (run(*this, *req.desc, outcome)) {
            if (step_missing_ >= 0) return abandon(outcome, step_missing_);
            return outcome;
        }
    }
    if (hosts_.size() > 1) {
        if (!exchange_across(rank, deadline, missing)) {
            log_message(LogLevel::Error,
                        "hccl: rank %u: rank %d did not send or take its data within HCCL_EXEC_TIMEOUT or its link "
                        "closed (its process ended)",
                        rank, missing);
            return abandon(outcome, missing);
        }
        if (!host_barrier(rank, deadline, missing)) return abandon(outcome, missing);  // every input is on this host
    }

    const std::vector<uint32_t>& local = hosts_[host_of_[rank]];
    std::vector<std::vector<uint8_t>>& descs = descs_;
    std::vector<CollectiveInput>& inputs = inputs_;
    descs.resize(nranks_);
    inputs.resize(nranks_);
    for (uint32_t r = 0; r < nranks_; ++r) {
        if (host_of_[r] != host_of_[rank]) {
            if (!remote_input(rank, r, descs[r], inputs[r])) return failed;
            continue;
        }
        uint8_t* b = nullptr;
        const ShmHeader* peer = nullptr;
        if (!segment_of(rank, r, b, peer)) return failed;
        descs[r].assign(b + peer->desc_off, b + peer->desc_off + peer->desc_len);
        inputs[r] = CollectiveInput{r,
                                    &descs[r],
                                    peer->in_len > 0 ? b + peer->in_off : nullptr,
                                    peer->in_len,
                                    peer->out_len > 0 ? b + peer->out_off : nullptr,
                                    peer->out_len,
                                    false};
    }
    CollectiveExecutor ex = collective_executor();
    const CollectiveResult result = ex(inputs, true, Share{index_of_[rank], static_cast<uint32_t>(local.size())});
    if (!host_barrier(rank, deadline, missing)) return abandon(outcome, missing);
    outcome.status = result.status;
    if (result.status != HCCL_SUCCESS || rank >= result.written.size()) return outcome;
    const ShmHeader* h = own_.header();
    const uint8_t* base = own_.mapping().base();
    for (const Segment& s : result.written[rank]) {
        if (req.out != nullptr && s.offset <= req.out_len && s.length <= req.out_len - s.offset) {
            std::memcpy(static_cast<uint8_t*>(req.out) + s.offset, base + h->out_off + s.offset,
                        static_cast<size_t>(s.length));
            outcome.written.push_back(s);
        }
    }
    return outcome;
}

bool ShmTransport::wait_for(uint32_t rank, uint32_t r, std::atomic<uint32_t>& word, const std::function<bool()>& ready,
                            Deadline deadline, int32_t& missing) {
    for (uint32_t slices = 0;; ++slices) {
        const uint32_t seen = word.load(std::memory_order_acquire);
        if (ready()) return true;
        const int32_t abandoned = peers_[r].header()->abandoned.load(std::memory_order_acquire);
        const bool alive = abandoned == 0 && (slices == 0 || process_alive(pids_[r]));
        if (deadline.passed() || !alive) {
            missing = abandoned != 0 ? abandoned - 1 : static_cast<int32_t>(r);
            log_message(LogLevel::Error, "hccl: rank %u: rank %u %s during point-to-point data", rank, r,
                        abandoned != 0 ? "gave up"
                        : alive        ? "did not move its data within HCCL_EXEC_TIMEOUT"
                                       : "is gone (its process ended)");
            return false;
        }
        const int left = deadline.poll_ms();
        futex_wait_for(word, seen, left < 0 ? kLivenessCheckMs : std::min(left + 1, kLivenessCheckMs));
    }
}

bool ShmTransport::move_p2p(uint32_t rank, const std::vector<P2PItem>& items, bool deliver, Deadline deadline,
                            int32_t& missing) {
    const uint32_t here = host_of_[rank];
    // This host's peers: post every chunk first (posting never waits), so that no two ranks wait
    // for each other's chunks.
    std::vector<uint64_t> chunk(nranks_, 0);
    uint64_t total = 0;
    for (const P2PItem& it : items) {
        if (it.send && it.peer < nranks_ && host_of_[it.peer] == here) {
            chunk[it.peer] += it.bytes;
            total += it.bytes;
        }
    }
    if (total > 0) {
        if (!own_.prepare(0, total, 0)) {
            log_message(LogLevel::Error, "hccl: rank %u cannot grow its shared-memory segment to %llu bytes", rank,
                        static_cast<unsigned long long>(total));
            missing = static_cast<int32_t>(rank);
            return false;
        }
        uint8_t* base = own_.mapping().base();
        std::vector<uint64_t> at(nranks_, 0);
        uint64_t next = own_.header()->in_off;
        for (uint32_t r = 0; r < nranks_; ++r) {
            at[r] = next;
            next += chunk[r];
        }
        for (const P2PItem& it : items) {
            if (!it.send || it.bytes == 0 || host_of_[it.peer] != here) continue;
            std::memcpy(base + at[it.peer], it.src, static_cast<size_t>(it.bytes));
            at[it.peer] += it.bytes;
        }
        for (uint32_t r = 0; r < nranks_; ++r) {
            if (chunk[r] == 0) continue;
            PairWords& w = own_.pair(r);
            // A sequence lock without fences (ThreadSanitizer does not model them): the words are
            // stored with release after the odd count, so a reader that acquires one of them also
            // sees the count made odd before it.
            w.posts.fetch_add(1, std::memory_order_acq_rel);  // odd: being rewritten
            w.offset.store(at[r] - chunk[r], std::memory_order_release);
            w.start.store(sent_[r], std::memory_order_release);
            w.end.store(sent_[r] + chunk[r], std::memory_order_release);
            sent_[r] += chunk[r];
            w.posts.fetch_add(1, std::memory_order_release);  // even: posted
            futex_wake_all(w.posts);
        }
    }

    // Other hosts: one message each way per peer, its items' bytes in order.
    std::vector<LinkMessage> out, in;
    std::vector<uint8_t> discard;  // received bytes of a failed request
    for (const P2PItem& it : items) {
        if (!deliver && !it.send && host_of_[it.peer] != here)
            discard.resize(std::max<size_t>(discard.size(), it.bytes));
    }
    auto message = [](std::vector<LinkMessage>& list, uint32_t peer) -> LinkMessage& {
        for (LinkMessage& m : list) {
            if (m.peer == peer) return m;
        }
        list.push_back(LinkMessage{peer, {}});
        return list.back();
    };
    for (const P2PItem& it : items) {
        if (it.bytes == 0 || host_of_[it.peer] == here) continue;
        if (!links_.ensure(rank, token_, it.peer, addresses_, deadline, missing)) return false;
        uint8_t* bytes = it.send ? const_cast<uint8_t*>(it.src) : deliver ? it.dst : discard.data();  // src: read only
        message(it.send ? out : in, it.peer).pieces.push_back(LinkPiece{bytes, it.bytes});
    }
    if ((!out.empty() || !in.empty()) && !links_.exchange(out, in, deadline, missing)) {
        log_message(LogLevel::Error, "hccl: rank %u: the point-to-point link to rank %d closed or timed out", rank,
                    missing);
        return false;
    }

    // This host's peers: take what they posted, in matching order.
    for (const P2PItem& it : items) {
        if (it.send || it.bytes == 0 || host_of_[it.peer] != here) continue;
        const uint32_t q = it.peer;
        PairWords& theirs = peers_[q].pair(rank);
        PairWords& mine = own_.pair(q);
        for (uint64_t done = 0; done < it.bytes;) {
            const uint64_t pos = got_[q];
            uint64_t start = 0, end = 0, offset = 0;
            auto covered = [&] {
                const uint32_t before = theirs.posts.load(std::memory_order_acquire);
                if (before == 0 || before % 2 != 0) return false;
                // acquire: the count read after them is no older than the one their writer made odd
                start = theirs.start.load(std::memory_order_acquire);
                end = theirs.end.load(std::memory_order_acquire);
                offset = theirs.offset.load(std::memory_order_acquire);
                return theirs.posts.load(std::memory_order_relaxed) == before && start <= pos && pos < end;
            };
            if (!wait_for(rank, q, theirs.posts, covered, deadline, missing)) return false;
            if (!peers_[q].refresh()) {
                log_message(LogLevel::Error, "hccl: rank %u cannot map the shared-memory segment of rank %u", rank, q);
                missing = static_cast<int32_t>(q);
                return false;
            }
            const uint64_t n = std::min(it.bytes - done, end - pos);
            if (deliver) std::memcpy(it.dst + done, peers_[q].base() + offset + (pos - start), static_cast<size_t>(n));
            done += n;
            got_[q] = pos + n;
            mine.taken.store(got_[q], std::memory_order_release);
            mine.takes.fetch_add(1, std::memory_order_release);
            futex_wake_all(mine.takes);
        }
    }

    // This host's peers: a chunk's memory is reused only once it is all taken.
    for (uint32_t r = 0; r < nranks_; ++r) {
        if (chunk[r] == 0) continue;
        PairWords& theirs = peers_[r].pair(rank);
        const uint64_t until = sent_[r];
        if (!wait_for(
                rank, r, theirs.takes, [&] { return theirs.taken.load(std::memory_order_acquire) >= until; }, deadline,
                missing)) {
            return false;
        }
    }
    return true;
}

Outcome ShmTransport::p2p(uint32_t rank, uint64_t earliest, const std::vector<P2PItem>& items, bool data,
                          const AgreedFn& agreed, Deadline deadline) {
    if (!data || state_ != State::On) return control_->p2p(rank, earliest, items, data, agreed, deadline);
    // The hub matches the items (and checks their sizes) without their data.
    Outcome outcome = control_->p2p(rank, earliest, items, false, agreed, deadline);
    // A request with mismatched items (HCCL_E_PARA) still moves the data of the items that did
    // match, as the hub path does, so that the peers whose requests succeeded get it; its own
    // receive buffers are left as they were.
    if (outcome.status != HCCL_SUCCESS && outcome.status != HCCL_E_PARA) return outcome;
    std::vector<bool> ok(items.size(), false);
    for (const Segment& s : outcome.written) {
        if (s.offset < items.size()) ok[s.offset] = true;
    }
    std::vector<P2PItem> matched;  // in posting order
    for (size_t i = 0; i < items.size(); ++i) {
        if (ok[i]) matched.push_back(items[i]);
    }
    if (!p2p_logged_) {
        p2p_logged_ = true;
        log_message(LogLevel::Debug, "hccl: rank %u moves point-to-point data peer to peer", rank);
    }
    int32_t missing = -1;
    if (!move_p2p(rank, matched, outcome.status == HCCL_SUCCESS, deadline, missing)) return abandon(outcome, missing);
    outcome.written.clear();
    return outcome;
}

void ShmTransport::leave(uint32_t rank) {
    if (state_ == State::On) {
        log_message(LogLevel::Debug, "hccl: rank %u's shared-memory segment holds %llu bytes", rank,
                    static_cast<unsigned long long>(own_.resident_bytes()));
    }
    if (state_ == State::On && hosts_.size() > 1) {
        log_message(LogLevel::Debug, "hccl: rank %u sent %llu bytes to ranks of other hosts", rank,
                    static_cast<unsigned long long>(links_.bytes_sent()));
    }
    control_->leave(rank);
}

uint8_t* ShmTransport::step_segment(uint32_t r, const ShmHeader*& header) {
    uint8_t* base = nullptr;
    if (step_missing_ < 0 && segment_of(step_rank_, r, base, header)) return base;
    // Cannot map it (the segment_of line says so): the step fails; own memory stands in meanwhile.
    if (step_missing_ < 0) step_missing_ = static_cast<int32_t>(r);
    header = own_.header();
    return own_.mapping().base();
}

const uint8_t* ShmTransport::input(uint32_t r) {
    const ShmHeader* h = nullptr;
    uint8_t* base = step_segment(r, h);
    return base + h->in_off;
}

const uint8_t* ShmTransport::scratch_of(uint32_t r) {
    const ShmHeader* h = nullptr;
    uint8_t* base = step_segment(r, h);
    return base + h->extra_off;
}

uint8_t* ShmTransport::scratch(uint64_t bytes) {
    if (!own_.reserve_extra(bytes)) {
        log_message(LogLevel::Error, "hccl: rank %u cannot grow its shared-memory segment by %llu bytes", step_rank_,
                    static_cast<unsigned long long>(bytes));
        if (step_missing_ < 0) step_missing_ = static_cast<int32_t>(step_rank_);
        step_fallback_.resize(static_cast<size_t>(bytes));
        return step_fallback_.data();
    }
    return own_.mapping().base() + own_.header()->extra_off;
}

bool ShmTransport::barrier() {
    if (step_missing_ >= 0) return false;
    int32_t missing = -1;
    if (host_barrier(step_rank_, step_deadline_, missing)) return true;
    step_missing_ = missing;
    return false;
}

namespace {

LinkMessage& queued(std::vector<LinkMessage>& box, size_t& used, uint32_t peer) {
    for (size_t i = 0; i < used; ++i) {
        if (box[i].peer == peer) return box[i];
    }
    if (used == box.size()) box.emplace_back();
    LinkMessage& m = box[used++];
    m.peer = peer;
    m.pieces.clear();  // keeps its capacity
    return m;
}

}  // namespace

void ShmTransport::send(uint32_t peer, const uint8_t* data, uint64_t length) {
    // The links only read from a piece they send.
    queued(outbox_, out_used_, peer).pieces.push_back(LinkPiece{const_cast<uint8_t*>(data), length});
}

void ShmTransport::receive(uint32_t peer, uint8_t* data, uint64_t length) {
    queued(inbox_, in_used_, peer).pieces.push_back(LinkPiece{data, length});
}

bool ShmTransport::exchange() {
    if (step_missing_ >= 0) return false;
    int32_t missing = -1;
    const bool ok = links_.exchange(outbox_.data(), out_used_, inbox_.data(), in_used_, step_deadline_, missing);
    out_used_ = in_used_ = 0;
    if (ok) return true;
    log_message(LogLevel::Error,
                "hccl: rank %u: rank %d did not send or take its data within HCCL_EXEC_TIMEOUT or its link closed "
                "(its process ended)",
                step_rank_, missing);
    step_missing_ = missing;
    return false;
}

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
