/*
 * The harness's view of OpenSSL's ML-DSA (FIPS 204), through OpenSSL's public EVP API only
 * (no internal header), for the `openssl` oracle. Built against the libcrypto of the
 * `openssl-src` crate (OpenSSL 4.0.x), default provider.
 *
 * Common to every function:
 *  - set is 44, 65 or 87; any other value is a shim failure (-1).
 *  - Thread-safe: the shim keeps no state of its own; every call builds and frees its own
 *    OpenSSL objects in the default library context.
 *  - OpenSSL's (thread-local) error queue is cleared on entry. On any answer other than
 *    success/accept, err receives a NUL-terminated text (truncated to err_cap bytes): what
 *    the shim was doing, then OpenSSL's queued errors ("lib: reason: detail; ..."), or
 *    "(OpenSSL gave no reason)". err may be NULL or err_cap 0 (then nothing is written); on
 *    success err holds "".
 *
 * Key lengths: pk 1312/1952/2592, sk 2560/4032/4896, signature 2420/3309/4627 bytes.
 */
#ifndef MLDSA_OSSL_SHIM_H
#define MLDSA_OSSL_SHIM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Message modes of mldsa_ossl_sign / mldsa_ossl_verify. */
#define MLDSA_OSSL_PURE 0        /* ML-DSA.Sign/Verify of msg with context ctx */
#define MLDSA_OSSL_HASH 1        /* HashML-DSA of msg; OpenSSL computes PH(msg) with `ph` */
#define MLDSA_OSSL_HASH_DIGEST 2 /* HashML-DSA given PH(M) = msg (its length is not checked
                                  * by the shim: OpenSSL decides) */
#define MLDSA_OSSL_MU 3          /* external mu: msg = mu (64 bytes; OpenSSL checks) */
#define MLDSA_OSSL_INTERNAL 4    /* Sign_internal/Verify_internal of M' = msg */

/* Return values. */
#define MLDSA_OSSL_NOT_OFFERED 2

/*
 * KeyGen_internal(xi): pk and sk (expanded, skEncode form) of the set's lengths.
 * Returns 0 on success, 1 when OpenSSL refuses (err says why), -1 on a shim failure.
 */
int mldsa_ossl_keygen(int set, const uint8_t xi[32], uint8_t *pk, uint8_t *sk, char *err,
                      size_t err_cap);

/*
 * Signs with the expanded secret key sk (any length: a wrong one is OpenSSL's refusal) and
 * the 32-byte rnd (all zero: the deterministic variant).
 * ph: for modes 1 and 2 one of "SHA2-224", "SHA2-256", "SHA2-384", "SHA2-512",
 * "SHA2-512/224", "SHA2-512/256", "SHA3-224", "SHA3-256", "SHA3-384", "SHA3-512",
 * "SHAKE-128" (PH output 32 bytes), "SHAKE-256" (64 bytes); NULL for the other modes.
 * ctx (ctx_len bytes) is the context of modes 0, 1 and 2; it is ignored in modes 3 and 4.
 * msg/ctx may be NULL when their length is 0.
 *
 * Returns 0 and the signature (*sig_len bytes) on success; 1 when OpenSSL refuses (a key it
 * rejects, a context over 255 bytes, a digest of the wrong length, a mu not of 64 bytes...);
 * 2 (MLDSA_OSSL_NOT_OFFERED) for HashML-DSA (modes 1, 2) with "SHA2-512/224" or
 * "SHA2-512/256": OpenSSL 4.0 knows no HashML-DSA OID for them (its ML-DSA-MU digest
 * accepts SHA-224/256/384/512, SHA3-*, SHAKE-128/256 only); -1 on a failure of the shim
 * itself (allocation, unknown set/mode/ph, ph given for another mode, sig_cap too small).
 */
int mldsa_ossl_sign(int set, const uint8_t *sk, size_t sk_len, int mode, const char *ph,
                    const uint8_t *msg, size_t msg_len, const uint8_t *ctx, size_t ctx_len,
                    const uint8_t rnd[32], uint8_t *sig, size_t sig_cap, size_t *sig_len,
                    char *err, size_t err_cap);

/*
 * Verifies sig over msg under pk, in the same modes as mldsa_ossl_sign (same ph and ctx
 * rules). Any pk/sig length is allowed (a wrong one is a reject).
 * Returns 1 accept, 0 reject (err: why, if OpenSSL said: a key it refuses, a context over
 * 255 bytes, a wrong digest or mu length, or a signature that does not verify), 2 not
 * offered (modes 1, 2 with "SHA2-512/224" or "SHA2-512/256"), -1 shim failure.
 */
int mldsa_ossl_verify(int set, const uint8_t *pk, size_t pk_len, int mode, const char *ph,
                      const uint8_t *msg, size_t msg_len, const uint8_t *ctx, size_t ctx_len,
                      const uint8_t *sig, size_t sig_len, char *err, size_t err_cap);

#ifdef __cplusplus
}
#endif

#endif /* MLDSA_OSSL_SHIM_H */
