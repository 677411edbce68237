// Process-lifetime copies of strings that records point to (marker messages,
// domain and communicator names). Equal strings share one copy.
#pragma once

#include <string_view>

namespace mspti {

const char* InternString(std::string_view s);

}  // namespace mspti
