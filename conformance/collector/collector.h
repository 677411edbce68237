// The conformance collector: compiled into every workload program.
//
// It writes one JSON object per line to the file named by $MSPTI_CONFORMANCE_LOG:
//   - every buffer request and completion, and every record iterated from a completed buffer;
//   - every callback invocation of the msPTI Callback API;
//   - the workload's own ground truth (what it called, on which thread, when, with what result).
// The Python checkers read that log. The collector itself asserts nothing.
//
// Buffer policy ($MSPTI_CONFORMANCE_BUFFER, comma-separated):
//   size=N       bytes per buffer (default 8 MiB)
//   max=N        maxNumRecords returned with each buffer (default 0)
//   decline=N    answer the first N requests with a NULL buffer
//   null         answer every request with a NULL buffer
//   slow=MS      sleep MS milliseconds in every completion (slow consumer)
//   keep         never free a completed buffer; fill it with a canary pattern and verify it at the end
//   strings      remember string fields and verify at the end that they still read the same
//   reenter_flush=N  call msptiActivityFlushAll(1) from inside the first N complete callbacks
//   reenter_call=N   call the re-entry hook (instrumented runtime calls) from inside the first N request
//                    and the first N complete callbacks (the THR-07 robustness probe only)
// Callback data policy ($MSPTI_CONFORMANCE_CBDATA): "basic" (default) logs the fields every
// implementation fills; "strict" also uses correlationData and the documented optional fields.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "mspti.h"

namespace conformance {

// A JSON object under construction.
class Json {
public:
    explicit Json(const char* event);
    Json& str(const char* key, const char* value);  // null when value is nullptr
    Json& str(const char* key, const std::string& value);
    Json& num(const char* key, uint64_t value);
    Json& inum(const char* key, int64_t value);
    Json& dbl(const char* key, double value);
    Json& boolean(const char* key, bool value);
    Json& null(const char* key);
    // Appends `fields`, the members of a JSON object without its braces (`"a":1,"b":"x"`), as given.
    Json& raw(const char* fields);
    const std::string& text() const { return text_; }

private:
    void key(const char* name);
    std::string text_;
};

// Appends the object to the log with a global sequence number ("seq"); thread-safe.
void emit(Json& object);

std::string json_quote(const char* text);
uint64_t now_ns();       // CLOCK_REALTIME, nanoseconds since the epoch
uint32_t thread_id();    // Linux tid of the calling thread

// Opens the log and reads the policies; safe to call more than once.
void collector_init();

// In the child of a fork(), first thing: new locks (the parent's may have been held by threads
// the child does not have) and a log of its own, $MSPTI_CONFORMANCE_LOG with ".NAME" appended,
// whose sequence starts again at 1 with a "start" event carrying the child's pid. The buffers the
// parent had handed out stay known, so the buffer protocol is checked across the fork.
void collector_forked_child(const char* name);

// The buffer callbacks. Two interchangeable pairs, "A" and "B", so that a workload can observe
// which pair a buffer went through after re-registration.
msptiBuffersCallbackRequestFunc request_callback(char pair);
msptiBuffersCallbackCompleteFunc complete_callback(char pair);

// The subscriber callback and the userdata it expects to receive.
msptiCallbackFunc api_callback();
void* callback_userdata();

// Logs one record (used by completion and by programs that iterate buffers themselves).
void log_record(const msptiActivity* record, uint64_t completion, size_t offset);

// sizeof the record type of a kind, per the headers this program was compiled against (0 if none).
size_t record_size(uint32_t kind);

// What reenter_call runs inside a buffer callback; `site` is "request" or "complete". The workload
// sets it (the collector knows no runtime API); it logs its own "reenter" event.
using ReentryHook = void (*)(const char* site);
void set_reentry_hook(ReentryHook hook);

// End-of-run checks (canary and string lifetime), then an "end" event.
void collector_finish();

}  // namespace conformance
