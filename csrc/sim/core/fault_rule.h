// The rules of a fault plan (core/fault_plan.h) and their parser: pure, no process state.
//
// Grammar (shared with sim_runtime/faults.py), rules separated by ';':
//   FUNCTION:ACTION[@WHEN]
//   ACTION = error=INT | delay=DURATION(ns|us|ms|s) | short=INT | garble | stall
//   WHEN   = N | N+ | N-M | every=K          (absent: every call)
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/export.h"

namespace npusim {

enum class FaultAction : uint8_t { Error, Delay, Short, Garble, Stall };

struct NPUSIM_API FaultRule {
    std::string function;
    FaultAction action = FaultAction::Error;
    int64_t value = 0;  // error code, delay ns, or byte limit
    uint64_t first = 1, last = UINT64_MAX, every = 0;  // which calls (1-based)
    bool matches(uint64_t call) const;
};

// The rules of `text` into `out`; fails (error says why, naming the rule) on a rule that breaks the
// grammar, whose delay does not fit in 64-bit nanoseconds, or that names a function not in `known`
// (then the closest known names are suggested).
NPUSIM_API bool parse_fault_rules(const std::string& text, const std::vector<std::string>& known,
                                  std::vector<FaultRule>& out, std::string& error);

}  // namespace npusim
