// NOUGHTS_HOT_CLONES marks a hot function. On x86-64 Linux with glibc and
// GCC 11 or later it is compiled twice, for x86-64-v3 (AVX2, BMI2, POPCNT:
// every x86-64 CPU since about 2013) and for any x86-64, and the dynamic
// loader picks the version the CPU runs (an ifunc, which musl does not
// have): wheels stay portable, and the hot loops get BMI2's one-cycle shifts
// by a register count, mulx and popcnt where the CPU has them. Define
// NOUGHTS_NO_CLONES to build one version.
// A clone is also flattened: GCC does not inline into a clone the functions
// it calls that are not clones themselves (their target differs), so every
// small helper (a bit count, a lambda run for each line) would be a call,
// compiled for any x86-64. Flattened, they are part of each clone; without
// it, misere free-choice solves took about 1.45 times as long.
#pragma once

#if defined(__x86_64__) && defined(__linux__) && defined(__GLIBC__) && defined(__GNUC__) && \
    !defined(__clang__) && __GNUC__ >= 11 && !defined(NOUGHTS_NO_CLONES) && !defined(__AVX2__)
#define NOUGHTS_HOT_CLONES __attribute__((target_clones("arch=x86-64-v3", "default"), flatten))
#else
#define NOUGHTS_HOT_CLONES
#endif
