// Host cost of an ACL call by API family: what the calling thread spends on the virtual clock for it.
//
// Every exported ACL call is charged at its entry (ApiScope): the cost of its family from the timing
// model (timing.toml acl_launch_ns, acl_memcpy_async_ns, acl_event_record_ns; a family the table does
// not name costs the SoC's host_api_ns, as every call did before). A synchronisation also pays, once
// the device is done, the wake-up and return of the call (timing.toml acl_sync_ns; the SoC's
// sync_wake_ns when the table has none). The SoC is fixed for the process, so the table is built once;
// a call reads one entry of it. docs/timing.md ("Host API costs per class") says where each comes from.
#pragma once

#include <cstdint>

#include "acl/api_ids.h"

namespace acl {

enum class HostFamily : uint8_t { Other, Launch, MemcpyAsync, EventRecord, Synchronize };

// The family an ACL call belongs to.
HostFamily host_family(AclApi api);

// Host cost of a call of `api` at its entry.
uint64_t api_entry_ns(AclApi api);

// Host cost of a synchronisation once the device is done.
uint64_t sync_return_ns();

}  // namespace acl
