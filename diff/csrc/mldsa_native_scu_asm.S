/* The native build's assembly: every kernel, once for all parameter sets (the same -D flags
 * as mldsa_native_scu.c reach it through build.rs). */
#define MLD_CONFIG_MULTILEVEL_WITH_SHARED
#include "mldsa_native_asm.S"
