// Conversions between float and the narrow floating-point formats HCCL reduces by way
// of float. Encodings (bit 7 is the sign where the format has one):
//
//   FP16     IEEE binary16; float -> fp16 rounds to nearest, ties to even; overflow -> inf.
//   BFP16    the upper half of an IEEE binary32; rounds to nearest even; NaN stays NaN.
//   FP8E4M3  OCP E4M3 "FN": s eeee mmm, bias 7, subnormals when e = 0, no infinity,
//            S.1111.111 = NaN, largest finite 448. Rounds to nearest even; finite values beyond
//            448 saturate to +-448; +-inf and NaN become NaN.
//   FP8E5M2  OCP E5M2: s eeeee mm, bias 15, IEEE-style subnormals, inf (S.11111.00) and NaN.
//            Rounds to nearest even; overflow (>= 61440) -> inf.
//   FP8E8M0  OCP/MX scale: eeeeeeee, no sign, value 2^(e-127), 0xFF = NaN. A value rounds to
//            the nearest power of two (ties to the larger); it saturates at 2^127 and 2^-127;
//            negative values and NaN become NaN.
//   HIF8     HiFloat8 (tapered precision): sign bit, then a prefix-coded dot field giving the
//            exponent width D, then the exponent (sign-magnitude, its leading magnitude bit
//            implicit), then the mantissa:
//              bits 6..5 = 11   D = 4, exponent 4 bits, mantissa 1 bit   |E| in 8..15
//              bits 6..5 = 10   D = 3, exponent 3 bits, mantissa 2 bits  |E| in 4..7
//              bits 6..5 = 01   D = 2, exponent 2 bits, mantissa 3 bits  |E| in 2..3
//              bits 6..4 = 001  D = 1, exponent 1 bit,  mantissa 3 bits  |E| = 1
//              bits 6..3 = 0001 D = 0, no exponent,     mantissa 3 bits  E = 0
//              bits 6..3 = 0000 denormal: value 2^(m - 23) for m = bits 2..0 in 1..7
//            value = (-1)^S * 2^E * (1 + mantissa / 2^width); the exponent field's top bit is
//            the exponent's sign (1 = negative). 0x00 is zero, 0x80 NaN, 0x6F / 0xEF +-inf;
//            the largest finite value is 2^15. Rounds to nearest, ties away from zero;
//            overflow (>= 1.25 * 2^15) -> inf.
#pragma once

#include <cstdint>

namespace hccl {

float half_to_float(uint16_t h);
uint16_t float_to_half(float f);
float bf16_to_float(uint16_t b);
uint16_t float_to_bf16(float f);

enum class Fp8 : uint8_t { E4M3, E5M2, E8M0, HiF8 };
float fp8_to_float(Fp8 format, uint8_t code);
uint8_t float_to_fp8(Fp8 format, float value);

}  // namespace hccl
