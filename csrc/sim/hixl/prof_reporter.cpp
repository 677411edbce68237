#include "prof_reporter.h"

#include <sys/syscall.h>
#include <unistd.h>

#include "seam/profapi.h"

namespace hixl {

namespace {

uint32_t this_thread_id() {
    static thread_local const uint32_t tid = static_cast<uint32_t>(::syscall(SYS_gettid));
    return tid;
}

}  // namespace

uint64_t HixlProfilingReporter::now() { return MsprofSysCycleTime(); }

void HixlProfilingReporter::report(HixlProfType api, uint64_t begin, uint64_t end) noexcept {
    MsprofApi record{};
    record.magicNumber = MSPROF_REPORT_DATA_MAGIC_NUM;
    record.level = MSPROF_REPORT_ACL_LEVEL;
    record.type = prof::type_id(api, prof::type_id_scheme());
    record.threadId = this_thread_id();
    record.beginTime = begin;
    record.endTime = end;
    record.itemId = 0;
    (void)MsprofReportApi(1U, &record);
}

}  // namespace hixl
