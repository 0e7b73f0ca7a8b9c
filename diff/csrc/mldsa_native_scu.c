/*
 * mldsa-native, all three parameter sets in one translation unit, built by diff/build.rs
 * from the source the mldsa-native-rs crate bundles (never from a copy in this repository).
 * The namespace prefix and the backend come from -D flags: build.rs compiles this file twice,
 * as the portable C build and as the native build (AVX2 on x86_64, AArch64 assembly), each
 * with its own prefix so that both link into one binary.
 *
 * The native build also appends the kernel shim (mldsa_native_shim.h): mldsa-native's
 * backend kernels are static inline, so they can only be exported from this unit.
 */
#define MLD_CONFIG_MONOBUILD_KEEP_SHARED_HEADERS

#define MLD_CONFIG_MULTILEVEL_WITH_SHARED 1
#define MLD_CONFIG_PARAMETER_SET 44
#include "mldsa_native.c"
#undef MLD_CONFIG_PARAMETER_SET
#undef MLD_CONFIG_MULTILEVEL_WITH_SHARED

#define MLD_CONFIG_MULTILEVEL_NO_SHARED
#define MLD_CONFIG_PARAMETER_SET 65
#include "mldsa_native.c"
#undef MLD_CONFIG_PARAMETER_SET

#define MLD_CONFIG_PARAMETER_SET 87
#include "mldsa_native.c"
#undef MLD_CONFIG_PARAMETER_SET
#undef MLD_CONFIG_MULTILEVEL_NO_SHARED

#if defined(MLDSA_DIFF_SHIM)
#include "mldsa_native_shim.h"
#endif

#undef MLD_CONFIG_MONOBUILD_KEEP_SHARED_HEADERS
