// Shared-memory segments of the peer-to-peer data path: every rank owns one anonymous
// memfd segment (a header, its call's descriptor, its input and its output) that the other
// ranks of its host open through /proc/<pid>/fd/<fd>. Nothing is ever named in /dev/shm or
// /tmp, so nothing is left behind when a rank exits or is killed: the memory goes with the
// last mapping.
//
// Layout: ShmHeader at offset 0, the descriptor at desc_off, the input at in_off, the output
// at out_off, then (communicators spanning hosts) the inputs this rank received from ranks of
// other hosts at extra_off (each 4 KiB aligned). The owner grows the segment (never shrinks it)
// and publishes the size in `capacity`; a peer remaps when it finds the capacity larger.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>

#include "socket_io.h"

namespace npusim::hcomm {

constexpr uint64_t kShmMagic = 0x48534D48434F4D4DULL;  // "MMOCHMSH"

struct ShmHeader {
    uint64_t magic = 0;
    uint64_t token = 0;  // random, exchanged with the peers: proves the segment is the rank's
    std::atomic<uint64_t> capacity{0};
    std::atomic<uint32_t> done{0};  // futex word: the number of data steps this rank finished
    uint32_t pid = 0;
    uint64_t desc_off = 0, desc_len = 0;
    uint64_t in_off = 0, in_len = 0;
    uint64_t out_off = 0, out_len = 0;
    uint64_t extra_off = 0, extra_len = 0;
    // 1 + the rank this rank found missing when it gave up a data step (0: none); peers waiting
    // for the step (or for its point-to-point data) fail at once, naming the same rank.
    std::atomic<int32_t> abandoned{0};
    uint32_t nranks = 0;
    uint64_t table_off = 0;  // the PairWords of every rank (by rank), then the call's data at data_off
    uint64_t data_off = 0;
};

// Point-to-point data between two ranks of a host is a byte stream per (sender, receiver), in
// matching order: the sender posts a chunk of it in its own segment, the receiver copies from
// there and advances `taken` in its own segment; the sender returns once all is taken.
struct PairWords {
    // Sender's entry for the receiver: odd while the sender rewrites the chunk fields, even when
    // they hold (a sequence lock; also the futex word the receiver waits on).
    std::atomic<uint32_t> posts{0};
    std::atomic<uint32_t> takes{0};  // receiver's entry for the sender: times `taken` moved (futex word)
    std::atomic<uint64_t> start{0}, end{0};  // sender's: the posted chunk's range in the stream
    std::atomic<uint64_t> offset{0};  // sender's: where the chunk lies in its segment
    std::atomic<uint64_t> taken{0};  // receiver's: stream bytes taken from the sender
};

// A mapping of a segment (own or a peer's).
class ShmMapping {
public:
    ShmMapping() = default;
    ShmMapping(ShmMapping&& other) noexcept;
    ShmMapping& operator=(ShmMapping&& other) noexcept;
    ShmMapping(const ShmMapping&) = delete;
    ShmMapping& operator=(const ShmMapping&) = delete;
    ~ShmMapping() { unmap(); }

    // Maps `length` bytes of `fd`; false on failure.
    bool map(const Fd& fd, size_t length);
    void unmap();
    uint8_t* base() const { return base_; }
    size_t length() const { return length_; }
    ShmHeader* header() const { return reinterpret_cast<ShmHeader*>(base_); }

private:
    uint8_t* base_ = nullptr;
    size_t length_ = 0;
};

// This rank's own segment.
class OwnSegment {
public:
    // Creates the memfd and maps its header and the PairWords of `nranks` ranks; false on failure.
    bool create(uint64_t token, uint32_t nranks);
    // Lays out the next call (descriptor, input and output sizes), growing the segment when
    // needed; false when it cannot grow.
    bool prepare(uint64_t desc_len, uint64_t in_len, uint64_t out_len);
    // Adds an area of `extra_len` bytes after the output of the call laid out by prepare(),
    // growing the segment (its contents kept) when needed; false when it cannot grow.
    bool reserve_extra(uint64_t extra_len);
    int fd() const { return fd_.get(); }
    // Bytes of memory the segment holds (its pages ever written; the rest of its size is sparse).
    uint64_t resident_bytes() const;
    const ShmMapping& mapping() const { return map_; }
    ShmHeader* header() const { return map_.header(); }
    PairWords& pair(uint32_t rank) const;

private:
    bool grow(uint64_t need);

    Fd fd_;
    ShmMapping map_;
};

// A peer's segment, opened by pid and descriptor number and checked against its token. The
// descriptor is closed once mapped (a rank of n holds no n descriptors) and opened again to
// map a grown segment.
class PeerSegment {
public:
    bool open(uint32_t pid, int32_t fd, uint64_t token);
    // Makes the whole segment (as its header now says) visible; false on failure.
    bool refresh();
    ShmHeader* header() const { return map_.header(); }
    uint8_t* base() const { return map_.base(); }
    PairWords& pair(uint32_t rank) const;

private:
    bool map(size_t length);

    std::string path_;
    ShmMapping map_;
};

// Futex wait and wake on a word of a shared mapping (between processes).
void futex_wait_for(std::atomic<uint32_t>& word, uint32_t seen, int timeout_ms);
void futex_wake_all(std::atomic<uint32_t>& word);

}  // namespace npusim::hcomm
