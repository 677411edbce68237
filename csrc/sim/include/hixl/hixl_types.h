/*
 * Types of the HIXL transfer engine (namespace hixl): status codes, memory and
 * transfer descriptors, request status. Same names, values and layouts as
 * CANN's HIXL headers, so a program written for CANN compiles unchanged.
 */
#ifndef NPU_SIM_HIXL_HIXL_TYPES_H
#define NPU_SIM_HIXL_HIXL_TYPES_H

#include <cstddef>
#include <cstdint>

#include "ge/ge_api_types.h"

// The library builds with hidden visibility; the public classes are exported.
#ifndef ASCEND_FUNC_VISIBILITY
#define ASCEND_FUNC_VISIBILITY __attribute__((visibility("default")))
#endif

namespace hixl {

using Status = uint32_t;
using AscendString = ge::AscendString;
using TransferReq = void *;  // an asynchronous request (opaque)
using MemHandle = void *;    // a registration (opaque)

// Keys of the options map passed to Hixl::Initialize. The simulator reads LocalCommRes, GlobalResourceConfig and
// EnableUseFabricMem to choose the transfer path (docs/timing.md "HIXL") and accepts the others without effect.
constexpr const char OPTION_ENABLE_USE_FABRIC_MEM[] = "EnableUseFabricMem";
constexpr const char OPTION_RDMA_TRAFFIC_CLASS[] = "RdmaTrafficClass";
constexpr const char OPTION_RDMA_SERVICE_LEVEL[] = "RdmaServiceLevel";
constexpr const char OPTION_BUFFER_POOL[] = "BufferPool";
constexpr const char OPTION_GLOBAL_RESOURCE_CONFIG[] = "GlobalResourceConfig";
constexpr const char OPTION_AUTO_CONNECT[] = "AutoConnect";
constexpr const char OPTION_LOCAL_COMM_RES[] = "LocalCommRes";

// Status codes.
constexpr Status SUCCESS = 0U;
constexpr Status PARAM_INVALID = 103900U;      // an argument is wrong (unknown handle, range outside registered memory)
constexpr Status TIMEOUT = 103901U;            // the operation did not finish in the allowed time
constexpr Status NOT_CONNECTED = 103902U;      // no link to the remote engine
constexpr Status ALREADY_CONNECTED = 103903U;  // the link exists already
constexpr Status NOTIFY_FAILED = 103904U;      // reserved
constexpr Status UNSUPPORTED = 103905U;        // the feature is not available
constexpr Status RESOURCE_EXHAUSTED = 203900U; // no stream or link resource left
constexpr Status FAILED = 503900U;             // anything else

enum FeatureType : int32_t {
    AUTO_CONNECT = 0,
    CLIENT_SERVER_COMM = 1,
};

constexpr int32_t FEATURE_SUPPORTED = 1;
constexpr int32_t FEATURE_NOT_SUPPORTED = 0;

enum MemType { MEM_DEVICE, MEM_HOST };

// READ moves remote memory to local memory, WRITE local memory to remote memory.
enum TransferOp { READ, WRITE };

struct MemDesc {
    uintptr_t addr;
    size_t len;
    uint8_t reserved[128] = {};
};

struct TransferOpDesc {
    uintptr_t local_addr;
    uintptr_t remote_addr;
    size_t len;
};

enum class TransferStatus { WAITING, COMPLETED, TIMEOUT, FAILED };

struct TransferArgs {
    const void *user_data = nullptr;
    uint8_t reserved[120] = {};
};

struct GetTransferStatusArgs {
    uint32_t max_query_count = UINT32_MAX;
    bool skip_waiting = false;  // leave requests that are still WAITING out of the results
    uint8_t reserved[123] = {};
};

struct TransferResult {
    TransferReq req = nullptr;
    const void *user_data = nullptr;
    TransferStatus status = TransferStatus::WAITING;
    uint8_t reserved[108] = {};
};

}  // namespace hixl

#endif  // NPU_SIM_HIXL_HIXL_TYPES_H
