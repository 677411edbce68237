// Runs HCCL operations on every rank of a communicator and prints each rank's results.
//
//   hccl_collectives MODE NRANKS CASE_FILE
//
// MODE: threads  (one thread per rank, HcclGetRootInfo + HcclCommInitRootInfo)
//       initall  (HcclCommInitAll, one thread per rank)
//       cluster  (one thread per rank, HcclCommInitClusterInfo($RANK_TABLE_FILE))
//       proc     (this process is rank $RANK of $WORLD_SIZE; rank 0 writes the root info to
//                 $HCCL_TEST_ROOT_FILE, the others read it)
//       cluster-proc (this process is rank $RANK of the rank table $RANK_TABLE_FILE)
// CASE_FILE: one case per line, "ID OP DTYPE REDOP COUNT ROOT SKEW":
//   OP    allreduce reduce broadcast allgather allgatherv reducescatter reducescatterv
//         alltoall alltoallv alltoallvc scatter sendrecv batch barrier missing, and in place:
//         allreduce_inplace (one buffer), allgather_inplace (input = own slot of the output),
//         reducescatter_inplace (output = own block of the input)
//   SKEW  none | count | dtype | redop | root: the last rank passes a different value
// Inputs come from a formula of (case, rank, element) that tests/sim/test_hccl_collectives.py
// restates; narrow float formats are encoded exactly from values in +-1.75 (step 0.25).
// Output lines: "R RANK ID STATUS HEX" (HEX: the rank's whole output buffer; bytes the
// operation must not write start as 0xAB), and per rank "N RANK SIZE NAME" once.
// The "missing" case: the last rank ($HCCL_TEST_MISSING_RANK) skips it and stops (writing its
// rank to $HCCL_TEST_STOPPED_FILE when set); the others report its status and how long they
// waited ("W RANK ID MS").
#include <unistd.h>

#include <chrono>
#include <cstdarg>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "hccl/hccl.h"

namespace {

struct Case {
    int id = 0;
    std::string op, skew;
    int dtype = 0, redop = 0, root = 0;
    uint64_t count = 0;
};

std::vector<Case> load_cases(const char* path) {
    std::vector<Case> out;
    std::ifstream in(path);
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty()) continue;
        std::istringstream ss(line);
        Case c;
        ss >> c.id >> c.op >> c.dtype >> c.redop >> c.count >> c.root >> c.skew;
        out.push_back(c);
    }
    return out;
}

size_t dsize(int dt) {
    switch (dt) {
        case HCCL_DATA_TYPE_INT8:
        case HCCL_DATA_TYPE_UINT8:
        case HCCL_DATA_TYPE_HIF8:
        case HCCL_DATA_TYPE_FP8E4M3:
        case HCCL_DATA_TYPE_FP8E5M2:
        case HCCL_DATA_TYPE_FP8E8M0: return 1;
        case HCCL_DATA_TYPE_INT16:
        case HCCL_DATA_TYPE_UINT16:
        case HCCL_DATA_TYPE_FP16:
        case HCCL_DATA_TYPE_BFP16: return 2;
        case HCCL_DATA_TYPE_INT32:
        case HCCL_DATA_TYPE_UINT32:
        case HCCL_DATA_TYPE_FP32: return 4;
        case HCCL_DATA_TYPE_INT64:
        case HCCL_DATA_TYPE_UINT64:
        case HCCL_DATA_TYPE_FP64: return 8;
        case HCCL_DATA_TYPE_INT128: return 16;
        default: return 1;
    }
}

// Exact encodings of v = k/4 (|k| <= 7) and of powers of two in 2^-2..2^2 (E8M0).
void put_exact_float(int dt, double v, uint8_t* p) {
    const bool neg = v < 0;
    const double a = std::fabs(v);
    int e = 0;
    unsigned frac8 = 0;  // mantissa in 1/8ths: a = 2^e * (1 + frac8 / 8)
    if (a > 0) {
        e = static_cast<int>(std::floor(std::log2(a)));
        frac8 = static_cast<unsigned>(std::lround((a / std::ldexp(1.0, e) - 1.0) * 8));
    }
    switch (dt) {
        case HCCL_DATA_TYPE_FP32: {
            float f = float(v);
            std::memcpy(p, &f, 4);
            break;
        }
        case HCCL_DATA_TYPE_FP64: std::memcpy(p, &v, 8); break;
        case HCCL_DATA_TYPE_BFP16: {
            float f = float(v);
            uint32_t u;
            std::memcpy(&u, &f, 4);
            const uint16_t h = uint16_t(u >> 16);
            std::memcpy(p, &h, 2);
            break;
        }
        case HCCL_DATA_TYPE_FP16: {
            uint16_t h = a == 0 ? 0 : uint16_t(((e + 15) << 10) | (frac8 << 7));
            if (neg) h |= 0x8000;
            std::memcpy(p, &h, 2);
            break;
        }
        case HCCL_DATA_TYPE_FP8E4M3: p[0] = uint8_t((a == 0 ? 0 : ((e + 7) << 3) | frac8) | (neg ? 0x80 : 0)); break;
        case HCCL_DATA_TYPE_FP8E5M2:
            p[0] = uint8_t((a == 0 ? 0 : ((e + 15) << 2) | (frac8 >> 1)) | (neg ? 0x80 : 0));
            break;
        case HCCL_DATA_TYPE_FP8E8M0: p[0] = uint8_t(e + 127); break;
        case HCCL_DATA_TYPE_HIF8: {
            uint8_t c = 0;
            if (a != 0) {
                if (e == 0) c = uint8_t(0x08 | frac8);                              // dot 0001
                else if (e == 1 || e == -1) c = uint8_t(0x10 | (e < 0 ? 0x08 : 0) | frac8);  // dot 001
                else c = uint8_t(0x20 | (e < 0 ? 0x10 : 0) | ((std::abs(e) & 1) << 3) | frac8);  // dot 01, |E| 2..3
                if (neg) c |= 0x80;
            }
            p[0] = c;
            break;
        }
        default: break;
    }
}

bool is_float(int dt) {
    return dt == HCCL_DATA_TYPE_FP16 || dt == HCCL_DATA_TYPE_FP32 || dt == HCCL_DATA_TYPE_FP64 ||
           dt == HCCL_DATA_TYPE_BFP16 || dt == HCCL_DATA_TYPE_HIF8 || dt == HCCL_DATA_TYPE_FP8E4M3 ||
           dt == HCCL_DATA_TYPE_FP8E5M2 || dt == HCCL_DATA_TYPE_FP8E8M0;
}

bool is_unsigned(int dt) {
    return dt == HCCL_DATA_TYPE_UINT8 || dt == HCCL_DATA_TYPE_UINT16 || dt == HCCL_DATA_TYPE_UINT32 ||
           dt == HCCL_DATA_TYPE_UINT64;
}

// Element i of rank r's input for case `salt` (restated in the Python test).
void fill_input(std::vector<uint8_t>& buf, int dt, int rank, int salt) {
    const size_t es = dsize(dt), n = buf.size() / es;
    for (size_t i = 0; i < n; ++i) {
        uint8_t* p = buf.data() + i * es;
        const long idx = long(i);
        if (dt == HCCL_DATA_TYPE_FP8E8M0) {
            put_exact_float(dt, std::ldexp(1.0, int((rank + idx + salt) % 5) - 2), p);
        } else if (is_float(dt)) {
            put_exact_float(dt, double((rank * 5 + idx * 3 + salt) % 15 - 7) * 0.25, p);
        } else {
            const long v = is_unsigned(dt) ? (rank * 7 + idx * 3 + salt) % 11 : (rank * 7 + idx * 3 + salt) % 11 - 5;
            // Little-endian two's complement, sign-extended to the element width.
            for (size_t b = 0; b < es; ++b)
                p[b] = uint8_t((b < sizeof(long) ? (v >> (8 * b)) : (v < 0 ? -1 : 0)) & 0xFF);
        }
    }
}

std::string hex(const std::vector<uint8_t>& b) {
    static const char* digits = "0123456789abcdef";
    std::string s;
    for (uint8_t c : b) {
        s.push_back(digits[c >> 4]);
        s.push_back(digits[c & 15]);
    }
    return s.empty() ? "-" : s;
}

// V layouts: rank i sends ((i + 2j) % 3) + 1 elements to rank j, blocks separated by one element.
uint64_t vcount(uint32_t from, uint32_t to) { return (from + 2 * to) % 3 + 1; }

struct Device {
    void* ptr = nullptr;
    size_t size = 0;
    explicit Device(size_t n) : size(n) {
        if (aclrtMalloc(&ptr, n ? n : 1, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) ptr = nullptr;
    }
    ~Device() { aclrtFree(ptr); }
    Device(const Device&) = delete;
    Device& operator=(const Device&) = delete;
    void upload(const std::vector<uint8_t>& h) {
        if (!h.empty()) aclrtMemcpy(ptr, size, h.data(), h.size(), ACL_MEMCPY_HOST_TO_DEVICE);
    }
    std::vector<uint8_t> download() {
        std::vector<uint8_t> h(size);
        if (!h.empty()) aclrtMemcpy(h.data(), h.size(), ptr, size, ACL_MEMCPY_DEVICE_TO_HOST);
        return h;
    }
};

struct Rank {
    uint32_t rank = 0, size = 0;
    HcclComm comm = nullptr;
    aclrtStream stream = nullptr;
    std::string out;

    void line(const char* fmt, ...) __attribute__((format(printf, 2, 3))) {
        char buf[256];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(buf, sizeof buf, fmt, ap);
        va_end(ap);
        out += buf;
    }
};

// Waits for the rank's stream: an operation returns at enqueue, and a failure of it (arguments
// that disagree between ranks, a peer that never came) surfaces at synchronisation; the
// communicator's async error tells which HCCL error it was.
HcclResult settle(Rank& rk, HcclResult st) {
    if (aclrtSynchronizeStream(rk.stream) == ACL_SUCCESS || st != HCCL_SUCCESS) return st;
    HcclResult async = HCCL_E_INTERNAL;
    HcclGetCommAsyncError(rk.comm, &async);
    return async;
}

// Runs one case; false when the rank must stop (after "missing").
// The rank that skips the "missing" case: $HCCL_TEST_MISSING_RANK, else the last one.
uint32_t missing_rank(uint32_t p) {
    const char* v = std::getenv("HCCL_TEST_MISSING_RANK");
    return v ? uint32_t(std::atoi(v)) : p - 1;
}

bool run_case(Rank& rk, const Case& c) {
    const uint32_t p = rk.size, r = rk.rank;
    const bool skewed = r == p - 1;
    int dt = c.dtype, redop = c.redop, root = c.root;
    uint64_t count = c.count;
    if (skewed && c.skew == "count") count += 1;
    if (skewed && c.skew == "dtype") dt = dt == HCCL_DATA_TYPE_INT32 ? HCCL_DATA_TYPE_FP32 : HCCL_DATA_TYPE_INT32;
    if (skewed && c.skew == "redop") redop = redop == HCCL_REDUCE_SUM ? HCCL_REDUCE_MAX : HCCL_REDUCE_SUM;
    if (skewed && c.skew == "root") root = (root + 1) % int(p);
    const size_t es = dsize(dt);
    const auto dtype = HcclDataType(dt);
    const auto op = HcclReduceOp(redop);
    HcclResult st = HCCL_SUCCESS;
    std::vector<uint8_t> in, result;

    auto run_in_out = [&](uint64_t in_elems, uint64_t out_elems, auto&& call) {
        in.assign(in_elems * es, 0);
        fill_input(in, dt, int(r), c.id);
        Device din(in.size()), dout(out_elems * es);
        din.upload(in);
        dout.upload(std::vector<uint8_t>(dout.size, 0xAB));
        st = settle(rk, call(din.ptr, dout.ptr));
        result = dout.download();
    };

    if (c.op == "allreduce") {
        run_in_out(count, count,
                   [&](void* a, void* b) { return HcclAllReduce(a, b, count, dtype, op, rk.comm, rk.stream); });
    } else if (c.op == "allreduce_inplace" || c.op == "allgather_inplace" || c.op == "reducescatter_inplace") {
        // One buffer of the larger extent; the rank's input sits where the operation expects it.
        const bool gather = c.op == "allgather_inplace", scatter = c.op == "reducescatter_inplace";
        const uint64_t total = (gather || scatter) ? p * count : count;
        const uint64_t in_off = gather ? r * count : 0, in_len = gather ? count : total;
        std::vector<uint8_t> whole(total * es, 0xAB);
        in.assign(in_len * es, 0);
        fill_input(in, dt, int(r), c.id);
        std::memcpy(whole.data() + in_off * es, in.data(), in.size());
        Device buf(whole.size());
        buf.upload(whole);
        auto* base = static_cast<uint8_t*>(buf.ptr);
        if (gather) st = HcclAllGather(base + in_off * es, base, count, dtype, rk.comm, rk.stream);
        else if (scatter) st = HcclReduceScatter(base, base + r * count * es, count, dtype, op, rk.comm, rk.stream);
        else st = HcclAllReduce(base, base, count, dtype, op, rk.comm, rk.stream);
        st = settle(rk, st);
        result = buf.download();
        if (scatter)
            result = std::vector<uint8_t>(result.begin() + r * count * es, result.begin() + (r + 1) * count * es);
    } else if (c.op == "reduce") {
        run_in_out(count, count, [&](void* a, void* b) {
            return HcclReduce(a, b, count, dtype, op, uint32_t(root), rk.comm, rk.stream);
        });
    } else if (c.op == "broadcast") {
        in.assign(count * es, 0);
        fill_input(in, dt, int(r), c.id);
        Device buf(in.size());
        buf.upload(in);
        st = settle(rk, HcclBroadcast(buf.ptr, count, dtype, uint32_t(root), rk.comm, rk.stream));
        result = buf.download();
    } else if (c.op == "allgather") {
        run_in_out(count, p * count,
                   [&](void* a, void* b) { return HcclAllGather(a, b, count, dtype, rk.comm, rk.stream); });
    } else if (c.op == "allgatherv") {
        // Rank j sends count + j elements; slots are separated by one element.
        const uint64_t mine = count + r;
        std::vector<uint64_t> counts(p), displs(p);
        uint64_t at = 0;
        for (uint32_t j = 0; j < p; ++j) {
            counts[j] = count + j;
            displs[j] = at;
            at += counts[j] + 1;
        }
        run_in_out(mine, at, [&](void* a, void* b) {
            return HcclAllGatherV(a, mine, b, counts.data(), displs.data(), dtype, rk.comm, rk.stream);
        });
    } else if (c.op == "reducescatter") {
        run_in_out(p * count, count,
                   [&](void* a, void* b) { return HcclReduceScatter(a, b, count, dtype, op, rk.comm, rk.stream); });
    } else if (c.op == "reducescatterv") {
        std::vector<uint64_t> counts(p), displs(p);
        uint64_t at = 0;
        for (uint32_t j = 0; j < p; ++j) {
            counts[j] = count + j;
            displs[j] = at;
            at += counts[j] + 1;
        }
        run_in_out(at, counts[r], [&](void* a, void* b) {
            return HcclReduceScatterV(a, counts.data(), displs.data(), b, counts[r], dtype, op, rk.comm, rk.stream);
        });
    } else if (c.op == "alltoall") {
        run_in_out(p * count, p * count, [&](void* a, void* b) {
            return HcclAlltoAll(a, count, dtype, b, count, dtype, rk.comm, rk.stream);
        });
    } else if (c.op == "alltoallv") {
        std::vector<uint64_t> sc(p), sd(p), rc(p), rd(p);
        uint64_t s = 0, q = 0;
        for (uint32_t j = 0; j < p; ++j) {
            sc[j] = vcount(r, j);
            sd[j] = s;
            s += sc[j] + 1;
            rc[j] = vcount(j, r);
            rd[j] = q;
            q += rc[j] + 1;
        }
        run_in_out(s, q, [&](void* a, void* b) {
            return HcclAlltoAllV(a, sc.data(), sd.data(), dtype, b, rc.data(), rd.data(), dtype, rk.comm, rk.stream);
        });
    } else if (c.op == "alltoallvc") {
        std::vector<uint64_t> m(uint64_t(p) * p);
        uint64_t s = 0, q = 0;
        for (uint32_t i = 0; i < p; ++i) {
            for (uint32_t j = 0; j < p; ++j) m[uint64_t(i) * p + j] = vcount(i, j);
        }
        for (uint32_t j = 0; j < p; ++j) {
            s += vcount(r, j);
            q += vcount(j, r);
        }
        run_in_out(s, q,
                   [&](void* a, void* b) { return HcclAlltoAllVC(a, m.data(), dtype, b, dtype, rk.comm, rk.stream); });
    } else if (c.op == "scatter") {
        run_in_out(r == uint32_t(root) ? p * count : 0, count, [&](void* a, void* b) {
            return HcclScatter(a, b, count, dtype, uint32_t(root), rk.comm, rk.stream);
        });
    } else if (c.op == "sendrecv") {
        // Pairs (0,1), (2,3), ...: the even rank sends first, the odd one receives first.
        const uint32_t peer = r ^ 1u;
        run_in_out(count, count, [&](void* a, void* b) {
            if (peer >= p) return HCCL_SUCCESS;
            HcclResult x, y;
            if (r % 2 == 0) {
                x = HcclSend(a, count, dtype, peer, rk.comm, rk.stream);
                y = HcclRecv(b, count, dtype, peer, rk.comm, rk.stream);
            } else {
                y = HcclRecv(b, count, dtype, peer, rk.comm, rk.stream);
                x = HcclSend(a, count, dtype, peer, rk.comm, rk.stream);
            }
            return x != HCCL_SUCCESS ? x : y;
        });
    } else if (c.op == "batch") {
        // A ring: send to the next rank, receive from the previous one, in one batch.
        run_in_out(count, count, [&](void* a, void* b) {
            HcclSendRecvItem items[2];
            items[0] = HcclSendRecvItem{HCCL_SEND, a, count, dtype, (r + 1) % p};
            items[1] = HcclSendRecvItem{HCCL_RECV, b, count, dtype, (r + p - 1) % p};
            return HcclBatchSendRecv(items, 2, rk.comm, rk.stream);
        });
    } else if (c.op == "barrier") {
        st = settle(rk, HcclBarrier(rk.comm, rk.stream));
    } else if (c.op == "missing") {
        if (r == missing_rank(p)) return false;
        const auto t0 = std::chrono::steady_clock::now();
        run_in_out(count, count,
                   [&](void* a, void* b) { return HcclAllReduce(a, b, count, dtype, op, rk.comm, rk.stream); });
        const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0);
        rk.line("W %u %d %lld\n", r, c.id, static_cast<long long>(ms.count()));
    } else {
        st = HCCL_E_NOT_SUPPORT;
    }
    rk.line("R %u %d %d ", r, c.id, int(st));
    rk.out += hex(result) + "\n";
    return true;
}

void run_rank(Rank& rk, const std::vector<Case>& cases) {
    char name[COMM_NAME_MAX_LENGTH] = {};
    uint32_t size = 0, id = 0;
    HcclGetCommName(rk.comm, name);
    HcclGetRankSize(rk.comm, &size);
    HcclGetRankId(rk.comm, &id);
    rk.line("N %u %u %u %s\n", rk.rank, size, id, name);
    bool stopped = false;
    for (const Case& c : cases) {
        if (!run_case(rk, c)) {
            stopped = true;
            break;
        }
    }
    if (stopped) {
        if (const char* mark = std::getenv("HCCL_TEST_STOPPED_FILE")) std::ofstream(mark) << rk.rank << "\n";
        // The skipping rank stays away until the others gave up, then leaves.
        const char* wait = std::getenv("HCCL_TEST_MISSING_SLEEP_MS");
        std::this_thread::sleep_for(std::chrono::milliseconds(wait ? std::atol(wait) : 0));
    }
    HcclCommDestroy(rk.comm);
}

bool setup_device(Rank& rk, int device) {
    return aclrtSetDevice(device) == ACL_SUCCESS && aclrtCreateStream(&rk.stream) == ACL_SUCCESS;
}

int env_int(const char* name, int fallback) {
    const char* v = std::getenv(name);
    return v ? std::atoi(v) : fallback;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 4) {
        std::fprintf(stderr, "usage: %s MODE NRANKS CASE_FILE\n", argv[0]);
        return 2;
    }
    const std::string mode = argv[1];
    const auto nranks = static_cast<uint32_t>(std::atoi(argv[2]));
    const std::vector<Case> cases = load_cases(argv[3]);
    if (aclInit(nullptr) != ACL_SUCCESS) return 3;
    uint32_t devices = 1;
    aclrtGetDeviceCount(&devices);
    const bool skip_init_of_last = std::getenv("HCCL_TEST_SKIP_LAST_INIT") != nullptr;

    if (mode == "proc" || mode == "cluster-proc") {
        Rank rk;
        rk.rank = uint32_t(env_int("RANK", 0));
        rk.size = uint32_t(env_int("WORLD_SIZE", int(nranks)));
        if (!setup_device(rk, int(rk.rank % devices))) return 4;
        HcclResult st;
        if (mode == "proc") {
            const std::string file = std::getenv("HCCL_TEST_ROOT_FILE");
            HcclRootInfo info;
            if (rk.rank == 0) {
                if (HcclGetRootInfo(&info) != HCCL_SUCCESS) return 5;
                const std::string tmp = file + ".tmp";
                std::ofstream(tmp, std::ios::binary).write(info.internal, sizeof info.internal);
                std::rename(tmp.c_str(), file.c_str());
            } else {
                for (;;) {
                    std::ifstream f(file, std::ios::binary);
                    if (f && f.read(info.internal, sizeof info.internal)) break;
                    std::this_thread::sleep_for(std::chrono::milliseconds(10));
                }
            }
            if (skip_init_of_last && rk.rank == rk.size - 1) return 0;
            const auto t0 = std::chrono::steady_clock::now();
            st = HcclCommInitRootInfo(rk.size, &info, rk.rank, &rk.comm);
            const auto ms =
                std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0);
            std::printf("I %u %d %lld\n", rk.rank, int(st), static_cast<long long>(ms.count()));
        } else {
            st = HcclCommInitClusterInfo(std::getenv("RANK_TABLE_FILE"), rk.rank, &rk.comm);
            std::printf("I %u %d 0\n", rk.rank, int(st));
        }
        if (st != HCCL_SUCCESS) return 0;
        run_rank(rk, cases);
        std::fputs(rk.out.c_str(), stdout);
        aclrtDestroyStream(rk.stream);
        aclrtResetDevice(int(rk.rank % devices));
        return 0;
    }

    std::vector<Rank> ranks(nranks);
    std::vector<HcclComm> comms(nranks, nullptr);
    std::vector<HcclResult> init(nranks, HCCL_SUCCESS);
    HcclRootInfo info;
    if (mode == "threads" && HcclGetRootInfo(&info) != HCCL_SUCCESS) return 5;
    if (mode == "initall") {
        std::vector<int32_t> devs(nranks);
        for (uint32_t r = 0; r < nranks; ++r) devs[r] = int32_t(r % devices);
        if (HcclCommInitAll(nranks, devs.data(), comms.data()) != HCCL_SUCCESS) return 6;
    }
    std::vector<std::thread> threads;
    for (uint32_t r = 0; r < nranks; ++r) {
        threads.emplace_back([&, r] {
            Rank& rk = ranks[r];
            rk.rank = r;
            rk.size = nranks;
            if (!setup_device(rk, int(r % devices))) {
                init[r] = HCCL_E_RUNTIME;
                return;
            }
            if (mode == "threads") {
                if (skip_init_of_last && r == nranks - 1) {
                    init[r] = HCCL_E_RESERVED;
                    return;
                }
                init[r] = HcclCommInitRootInfo(nranks, &info, r, &rk.comm);
            } else if (mode == "cluster") {
                init[r] = HcclCommInitClusterInfo(std::getenv("RANK_TABLE_FILE"), r, &rk.comm);
            } else {
                rk.comm = comms[r];
            }
            if (init[r] == HCCL_SUCCESS) run_rank(rk, cases);
            aclrtDestroyStream(rk.stream);
        });
    }
    for (auto& t : threads) t.join();
    for (uint32_t r = 0; r < nranks; ++r) {
        std::printf("I %u %d 0\n", r, int(init[r]));
        std::fputs(ranks[r].out.c_str(), stdout);
    }
    aclFinalize();
    return 0;
}
