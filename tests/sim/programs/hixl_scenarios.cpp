// HIXL transfer-engine scenarios for tests/sim/test_hixl*.py.
//
// The program plays the profiler itself: it registers the REPORT_API_C and
// REG_TYPE_INFO_C callbacks with libprofapi and switches profiling with
// profSetProfCommand. It prints JSON lines (one object per line) that the tests
// parse: {"kind":"step",...} per API call checked, {"kind":"report",...} per API
// record received, {"kind":"typeinfo",...} per type name registered.
//
// usage: hixl_scenarios SCENARIO [ARGS...]
// HIXL_SCENARIO_OPTION=KEY=VALUE: one option for the engines' Initialize (it chooses the transfer path).
#include <dlfcn.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "hixl/hixl.h"
#include "hixl/hixl_sim.h"
#include "seam/profapi.h"

using namespace hixl;

namespace {

// ---- the profiler side -------------------------------------------------------------------

std::mutex g_mutex;
std::vector<std::pair<uint32_t, MsprofApi>> g_reports;  // (aging flag, record)
std::map<std::pair<uint16_t, uint32_t>, std::string> g_type_names;
ProfCommandHandle g_hixl_handle = nullptr;  // module 12's handle, seen through the interposer below

int32_t on_report(uint32_t aging, const MsprofApi* api) {
    std::lock_guard<std::mutex> lock(g_mutex);
    g_reports.emplace_back(aging, *api);
    return 0;
}

int32_t on_type_info(uint16_t level, uint32_t type, const char* name, size_t len) {
    std::lock_guard<std::mutex> lock(g_mutex);
    g_type_names[{level, type}] = std::string(name, len);
    return 0;
}

void subscribe() {
    void* report = reinterpret_cast<void*>(&on_report);
    void* type_info = reinterpret_cast<void*>(&on_type_info);
    MsprofRegisterProfileCallback(PROFILE_REPORT_API_C_CALLBACK, report, sizeof(void*));
    MsprofRegisterProfileCallback(PROFILE_REPORT_REG_TYPE_INFO_C_CALLBACK, type_info, sizeof(void*));
}

int32_t prof_command(uint32_t type, const std::vector<uint32_t>& devices, uint64_t prof_switch = PROF_ACL_API_MASK) {
    static MsprofCommandHandle cmd;
    std::memset(&cmd, 0, sizeof cmd);
    cmd.profSwitch = prof_switch;
    cmd.devNums = static_cast<uint32_t>(devices.size());
    for (size_t i = 0; i < devices.size(); ++i) cmd.devIdList[i] = devices[i];
    cmd.modelId = 0xFFFFFFFFU;
    cmd.type = type;
    return profSetProfCommand(&cmd, sizeof cmd);
}

int32_t prof_start(const std::vector<uint32_t>& devices) {
    return prof_command(PROF_COMMANDHANDLE_TYPE_START, devices);
}
int32_t prof_stop(const std::vector<uint32_t>& devices) { return prof_command(PROF_COMMANDHANDLE_TYPE_STOP, devices); }

uint64_t now() { return MsprofSysCycleTime(); }
long tid() { return syscall(SYS_gettid); }

void print_profile() {
    std::lock_guard<std::mutex> lock(g_mutex);
    for (const auto& [aging, r] : g_reports) {
        std::printf(
            "{\"kind\":\"report\",\"aging\":%u,\"magic\":%u,\"level\":%u,\"type\":%u,\"tid\":%u,"
            "\"begin\":%" PRIu64 ",\"end\":%" PRIu64 ",\"item\":%" PRIu64 "}\n",
            aging, r.magicNumber, r.level, r.type, r.threadId, r.beginTime, r.endTime, r.itemId);
    }
    for (const auto& [key, name] : g_type_names) {
        // Only the ranges HIXL may use (the runtime registers hundreds of names).
        const bool hixl_range = (key.second >> 16) == 0x0C || (key.second >> 12) == 0x049;
        if (!hixl_range) continue;
        std::printf("{\"kind\":\"typeinfo\",\"level\":%u,\"type\":%u,\"name\":\"%s\"}\n", key.first, key.second,
                    name.c_str());
    }
    std::fflush(stdout);
}

// ---- steps -------------------------------------------------------------------------------

struct Step {
    std::string name;
    Status status = SUCCESS;
    int tstatus = -1;  // TransferStatus, when the step has one
    bool data_ok = true;
    uint64_t before = 0, after = 0, submit_after = 0;
    uint64_t bytes = 0;
    int polls = 0;
    std::string extra;
};

void print_step(const Step& s) {
    std::printf("{\"kind\":\"step\",\"name\":\"%s\",\"status\":%u,\"tstatus\":%d,\"data_ok\":%s,\"before\":%" PRIu64
                ",\"after\":%" PRIu64 ",\"submit_after\":%" PRIu64 ",\"bytes\":%" PRIu64
                ",\"polls\":%d,\"tid\":%ld%s}\n",
                s.name.c_str(), s.status, s.tstatus, s.data_ok ? "true" : "false", s.before, s.after, s.submit_after,
                s.bytes, s.polls, tid(), s.extra.c_str());
    std::fflush(stdout);
}

void print_status(const std::string& name, Status status, int tstatus = -1) {
    Step s;
    s.name = name;
    s.status = status;
    s.tstatus = tstatus;
    print_step(s);
}

void fill(void* p, size_t len, unsigned seed) {
    auto* b = static_cast<unsigned char*>(p);
    for (size_t i = 0; i < len; ++i) b[i] = static_cast<unsigned char>((i * 31 + seed) & 0xff);
}

bool check(const void* p, size_t len, unsigned seed) {
    const auto* b = static_cast<const unsigned char*>(p);
    for (size_t i = 0; i < len; ++i) {
        if (b[i] != static_cast<unsigned char>((i * 31 + seed) & 0xff)) return false;
    }
    return true;
}

uintptr_t addr(const void* p) { return reinterpret_cast<uintptr_t>(p); }

Step sync_transfer(Hixl& engine, const AscendString& remote, TransferOp op, const std::vector<TransferOpDesc>& descs,
                   const std::string& name, int32_t timeout_ms = 1000) {
    Step s;
    s.name = name;
    for (const auto& d : descs) s.bytes += d.len;
    s.before = now();
    s.status = engine.TransferSync(remote, op, descs, timeout_ms);
    s.after = now();
    return s;
}

Step async_transfer(Hixl& engine, const AscendString& remote, TransferOp op, const std::vector<TransferOpDesc>& descs,
                    const std::string& name) {
    Step s;
    s.name = name;
    for (const auto& d : descs) s.bytes += d.len;
    TransferReq req = nullptr;
    TransferArgs args;
    s.before = now();
    s.status = engine.TransferAsync(remote, op, descs, args, req);
    s.submit_after = now();
    if (s.status != SUCCESS) return s;
    TransferStatus st = TransferStatus::WAITING;
    Status rc = SUCCESS;
    while (rc == SUCCESS && st == TransferStatus::WAITING && s.polls < 10000000) {
        rc = engine.GetTransferStatus(req, st);
        ++s.polls;
    }
    s.after = now();
    s.status = rc;
    s.tstatus = static_cast<int>(st);
    // The request was released when it was reported COMPLETED.
    TransferStatus again = TransferStatus::WAITING;
    const Status rc2 = engine.GetTransferStatus(req, again);
    s.extra =
        ",\"again_status\":" + std::to_string(rc2) + ",\"again_tstatus\":" + std::to_string(static_cast<int>(again));
    return s;
}

// Initialize's options: the one HIXL_SCENARIO_OPTION names ("KEY=VALUE"), if any.
std::map<AscendString, AscendString> init_options() {
    std::map<AscendString, AscendString> options;
    const char* text = std::getenv("HIXL_SCENARIO_OPTION");
    const char* eq = text != nullptr ? std::strchr(text, '=') : nullptr;
    if (eq != nullptr) options[AscendString(std::string(text, eq).c_str())] = AscendString(eq + 1);
    return options;
}

// Two engines of this process, A (device + host memory) and B (host memory), A linked to B.
struct Pair {
    static constexpr size_t kLen = 1 << 20;
    Hixl a, b;
    AscendString b_name;
    void* a_dev = nullptr;
    std::vector<unsigned char> a_host = std::vector<unsigned char>(kLen);
    std::vector<unsigned char> b_host = std::vector<unsigned char>(2 * kLen);
    MemHandle ha_dev = nullptr, ha_host = nullptr, hb = nullptr;

    bool open() {
        if (aclrtSetDevice(0) != ACL_SUCCESS) return fail("aclrtSetDevice");
        if (aclrtMalloc(&a_dev, kLen, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return fail("aclrtMalloc");
        const std::map<AscendString, AscendString> options = init_options();
        if (a.Initialize("127.0.0.1:0", options) != SUCCESS || b.Initialize("127.0.0.1:0", options) != SUCCESS) {
            return fail("Initialize");
        }
        if (sim::GetListenEngine(b, b_name) != SUCCESS) return fail("GetListenEngine");
        MemDesc dev{};
        dev.addr = addr(a_dev);
        dev.len = kLen;
        MemDesc host_a{};
        host_a.addr = addr(a_host.data());
        host_a.len = a_host.size();
        MemDesc host_b{};
        host_b.addr = addr(b_host.data());
        host_b.len = b_host.size();
        if (a.RegisterMem(dev, MEM_DEVICE, ha_dev) != SUCCESS || a.RegisterMem(host_a, MEM_HOST, ha_host) != SUCCESS ||
            b.RegisterMem(host_b, MEM_HOST, hb) != SUCCESS) {
            return fail("RegisterMem");
        }
        if (a.Connect(b_name, 1000) != SUCCESS) return fail("Connect");
        return true;
    }
    ~Pair() {
        a.Finalize();
        b.Finalize();
        if (a_dev != nullptr) aclrtFree(a_dev);
    }
    static bool fail(const char* what) {
        std::fprintf(stderr, "setup failed at %s\n", what);
        return false;
    }
};

// ---- scenarios ---------------------------------------------------------------------------

// Sync and async READ and WRITE between two engines of this process, profiling on.
int scenario_transfers() {
    subscribe();
    Pair p;
    if (!p.open()) return 2;
    std::printf("{\"kind\":\"main\",\"tid\":%ld}\n", tid());
    const int32_t rc = prof_start({0});
    print_status("prof_start", static_cast<Status>(rc));
    const size_t n = Pair::kLen;
    unsigned char* b0 = p.b_host.data();
    unsigned char* b1 = p.b_host.data() + n;

    fill(b0, n, 1);
    Step s = sync_transfer(p.a, p.b_name, READ, {{addr(p.a_dev), addr(b0), n}}, "sync_read");
    s.data_ok = check(p.a_dev, n, 1);
    print_step(s);

    fill(p.a_host.data(), n, 2);
    s = sync_transfer(p.a, p.b_name, WRITE, {{addr(p.a_host.data()), addr(b1), n}}, "sync_write");
    s.data_ok = check(b1, n, 2);
    print_step(s);

    fill(b0, n, 3);
    s = async_transfer(p.a, p.b_name, READ, {{addr(p.a_host.data()), addr(b0), n}}, "async_read");
    s.data_ok = check(p.a_host.data(), n, 3);
    print_step(s);

    fill(p.a_dev, n / 2, 4);
    fill(static_cast<unsigned char*>(p.a_dev) + n / 2, n / 2, 5);
    // Two op descs in one batch.
    s = async_transfer(p.a, p.b_name, WRITE,
                       {{addr(p.a_dev), addr(b1), n / 2}, {addr(p.a_dev) + n / 2, addr(b1) + n / 2, n / 2}},
                       "async_write");
    s.data_ok = check(b1, n / 2, 4) && check(b1 + n / 2, n / 2, 5);
    print_step(s);

    // The batch form of GetTransferStatus.
    std::vector<TransferReq> reqs(3);
    TransferArgs args;
    Status batch_rc = SUCCESS;
    for (size_t i = 0; i < reqs.size(); ++i) {
        args.user_data = reinterpret_cast<const void*>(i + 1);
        batch_rc |= p.a.TransferAsync(p.b_name, READ, {{addr(p.a_host.data()), addr(b0), 4096}}, args, reqs[i]);
    }
    size_t completed = 0, rounds = 0;
    bool user_data_ok = true;
    while (completed < reqs.size() && rounds < 10000000) {
        GetTransferStatusArgs q;
        q.skip_waiting = true;
        std::vector<TransferResult> results;
        batch_rc |= p.a.GetTransferStatus(q, results);
        for (const auto& r : results) {
            const auto index = static_cast<uintptr_t>(std::find(reqs.begin(), reqs.end(), r.req) - reqs.begin());
            user_data_ok = user_data_ok && r.status == TransferStatus::COMPLETED &&
                           r.user_data == reinterpret_cast<const void*>(index + 1);
            ++completed;
        }
        ++rounds;
    }
    Step batch;
    batch.name = "batch_status";
    batch.status = batch_rc;
    batch.data_ok = user_data_ok && completed == reqs.size();
    print_step(batch);

    prof_stop({0});
    print_profile();
    return 0;
}

// Profiling switched on and off at run time.
int scenario_switch() {
    subscribe();
    Pair p;
    if (!p.open()) return 2;
    const std::vector<TransferOpDesc> d = {{addr(p.a_host.data()), addr(p.b_host.data()), 4096}};
    print_step(sync_transfer(p.a, p.b_name, WRITE, d, "off_before_start"));
    print_status("start", static_cast<Status>(prof_start({0})));
    print_step(sync_transfer(p.a, p.b_name, WRITE, d, "on_1"));
    print_status("stop", static_cast<Status>(prof_stop({0})));
    print_step(sync_transfer(p.a, p.b_name, WRITE, d, "off_after_stop"));
    print_step(async_transfer(p.a, p.b_name, READ, d, "off_async"));
    print_status("start_again", static_cast<Status>(prof_start({0})));
    print_step(sync_transfer(p.a, p.b_name, READ, d, "on_2"));
    print_step(async_transfer(p.a, p.b_name, WRITE, d, "on_async"));
    prof_stop({0});
    print_profile();
    return 0;
}

// STOP removes only the devices it names; profiling ends with the last one.
int scenario_devices() {
    subscribe();
    Pair p;
    if (!p.open()) return 2;
    const std::vector<TransferOpDesc> d = {{addr(p.a_host.data()), addr(p.b_host.data()), 4096}};
    prof_start({0});
    prof_start({1});
    print_step(sync_transfer(p.a, p.b_name, READ, d, "both_started"));
    print_status("stop_0", static_cast<Status>(prof_stop({0})));
    print_step(sync_transfer(p.a, p.b_name, READ, d, "dev1_left"));
    // A STOP without the HIXL switch bit does not concern HIXL.
    print_status("stop_1_other_bits",
                 static_cast<Status>(prof_command(PROF_COMMANDHANDLE_TYPE_STOP, {1}, PROF_TASK_TIME_MASK)));
    print_step(sync_transfer(p.a, p.b_name, READ, d, "dev1_still_left"));
    print_status("stop_1", static_cast<Status>(prof_stop({1})));
    print_step(sync_transfer(p.a, p.b_name, READ, d, "none_left"));
    // One START naming two devices, one STOP naming both.
    prof_start({2, 3});
    print_step(sync_transfer(p.a, p.b_name, WRITE, d, "two_in_one"));
    prof_stop({3});
    print_step(sync_transfer(p.a, p.b_name, WRITE, d, "dev2_left"));
    prof_stop({2});
    print_step(sync_transfer(p.a, p.b_name, WRITE, d, "all_stopped"));
    print_profile();
    return 0;
}

// The command handle rejects a short or missing command (called directly: libprofapi itself
// rejects a wrong length before any module sees it).
int scenario_short_command() {
    subscribe();
    if (g_hixl_handle == nullptr) {
        std::fprintf(stderr, "libhixl did not register a command handle for module %u\n", SEAM_MODULE_HIXL);
        return 2;
    }
    Pair p;
    if (!p.open()) return 2;
    static MsprofCommandHandle cmd;
    std::memset(&cmd, 0, sizeof cmd);
    cmd.profSwitch = PROF_ACL_API_MASK;
    cmd.type = PROF_COMMANDHANDLE_TYPE_START;
    cmd.devNums = 1;
    const uint32_t full = sizeof cmd;
    print_status("short", static_cast<Status>(g_hixl_handle(PROF_CTRL_SWITCH, &cmd, full - 1)));
    print_status("null", static_cast<Status>(g_hixl_handle(PROF_CTRL_SWITCH, nullptr, full)));
    print_status("not_switch", static_cast<Status>(g_hixl_handle(PROF_CTRL_REPORTER, &cmd, 4)));
    print_status("through_profapi_short", static_cast<Status>(profSetProfCommand(&cmd, full - 1)));
    const std::vector<TransferOpDesc> d = {{addr(p.a_host.data()), addr(p.b_host.data()), 4096}};
    print_step(sync_transfer(p.a, p.b_name, READ, d, "after_rejected"));
    print_status("full", static_cast<Status>(g_hixl_handle(PROF_CTRL_SWITCH, &cmd, full)));
    print_step(sync_transfer(p.a, p.b_name, READ, d, "after_accepted"));
    cmd.type = PROF_COMMANDHANDLE_TYPE_STOP;
    g_hixl_handle(PROF_CTRL_SWITCH, &cmd, full);
    print_profile();
    return 0;
}

// Unknown and finished requests.
int scenario_requests() {
    subscribe();
    Pair p;
    if (!p.open()) return 2;
    TransferStatus st = TransferStatus::WAITING;
    Status rc = p.a.GetTransferStatus(reinterpret_cast<TransferReq>(0x1234), st);
    print_status("bogus", rc, static_cast<int>(st));
    st = TransferStatus::WAITING;
    TransferReq null_req = nullptr;
    rc = p.a.GetTransferStatus(null_req, st);
    print_status("null", rc, static_cast<int>(st));

    const std::vector<TransferOpDesc> d = {{addr(p.a_host.data()), addr(p.b_host.data()), 4096}};
    TransferReq req = nullptr;
    print_status("submit", p.a.TransferAsync(p.b_name, READ, d, TransferArgs{}, req));
    // Another engine does not know A's request.
    st = TransferStatus::WAITING;
    rc = p.b.GetTransferStatus(req, st);
    print_status("other_engine", rc, static_cast<int>(st));
    st = TransferStatus::WAITING;
    rc = SUCCESS;
    while (rc == SUCCESS && st == TransferStatus::WAITING) rc = p.a.GetTransferStatus(req, st);
    print_status("completed", rc, static_cast<int>(st));
    st = TransferStatus::WAITING;
    rc = p.a.GetTransferStatus(req, st);
    print_status("finished", rc, static_cast<int>(st));
    // Finalize releases pending requests.
    print_status("submit2", p.a.TransferAsync(p.b_name, READ, d, TransferArgs{}, req));
    p.a.Finalize();
    st = TransferStatus::WAITING;
    rc = p.a.GetTransferStatus(req, st);
    print_status("after_finalize", rc, static_cast<int>(st));
    return 0;
}

// The start time is stored at submission: a request submitted with profiling off is never
// reported, and one completed after profiling stopped is not either.
int scenario_async_switch() {
    subscribe();
    Pair p;
    if (!p.open()) return 2;
    const std::vector<TransferOpDesc> d = {{addr(p.a_host.data()), addr(p.b_host.data()), 4096}};
    auto wait = [&](TransferReq req, const char* name) {
        TransferStatus st = TransferStatus::WAITING;
        Status rc = SUCCESS;
        while (rc == SUCCESS && st == TransferStatus::WAITING) rc = p.a.GetTransferStatus(req, st);
        print_status(name, rc, static_cast<int>(st));
    };
    TransferReq req = nullptr;
    // off at submit, on at completion
    p.a.TransferAsync(p.b_name, READ, d, TransferArgs{}, req);
    prof_start({0});
    wait(req, "off_then_on");
    // on at submit, off at completion
    p.a.TransferAsync(p.b_name, WRITE, d, TransferArgs{}, req);
    prof_stop({0});
    wait(req, "on_then_off");
    // on at both
    prof_start({0});
    p.a.TransferAsync(p.b_name, WRITE, d, TransferArgs{}, req);
    wait(req, "on_then_on");
    prof_stop({0});
    print_profile();
    return 0;
}

// Every transfer with profiling on; the tests run this with a failing MsprofReportApi.
int scenario_report_fault() {
    subscribe();
    Pair p;
    if (!p.open()) return 2;
    prof_start({0});
    const size_t n = 65536;
    unsigned char* b0 = p.b_host.data();
    fill(b0, n, 7);
    Step s = sync_transfer(p.a, p.b_name, READ, {{addr(p.a_dev), addr(b0), n}}, "sync_read");
    s.data_ok = check(p.a_dev, n, 7);
    print_step(s);
    fill(p.a_host.data(), n, 8);
    s = sync_transfer(p.a, p.b_name, WRITE, {{addr(p.a_host.data()), addr(b0), n}}, "sync_write");
    s.data_ok = check(b0, n, 8);
    print_step(s);
    fill(b0, n, 9);
    s = async_transfer(p.a, p.b_name, READ, {{addr(p.a_host.data()), addr(b0), n}}, "async_read");
    s.data_ok = check(p.a_host.data(), n, 9);
    print_step(s);
    fill(p.a_host.data(), n, 10);
    s = async_transfer(p.a, p.b_name, WRITE, {{addr(p.a_host.data()), addr(b0), n}}, "async_write");
    s.data_ok = check(b0, n, 10);
    print_step(s);
    prof_stop({0});
    print_profile();
    return 0;
}

// Argument checks and link errors.
int scenario_errors() {
    Pair p;
    Hixl fresh;
    print_status("uninit_connect", fresh.Connect("127.0.0.1:1", 100));
    MemHandle h = nullptr;
    MemDesc m{};
    std::vector<unsigned char> buf(4096);
    m.addr = addr(buf.data());
    m.len = buf.size();
    print_status("uninit_register", fresh.RegisterMem(m, MEM_HOST, h));
    print_status("bad_name", fresh.Initialize("not-an-ip:1", {}));
    print_status("bad_port", fresh.Initialize("127.0.0.1:70000", {}));
    if (!p.open()) return 2;
    print_status("init_twice", p.a.Initialize("127.0.0.1:0", {}));
    print_status("connect_twice", p.a.Connect(p.b_name, 1000));
    print_status("disconnect_unknown", p.a.Disconnect("127.0.0.1:1"));
    const size_t n = 4096;
    uintptr_t a0 = addr(p.a_host.data());
    uintptr_t b0 = addr(p.b_host.data());
    print_status("ok", p.a.TransferSync(p.b_name, READ, {{a0, b0, n}}));
    print_status("not_connected", p.a.TransferSync("127.0.0.1:1", READ, {{a0, b0, n}}));
    print_status("empty_batch", p.a.TransferSync(p.b_name, READ, {}));
    print_status("zero_len", p.a.TransferSync(p.b_name, READ, {{a0, b0, 0}}));
    print_status("bad_timeout", p.a.TransferSync(p.b_name, READ, {{a0, b0, n}}, 0));
    print_status("local_outside", p.a.TransferSync(p.b_name, READ, {{a0 + p.a_host.size() - 8, b0, 16}}));
    print_status("remote_outside", p.a.TransferSync(p.b_name, WRITE, {{a0, b0 + p.b_host.size() - 8, 16}}));
    print_status("local_unregistered", p.a.TransferSync(p.b_name, READ, {{addr(buf.data()), b0, 16}}));
    // One bad desc fails the whole batch before any data moves.
    std::memset(p.b_host.data(), 0, 64);
    std::memset(p.a_host.data(), 0xAB, 64);
    Status rc = p.a.TransferSync(p.b_name, WRITE, {{a0, b0, 64}, {a0, b0 + p.b_host.size(), 16}});
    Step s;
    s.name = "partial_batch";
    s.status = rc;
    s.data_ok = p.b_host[0] == 0;
    print_step(s);
    TransferReq req = nullptr;
    print_status("async_remote_outside",
                 p.a.TransferAsync(p.b_name, READ, {{a0, b0 + p.b_host.size(), 16}}, TransferArgs{}, req));
    print_status("async_not_connected", p.a.TransferAsync("127.0.0.1:1", READ, {{a0, b0, 16}}, TransferArgs{}, req));
    // Registration checks.
    print_status("register_host_as_device", p.a.RegisterMem(m, MEM_DEVICE, h));
    MemDesc overlap{};
    overlap.addr = a0 + 16;
    overlap.len = 16;
    print_status("register_overlap", p.a.RegisterMem(overlap, MEM_HOST, h));
    MemDesc zero{};
    zero.addr = a0;
    print_status("register_zero_len", p.a.RegisterMem(zero, MEM_HOST, h));
    print_status("deregister_unknown", p.a.DeregisterMem(reinterpret_cast<MemHandle>(0x99)));
    // Memory the peer did not register is not a target of remote transfers.
    print_status("remote_unregistered", p.a.TransferSync(p.b_name, READ, {{a0, addr(buf.data()), 16}}));
    // Deregistered memory is no longer a target.
    print_status("deregister", p.b.DeregisterMem(p.hb));
    print_status("after_deregister", p.a.TransferSync(p.b_name, READ, {{a0, b0, 16}}));
    print_status("deregister_twice", p.b.DeregisterMem(p.hb));
    MemDesc again{};
    again.addr = b0;
    again.len = p.b_host.size();
    print_status("register_again", p.b.RegisterMem(again, MEM_HOST, p.hb));
    // A transfer that the model says takes longer than its timeout.
    std::vector<unsigned char> big(64 << 20);
    MemDesc bigm{};
    bigm.addr = addr(big.data());
    bigm.len = big.size();
    MemHandle hbig = nullptr;
    print_status("register_big", p.b.RegisterMem(bigm, MEM_HOST, hbig));
    std::vector<unsigned char> big_local(64 << 20);
    MemDesc bigl{};
    bigl.addr = addr(big_local.data());
    bigl.len = big_local.size();
    MemHandle hbigl = nullptr;
    print_status("register_big_local", p.a.RegisterMem(bigl, MEM_HOST, hbigl));
    print_status("timeout", p.a.TransferSync(p.b_name, READ, {{bigl.addr, bigm.addr, big.size()}}, 1));
    print_status("big_ok", p.a.TransferSync(p.b_name, READ, {{bigl.addr, bigm.addr, big.size()}}, 1000));
    // Disconnect, then transfers fail until the next Connect.
    print_status("disconnect", p.a.Disconnect(p.b_name));
    print_status("after_disconnect", p.a.TransferSync(p.b_name, READ, {{a0, b0, 16}}));
    print_status("reconnect", p.a.Connect(p.b_name, 1000));
    print_status("after_reconnect", p.a.TransferSync(p.b_name, READ, {{a0, b0, 16}}));
    // A client-only engine (no port) connects out but does not listen.
    Hixl client;
    AscendString listen;
    print_status("client_init", client.Initialize("127.0.0.1", {}));
    print_status("client_listen_name", sim::GetListenEngine(client, listen));
    print_status("client_connect", client.Connect(p.b_name, 1000));
    print_status("connect_refused", client.Connect("127.0.0.1:1", 200));
    // The peer goes away.
    p.b.Finalize();
    print_status("peer_finalized", p.a.TransferSync(p.b_name, READ, {{a0, b0, 16}}));
    int32_t cap = -1;
    const Status cap_rc = Hixl::GetCapability(AUTO_CONNECT, cap);
    print_status("capability", cap_rc, cap);
    client.Finalize();
    return 0;
}

// ---- two processes -----------------------------------------------------------------------

constexpr size_t kPeerLen = 1 << 20;

// Listens, offers a source buffer (pattern 11) and a zeroed target buffer, waits for a line
// on stdin, then checks what the client wrote into the target (pattern 12).
int scenario_server(const char* name) {
    Hixl engine;
    if (engine.Initialize(name, {}) != SUCCESS) return 2;
    AscendString listen;
    if (sim::GetListenEngine(engine, listen) != SUCCESS) return 2;
    std::vector<unsigned char> src(kPeerLen), dst(kPeerLen, 0);
    fill(src.data(), src.size(), 11);
    MemHandle hs = nullptr, hd = nullptr;
    MemDesc ms{};
    ms.addr = addr(src.data());
    ms.len = src.size();
    MemDesc md{};
    md.addr = addr(dst.data());
    md.len = dst.size();
    if (engine.RegisterMem(ms, MEM_HOST, hs) != SUCCESS || engine.RegisterMem(md, MEM_HOST, hd) != SUCCESS) return 2;
    std::printf("{\"kind\":\"ready\",\"name\":\"%s\",\"src\":%zu,\"dst\":%zu,\"len\":%zu,\"pid\":%d}\n",
                listen.GetString(), static_cast<size_t>(ms.addr), static_cast<size_t>(md.addr), kPeerLen, getpid());
    std::fflush(stdout);
    std::string line;
    std::getline(std::cin, line);
    // Deregistering waits for any transfer still touching the memory (and orders its writes
    // before our reads).
    engine.DeregisterMem(hs);
    engine.DeregisterMem(hd);
    Step s;
    s.name = "server_check";
    s.data_ok = check(dst.data(), dst.size(), 12);
    print_step(s);
    engine.Finalize();
    return 0;
}

int scenario_client(const char* server, uintptr_t src, uintptr_t dst) {
    subscribe();
    Hixl engine;
    if (engine.Initialize("127.0.0.1", {}) != SUCCESS) return 2;
    std::vector<unsigned char> local(kPeerLen);
    MemHandle h = nullptr;
    MemDesc m{};
    m.addr = addr(local.data());
    m.len = local.size();
    if (engine.RegisterMem(m, MEM_HOST, h) != SUCCESS) return 2;
    std::printf("{\"kind\":\"main\",\"tid\":%ld}\n", tid());
    print_status("connect", engine.Connect(server, 2000));
    prof_start({0});
    Step s = sync_transfer(engine, server, READ, {{m.addr, src, kPeerLen}}, "sync_read");
    s.data_ok = check(local.data(), kPeerLen, 11);
    print_step(s);
    fill(local.data(), kPeerLen, 12);
    const size_t half = kPeerLen / 2;
    s = sync_transfer(engine, server, WRITE, {{m.addr, dst, half}}, "sync_write");
    print_step(s);
    s = async_transfer(engine, server, WRITE, {{m.addr + half, dst + half, half}}, "async_write");
    print_step(s);
    std::memset(local.data(), 0, kPeerLen);
    s = async_transfer(engine, server, READ, {{m.addr, src, half}, {m.addr + half, src + half, half}}, "async_read");
    s.data_ok = check(local.data(), kPeerLen, 11);
    print_step(s);
    print_status("remote_outside", engine.TransferSync(server, READ, {{m.addr, src + kPeerLen - 8, 16}}));
    print_status("local_outside", engine.TransferSync(server, READ, {{m.addr + kPeerLen - 8, src, 16}}));
    print_status("still_usable", engine.TransferSync(server, READ, {{m.addr, src, 16}}));
    print_status("disconnect", engine.Disconnect(server));
    prof_stop({0});
    engine.Finalize();
    print_profile();
    return 0;
}

}  // namespace

// Sees every module's command handle on its way to libprofapi (the executable's definition
// comes first in symbol lookup), keeps HIXL's, and forwards.
extern "C" int32_t MsprofRegisterCallback(uint32_t moduleId, ProfCommandHandle handle) {
    using Fn = int32_t (*)(uint32_t, ProfCommandHandle);
    static Fn real = reinterpret_cast<Fn>(dlsym(RTLD_NEXT, "MsprofRegisterCallback"));
    if (moduleId == SEAM_MODULE_HIXL) g_hixl_handle = handle;
    return real != nullptr ? real(moduleId, handle) : PROFAPI_ERROR;
}

// Initialize with HIXL_SCENARIO_OPTION: its status.
int scenario_init_option() {
    Hixl engine;
    print_status("initialize", engine.Initialize("127.0.0.1:0", init_options()));
    engine.Finalize();
    return 0;
}

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s SCENARIO [ARGS...]\n", argv[0]);
        return 64;
    }
    const std::string scenario = argv[1];
    if (scenario == "transfers") return scenario_transfers();
    if (scenario == "switch") return scenario_switch();
    if (scenario == "devices") return scenario_devices();
    if (scenario == "short_command") return scenario_short_command();
    if (scenario == "requests") return scenario_requests();
    if (scenario == "async_switch") return scenario_async_switch();
    if (scenario == "report_fault") return scenario_report_fault();
    if (scenario == "errors") return scenario_errors();
    if (scenario == "init_option") return scenario_init_option();
    if (scenario == "server" && argc >= 3) return scenario_server(argv[2]);
    if (scenario == "client" && argc >= 5) {
        return scenario_client(argv[2], std::strtoull(argv[3], nullptr, 10), std::strtoull(argv[4], nullptr, 10));
    }
    std::fprintf(stderr, "unknown scenario %s\n", scenario.c_str());
    return 64;
}
