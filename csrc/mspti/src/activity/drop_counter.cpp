#include "activity/drop_counter.h"

#include "common/no_destructor.h"

namespace mspti::activity {

DropCounter& Drops() {
    static NoDestructor<DropCounter> drops;
    return drops.get();
}

}  // namespace mspti::activity
