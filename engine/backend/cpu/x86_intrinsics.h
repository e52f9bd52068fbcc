// <immintrin.h> for the AVX-512 kernels. GCC 12's AVX-512 intrinsics read a deliberately undefined
// register (GCC bug 105593), which -Werror builds would reject as a warning in every includer.
#pragma once

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#include <immintrin.h>
#pragma GCC diagnostic pop
#else
#include <immintrin.h>
#endif
