#include "common/string_pool.h"

#include "common/hash.h"
#include "common/intern_table.h"
#include "common/no_destructor.h"

namespace mspti {

const char* InternString(std::string_view s) {
    static NoDestructor<InternTable> pool(14);
    const uint64_t key = HashString(s);
    const InternTable::Entry* e = pool->FindText(key, s);
    if (e == nullptr) e = pool->Put(key, s, 0, false);
    return e->text.c_str();
}

}  // namespace mspti
