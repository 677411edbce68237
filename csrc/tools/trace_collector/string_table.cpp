#include "string_table.h"

#include <utility>

namespace npusim::trace {

uint64_t StringTable::Intern(const char* text) {
    if (text == nullptr) return 0;
    auto [it, inserted] = ids_.try_emplace(std::string(text), ids_.size() + 1);
    if (inserted) {
        pending_.append(it->first);
        pending_.push_back('\0');
    }
    return it->second;
}

std::string StringTable::TakePending() {
    std::string out;
    std::swap(out, pending_);
    return out;
}

void StringTable::Clear() {
    ids_.clear();
    pending_.clear();
}

}  // namespace npusim::trace
