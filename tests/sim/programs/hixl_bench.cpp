// Host cost of HIXL transfers with profiling off and on (benchmarks/hixl_overhead.py).
//
// Two engines of this process; a profiler callback that copies each record, as a real
// profiler does. Rounds alternate the two modes (and their order) so that drift in the
// machine's speed affects both alike. Prints one JSON object.
//
// usage: hixl_bench TRANSFERS SIZE ROUNDS
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "hixl/hixl.h"
#include "hixl/hixl_sim.h"
#include "seam/profapi.h"

using namespace hixl;

namespace {

MsprofApi g_ring[1024];
uint64_t g_reports = 0;

int32_t on_report(uint32_t, const MsprofApi* api) {
    g_ring[g_reports++ % 1024] = *api;
    return 0;
}

int32_t on_type_info(uint16_t, uint32_t, const char*, size_t) { return 0; }

void command(uint32_t type) {
    static MsprofCommandHandle cmd;
    std::memset(&cmd, 0, sizeof cmd);
    cmd.profSwitch = PROF_ACL_API_MASK;
    cmd.devNums = 1;
    cmd.type = type;
    profSetProfCommand(&cmd, sizeof cmd);
}

double ns_per_transfer(Hixl& engine, const AscendString& remote, const std::vector<TransferOpDesc>& descs, int n,
                       TransferOp op) {
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < n; ++i) {
        if (engine.TransferSync(remote, op, descs) != SUCCESS) std::abort();
    }
    const auto t1 = std::chrono::steady_clock::now();
    return std::chrono::duration<double, std::nano>(t1 - t0).count() / n;
}

std::string join(const std::vector<double>& v) {
    std::string s;
    for (double x : v) s += (s.empty() ? "" : ",") + std::to_string(x);
    return s;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 4) {
        std::fprintf(stderr, "usage: %s TRANSFERS SIZE ROUNDS\n", argv[0]);
        return 64;
    }
    const int n = std::atoi(argv[1]);
    const size_t size = std::strtoull(argv[2], nullptr, 10);
    const int rounds = std::atoi(argv[3]);
    if (n <= 0 || size == 0 || rounds <= 0) return 64;

    void* report = reinterpret_cast<void*>(&on_report);
    void* type_info = reinterpret_cast<void*>(&on_type_info);
    MsprofRegisterProfileCallback(PROFILE_REPORT_API_C_CALLBACK, report, sizeof(void*));
    MsprofRegisterProfileCallback(PROFILE_REPORT_REG_TYPE_INFO_C_CALLBACK, type_info, sizeof(void*));

    Hixl a, b;
    AscendString b_name;
    std::vector<unsigned char> src(size, 1), dst(size, 0);
    MemDesc ma{}, mb{};
    ma.addr = reinterpret_cast<uintptr_t>(src.data());
    ma.len = size;
    mb.addr = reinterpret_cast<uintptr_t>(dst.data());
    mb.len = size;
    MemHandle ha = nullptr, hb = nullptr;
    if (a.Initialize("127.0.0.1:0", {}) != SUCCESS || b.Initialize("127.0.0.1:0", {}) != SUCCESS ||
        sim::GetListenEngine(b, b_name) != SUCCESS || a.RegisterMem(ma, MEM_HOST, ha) != SUCCESS ||
        b.RegisterMem(mb, MEM_HOST, hb) != SUCCESS || a.Connect(b_name) != SUCCESS) {
        std::fprintf(stderr, "setup failed\n");
        return 2;
    }
    const std::vector<TransferOpDesc> descs = {{ma.addr, mb.addr, size}};

    ns_per_transfer(a, b_name, descs, n / 10 + 1, WRITE);  // warm-up
    std::vector<double> off, on;
    for (int r = 0; r < rounds; ++r) {
        for (int k = 0; k < 2; ++k) {
            const bool profiled = (k == 0) == (r % 2 == 0);
            command(profiled ? PROF_COMMANDHANDLE_TYPE_START : PROF_COMMANDHANDLE_TYPE_STOP);
            (profiled ? on : off).push_back(ns_per_transfer(a, b_name, descs, n, WRITE));
        }
    }
    command(PROF_COMMANDHANDLE_TYPE_STOP);
    std::printf("{\"transfers\":%d,\"size\":%zu,\"rounds\":%d,\"off_ns\":[%s],\"on_ns\":[%s],\"reports\":%" PRIu64
                "}\n",
                n, size, rounds, join(off).c_str(), join(on).c_str(), g_reports);
    a.Finalize();
    b.Finalize();
    return 0;
}
