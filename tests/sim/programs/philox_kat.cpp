// Prints philox4x32_10 (csrc/sim/opapi/device_rng.h) of the counter and key given as 6 hex words.
#include <cstdio>
#include <cstdlib>

#include "opapi/device_rng.h"

int main(int argc, char** argv) {
    if (argc != 7) {
        std::fprintf(stderr, "usage: %s C0 C1 C2 C3 K0 K1 (hex)\n", argv[0]);
        return 2;
    }
    unsigned long w[6];
    for (int i = 0; i < 6; ++i) w[i] = std::strtoul(argv[i + 1], nullptr, 16);
    const auto r = npusim::opapi::philox4x32_10({uint32_t(w[0]), uint32_t(w[1]), uint32_t(w[2]), uint32_t(w[3])},
                                                {uint32_t(w[4]), uint32_t(w[5])});
    std::printf("%08x %08x %08x %08x\n", r[0], r[1], r[2], r[3]);
    return 0;
}
