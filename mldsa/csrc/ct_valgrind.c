/* Valgrind memcheck client requests for the constant-time test (feature `ct-valgrind` only;
 * see src/ct.rs). Each is a magic instruction sequence that does nothing when the program
 * does not run under valgrind. */
#include <stddef.h>
#include <valgrind/memcheck.h>

/* Marks n bytes at p as defined (public): a declassification. */
void mldsa_ct_make_defined(void *p, size_t n) { (void)VALGRIND_MAKE_MEM_DEFINED(p, n); }

/* Marks n bytes at p as undefined (secret): any branch or memory index that depends on them
 * is then reported. The bytes keep their values. */
void mldsa_ct_make_undefined(void *p, size_t n) { (void)VALGRIND_MAKE_MEM_UNDEFINED(p, n); }

/* Nonzero iff the program runs under valgrind. */
int mldsa_ct_running_on_valgrind(void) { return (int)RUNNING_ON_VALGRIND; }

/* How many errors valgrind has reported so far. */
int mldsa_ct_error_count(void) { return (int)VALGRIND_COUNT_ERRORS; }
