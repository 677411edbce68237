// Loaded binaries, the kernel functions taken from them and the argument
// lists built for those functions, each behind its own handle table.
//
// Binaries are opaque to the simulator (any bytes load); what times a kernel
// is its name, looked up once in the kernel cost table, and its core type.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "acl/handle_table.h"
#include "core/catalogue.h"

namespace acl {

struct Function {
    std::string name;
    void* binary = nullptr;                    // handle of the binary it came from
    npusim::CoreType core = npusim::CoreType::AIV;
    const npusim::KernelCost* cost = nullptr;  // entry of the platform's cost table (lives for the process)

    // The name's hash id, asked of libprofapi the first time a report needs it.
    uint64_t hash_id() const;

private:
    mutable std::atomic<uint64_t> hash_{0};
};

struct KernelArgs {
    void* function = nullptr;  // handle of the function the list is for
    std::vector<unsigned char> data;
    uint32_t params = 0;
    bool finalized = false;
};

struct Binary {
    npusim::CoreType core = npusim::CoreType::AIV;  // what the load options say the code runs on
    size_t size = 0;
    std::mutex mutex;  // guards the lists below
    std::map<std::string, void*> functions;  // name -> function handle
    std::vector<void*> args;                 // argument lists of its functions
};

HandleTable<Binary>& binaries();
HandleTable<Function>& functions();
HandleTable<KernelArgs>& kernel_args();

// A function handle for `name` in `binary` (the same handle for the same name); nullptr when the table is full.
void* get_function(void* binary_handle, Binary& binary, const std::string& name);

// Removes a binary with its functions and argument lists; false when the handle is unknown.
bool unload_binary(void* binary_handle);

}  // namespace acl
