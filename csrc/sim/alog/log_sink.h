// Where libascendalog's lines go: the file named by ASCEND_LOG_FILE (opened
// once, for appending) or stderr. Each line is written with a single write()
// so lines from concurrent threads and processes never interleave.
#pragma once

#include <cstddef>

namespace alog {

void write_line(const char* data, size_t length);

}  // namespace alog
