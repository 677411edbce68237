// The thread-locals read on every traced call use the initial-exec TLS model: one load at a fixed
// offset from the thread pointer, where the default model for a shared library (global-dynamic,
// through a TLS descriptor) costs a call into the dynamic linker on every access (about 24 accesses
// and 100 instructions per traced launch before this).
//
// Only small objects: when msPTI is loaded by dlopen (not preloaded or linked), its initial-exec
// thread-locals take space from the static TLS surplus glibc keeps for such libraries
// (glibc.rtld.optional_static_tls, 512 bytes by default). msPTI's come to about 140 bytes
// (docs/performance.md); bigger per-thread state stays in ordinary thread-locals.
#pragma once

#define MSPTI_HOT_TLS __attribute__((tls_model("initial-exec")))
