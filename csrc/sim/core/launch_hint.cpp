#include "core/launch_hint.h"

namespace npusim {

namespace {
thread_local LaunchHint t_hint;
thread_local bool t_has_hint = false;
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

}  // namespace npusim
