#include "common/string_pool.h"

#include <cstring>

#include "common/hash.h"
#include "common/intern_table.h"
#include "common/no_destructor.h"

namespace mspti {

namespace {

// The calling thread's last interned string: a marker loop usually repeats its message, and comparing
// the bytes with the stored copy costs less than hashing them and probing the pool.
struct LastString {
    const char* interned;
    size_t size;
};
thread_local LastString t_last{nullptr, 0};

}  // namespace

const char* InternString(std::string_view s) {
    LastString& last = t_last;
    if (last.interned != nullptr && last.size == s.size() && std::memcmp(last.interned, s.data(), s.size()) == 0) {
        return last.interned;
    }
    static NoDestructor<InternTable> pool(14);
    const uint64_t key = HashString(s);
    const InternTable::Entry* e = pool->FindText(key, s);
    if (e == nullptr) e = pool->Put(key, s, 0, false);
    last = LastString{e->text.c_str(), e->text.size()};
    return e->text.c_str();
}

}  // namespace mspti
