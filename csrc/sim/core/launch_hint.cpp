#include "core/launch_hint.h"

namespace npusim {

namespace {
thread_local LaunchHint t_hint;
thread_local bool t_has_hint = false;
thread_local Stream* t_deferred_launch = nullptr;
}  // namespace

void set_launch_hint(const LaunchHint& hint) {
    t_hint = hint;
    t_has_hint = true;
}

bool take_launch_hint(LaunchHint& out) {
    if (!t_has_hint) return false;
    out = t_hint;
    t_has_hint = false;
    return true;
}

void note_deferred_launch(Stream* stream) { t_deferred_launch = stream; }

Stream* take_deferred_launch() {
    Stream* s = t_deferred_launch;
    t_deferred_launch = nullptr;
    return s;
}

}  // namespace npusim
