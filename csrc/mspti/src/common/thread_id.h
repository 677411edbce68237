// The OS thread id (gettid) of the calling thread, cached per thread so that
// records and reports do not cost a system call each.
#pragma once

#include <cstdint>

namespace mspti {

uint32_t CurrentThreadId();
uint32_t CurrentProcessId();

}  // namespace mspti
