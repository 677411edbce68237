// Interning of the strings that activity records point to: each distinct string gets a stable id
// (1, 2, ... in order of first sight; 0 stands for a NULL pointer) and is written to the strings
// file exactly once.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>

namespace npusim::trace {

class StringTable {
public:
    // The id of `text` (0 for NULL). A string seen for the first time is appended to `pending`
    // with its terminating NUL, ready to be written to the strings file.
    uint64_t Intern(const char* text);

    // The bytes of the strings interned since the last call, and forgets them.
    std::string TakePending();

    void Clear();
    uint64_t size() const { return ids_.size(); }

private:
    std::unordered_map<std::string, uint64_t> ids_;
    std::string pending_;
};

}  // namespace npusim::trace
