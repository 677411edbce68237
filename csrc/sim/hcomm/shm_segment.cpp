#include "shm_segment.h"

#include <fcntl.h>
#include <linux/futex.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <ctime>
#include <new>
#include <utility>

namespace npusim::hcomm {

namespace {

constexpr uint64_t kPage = 4096;
constexpr uint64_t kGrowStep = uint64_t(2) << 20;  // capacity grows in 2 MiB steps, at least doubling

uint64_t align_page(uint64_t n) { return (n + kPage - 1) / kPage * kPage; }

}  // namespace

ShmMapping::ShmMapping(ShmMapping&& other) noexcept
    : base_(std::exchange(other.base_, nullptr)), length_(std::exchange(other.length_, 0)) {}

ShmMapping& ShmMapping::operator=(ShmMapping&& other) noexcept {
    if (this != &other) {
        unmap();
        base_ = std::exchange(other.base_, nullptr);
        length_ = std::exchange(other.length_, 0);
    }
    return *this;
}

bool ShmMapping::map(const Fd& fd, size_t length) {
    unmap();
    void* p = ::mmap(nullptr, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd.get(), 0);
    if (p == MAP_FAILED) return false;
    base_ = static_cast<uint8_t*>(p);
    length_ = length;
    return true;
}

void ShmMapping::unmap() {
    if (base_ != nullptr) ::munmap(base_, length_);
    base_ = nullptr;
    length_ = 0;
}

bool OwnSegment::create(uint64_t token, uint32_t nranks) {
    const uint64_t table_off = align_page(sizeof(ShmHeader));
    const uint64_t data_off = align_page(table_off + uint64_t(nranks) * sizeof(PairWords));
    fd_ = Fd(static_cast<int>(::syscall(SYS_memfd_create, "npusim-hccl", MFD_CLOEXEC)));
    if (!fd_.valid() || ::ftruncate(fd_.get(), static_cast<off_t>(data_off)) != 0 || !map_.map(fd_, data_off)) {
        return false;
    }
    ShmHeader* h = new (map_.base()) ShmHeader();
    for (uint32_t r = 0; r < nranks; ++r) new (map_.base() + table_off + r * sizeof(PairWords)) PairWords();
    h->magic = kShmMagic;
    h->token = token;
    h->pid = static_cast<uint32_t>(::getpid());
    h->nranks = nranks;
    h->table_off = table_off;
    h->data_off = data_off;
    h->desc_off = h->in_off = h->out_off = h->extra_off = data_off;
    h->capacity.store(data_off, std::memory_order_release);
    return true;
}

PairWords& OwnSegment::pair(uint32_t rank) const {
    return *reinterpret_cast<PairWords*>(map_.base() + map_.header()->table_off + rank * sizeof(PairWords));
}

PairWords& PeerSegment::pair(uint32_t rank) const {
    return *reinterpret_cast<PairWords*>(map_.base() + map_.header()->table_off + rank * sizeof(PairWords));
}

bool OwnSegment::prepare(uint64_t desc_len, uint64_t in_len, uint64_t out_len) {
    const uint64_t desc_off = map_.header()->data_off;
    const uint64_t in_off = align_page(desc_off + desc_len);
    const uint64_t out_off = align_page(in_off + in_len);
    if (!grow(align_page(out_off + out_len))) return false;
    ShmHeader* h = map_.header();
    h->desc_off = desc_off;
    h->desc_len = desc_len;
    h->in_off = in_off;
    h->in_len = in_len;
    h->out_off = out_off;
    h->out_len = out_len;
    h->extra_off = align_page(out_off + out_len);
    h->extra_len = 0;
    return true;
}

bool OwnSegment::reserve_extra(uint64_t extra_len) {
    const uint64_t extra_off = map_.header()->extra_off;
    if (!grow(align_page(extra_off + extra_len))) return false;
    map_.header()->extra_len = extra_len;
    return true;
}

uint64_t OwnSegment::resident_bytes() const {
    struct stat st{};
    return fd_.valid() && ::fstat(fd_.get(), &st) == 0 ? uint64_t(st.st_blocks) * 512 : 0;
}

bool OwnSegment::grow(uint64_t need) {
    const uint64_t capacity = map_.length();
    if (need <= capacity) return true;
    uint64_t grown = std::max(need, 2 * capacity);
    grown = (grown + kGrowStep - 1) / kGrowStep * kGrowStep;
    if (::ftruncate(fd_.get(), static_cast<off_t>(grown)) != 0) return false;
    if (!map_.map(fd_, grown)) return false;
    map_.header()->capacity.store(grown, std::memory_order_release);
    return true;
}

bool PeerSegment::map(size_t length) {
    // A failed remap keeps the mapping there was.
    const Fd fd(::open(path_.c_str(), O_RDWR | O_CLOEXEC));
    ShmMapping fresh;
    if (!fd.valid() || !fresh.map(fd, length)) return false;
    map_ = std::move(fresh);
    return true;
}

bool PeerSegment::open(uint32_t pid, int32_t fd, uint64_t token) {
    path_ = "/proc/" + std::to_string(pid) + "/fd/" + std::to_string(fd);
    if (!map(kPage)) return false;
    const ShmHeader* h = map_.header();
    return h->magic == kShmMagic && h->token == token && h->pid == pid && refresh();
}

bool PeerSegment::refresh() {
    const uint64_t capacity = map_.header()->capacity.load(std::memory_order_acquire);
    if (capacity <= map_.length()) return true;
    return map(static_cast<size_t>(capacity));
}

void futex_wait_for(std::atomic<uint32_t>& word, uint32_t seen, int timeout_ms) {
    timespec ts{timeout_ms / 1000, static_cast<long>(timeout_ms % 1000) * 1000000L};
    ::syscall(SYS_futex, reinterpret_cast<uint32_t*>(&word), FUTEX_WAIT, seen, &ts, nullptr, 0);
}

void futex_wake_all(std::atomic<uint32_t>& word) {
    ::syscall(SYS_futex, reinterpret_cast<uint32_t*>(&word), FUTEX_WAKE, INT32_MAX, nullptr, nullptr, 0);
}

}  // namespace npusim::hcomm
