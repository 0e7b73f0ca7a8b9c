/*
 * OpenSSL's ML-DSA behind the three functions of openssl_shim.h, through the public EVP API
 * of OpenSSL 4.0 (default provider, default library context). Which route each operation
 * takes:
 *
 *  - keygen: EVP_PKEY_keygen_init on an "ML-DSA-xx" context, the seed xi as
 *    OSSL_PKEY_PARAM_ML_DSA_SEED, EVP_PKEY_generate; pk and the expanded sk are then read
 *    back as OSSL_PKEY_PARAM_PUB_KEY / OSSL_PKEY_PARAM_PRIV_KEY.
 *  - keys for sign/verify: EVP_PKEY_fromdata with OSSL_PKEY_PARAM_PRIV_KEY (selection
 *    KEYPAIR) or OSSL_PKEY_PARAM_PUB_KEY (selection PUBLIC_KEY). Importing an expanded
 *    secret key, OpenSSL range-checks s1/s2 (refusing with no error queued), recomputes
 *    t = A*s1 + s2, refuses the key unless Power2Round(t) gives back its t0 and H(rho || t1)
 *    equals its tr; K cannot be checked.
 *  - mode 0 (pure): EVP_PKEY_sign_message_init / EVP_PKEY_verify_message_init with
 *    "context-string" (and "test-entropy" = rnd when signing), then one-shot
 *    EVP_PKEY_sign / EVP_PKEY_verify of msg: OpenSSL forms M' = 0 || |ctx| || ctx || msg.
 *  - mode 1 (HashML-DSA of msg): PH(msg) with OpenSSL's own digest (EVP_MD_fetch of the
 *    protocol's hash; SHAKE-128/256 squeezed to 32/64 bytes), then as mode 2.
 *  - mode 2 (HashML-DSA given PH(M)): the "ML-DSA-MU" digest, with the public key ("pub"),
 *    the context ("context-string") and the pre-hash name ("digest"), absorbs PH(M) and
 *    yields mu = H(H(pk) || 1 || |ctx| || ctx || OID || PH(M)); OpenSSL checks the length
 *    of PH(M). Then as mode 3. When signing, pk is read back from the imported secret key.
 *  - mode 3 (external mu): sign/verify message init with "mu" = 1; msg is mu.
 *  - mode 4 (internal): sign/verify message init with "message-encoding" = 0 (raw):
 *    mu = H(tr || msg), i.e. Sign_internal / Verify_internal of M' = msg.
 *
 * rnd is passed as "test-entropy" (exactly 32 bytes), which OpenSSL uses as FIPS 204's rnd
 * in rho'' = H(K || rnd || mu).
 */
#include "openssl_shim.h"

#include <stdio.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>

typedef struct {
  int set;
  const char *alg;
  size_t pk_len, sk_len, sig_len;
} ShimSet;

static const ShimSet SHIM_SETS[] = {
    {44, "ML-DSA-44", 1312, 2560, 2420},
    {65, "ML-DSA-65", 1952, 4032, 3309},
    {87, "ML-DSA-87", 2592, 4896, 4627},
};

/* A pre-hash: the protocol's name, ML-DSA-MU's name for it (NULL: OpenSSL has no HashML-DSA
 * OID for it), the name OpenSSL's digest is fetched by, the PH output length, XOF or not. */
typedef struct {
  const char *name, *mu_name, *md_name;
  size_t len;
  int xof;
} ShimHash;

static const ShimHash SHIM_HASHES[] = {
    {"SHA2-224", "SHA-224", "SHA2-224", 28, 0},
    {"SHA2-256", "SHA-256", "SHA2-256", 32, 0},
    {"SHA2-384", "SHA-384", "SHA2-384", 48, 0},
    {"SHA2-512", "SHA-512", "SHA2-512", 64, 0},
    {"SHA2-512/224", NULL, "SHA2-512/224", 28, 0},
    {"SHA2-512/256", NULL, "SHA2-512/256", 32, 0},
    {"SHA3-224", "SHA3-224", "SHA3-224", 28, 0},
    {"SHA3-256", "SHA3-256", "SHA3-256", 32, 0},
    {"SHA3-384", "SHA3-384", "SHA3-384", 48, 0},
    {"SHA3-512", "SHA3-512", "SHA3-512", 64, 0},
    {"SHAKE-128", "SHAKE-128", "SHAKE-128", 32, 1},
    {"SHAKE-256", "SHAKE-256", "SHAKE-256", 64, 1},
};

#define SHIM_MU_LEN 64
#define SHIM_RND_LEN 32
#define SHIM_MAX_PK 2592

/* Stands in for a NULL pointer of length 0 (OpenSSL refuses NULL octet-string data). */
static const uint8_t SHIM_EMPTY[1] = {0};

static const uint8_t *nonnull(const uint8_t *p) { return p != NULL ? p : SHIM_EMPTY; }

static void err_append(char *err, size_t cap, const char *s)
{
  size_t used;
  if (err == NULL || cap == 0) return;
  used = strlen(err);
  if (used + 1 >= cap) return;
  snprintf(err + used, cap - used, "%s", s);
}

/*
 * err = what, then OpenSSL's queued errors (oldest first), which are drained. With
 * from_openssl set and nothing queued, says that OpenSSL gave no reason.
 */
static void report(char *err, size_t cap, const char *what, int from_openssl)
{
  unsigned long e;
  const char *data = NULL;
  int flags = 0, any = 0;
  char line[320];

  if (err != NULL && cap > 0) err[0] = '\0';
  err_append(err, cap, what);
  while ((e = ERR_get_error_all(NULL, NULL, NULL, &data, &flags)) != 0) {
    const char *lib = ERR_lib_error_string(e), *reason = ERR_reason_error_string(e);
    if (reason != NULL)
      snprintf(line, sizeof(line), "%s%s: %s", any ? "; " : ": ", lib ? lib : "?", reason);
    else
      snprintf(line, sizeof(line), "%s%s: reason %d", any ? "; " : ": ", lib ? lib : "?",
               ERR_GET_REASON(e));
    err_append(err, cap, line);
    if ((flags & ERR_TXT_STRING) != 0 && data != NULL && data[0] != '\0') {
      err_append(err, cap, " (");
      err_append(err, cap, data);
      err_append(err, cap, ")");
    }
    any = 1;
  }
  if (!any && from_openssl) err_append(err, cap, ": (OpenSSL gave no reason)");
}

/* A failure found by the shim itself: err = what, and code is returned. */
static int shim_fail(char *err, size_t cap, const char *what, int code)
{
  report(err, cap, what, 0);
  return code;
}

static void begin(char *err, size_t cap)
{
  ERR_clear_error();
  if (err != NULL && cap > 0) err[0] = '\0';
}

static const ShimSet *find_set(int set)
{
  size_t i;
  for (i = 0; i < sizeof(SHIM_SETS) / sizeof(SHIM_SETS[0]); i++)
    if (SHIM_SETS[i].set == set) return &SHIM_SETS[i];
  return NULL;
}

/* Checks set, mode, ph and the pointers: 0 ok, 2 not offered, -1 misuse (err written). */
static int check_args(int set, int mode, const char *ph, const uint8_t *msg, size_t msg_len,
                      const uint8_t *ctx, size_t ctx_len, const ShimSet **s,
                      const ShimHash **h, char *err, size_t cap)
{
  size_t i;
  *h = NULL;
  if ((*s = find_set(set)) == NULL) return shim_fail(err, cap, "shim: unknown parameter set", -1);
  if (mode < MLDSA_OSSL_PURE || mode > MLDSA_OSSL_INTERNAL)
    return shim_fail(err, cap, "shim: unknown mode", -1);
  if ((msg == NULL && msg_len != 0) || (ctx == NULL && ctx_len != 0))
    return shim_fail(err, cap, "shim: NULL msg or ctx with a nonzero length", -1);
  if (mode != MLDSA_OSSL_HASH && mode != MLDSA_OSSL_HASH_DIGEST) {
    if (ph != NULL) return shim_fail(err, cap, "shim: ph given for a mode without pre-hash", -1);
    return 0;
  }
  if (ph == NULL) return shim_fail(err, cap, "shim: HashML-DSA without ph", -1);
  for (i = 0; i < sizeof(SHIM_HASHES) / sizeof(SHIM_HASHES[0]); i++)
    if (strcmp(SHIM_HASHES[i].name, ph) == 0) *h = &SHIM_HASHES[i];
  if (*h == NULL) return shim_fail(err, cap, "shim: unknown pre-hash name", -1);
  if ((*h)->mu_name == NULL)
    return shim_fail(err, cap, "not offered: OpenSSL has no HashML-DSA with this pre-hash", MLDSA_OSSL_NOT_OFFERED);
  return 0;
}

/* Imports a secret (priv) or public key: 0 ok, 1 OpenSSL refuses it, -1 shim failure. */
static int import_key(const ShimSet *s, int priv, const uint8_t *key, size_t len,
                      EVP_PKEY **out, char *err, size_t cap)
{
  OSSL_PARAM p[2];
  int r = 0;
  EVP_PKEY_CTX *kc = EVP_PKEY_CTX_new_from_name(NULL, s->alg, NULL);

  *out = NULL;
  if (kc == NULL || EVP_PKEY_fromdata_init(kc) <= 0) {
    report(err, cap, "shim: EVP_PKEY_fromdata_init failed", 1);
    EVP_PKEY_CTX_free(kc);
    return -1;
  }
  p[0] = OSSL_PARAM_construct_octet_string(priv ? OSSL_PKEY_PARAM_PRIV_KEY : OSSL_PKEY_PARAM_PUB_KEY,
                                           (void *)nonnull(key), len);
  p[1] = OSSL_PARAM_construct_end();
  if (EVP_PKEY_fromdata(kc, out, priv ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY, p) <= 0) {
    report(err, cap, priv ? "secret key refused" : "public key refused", 1);
    EVP_PKEY_free(*out);
    *out = NULL;
    r = 1;
  }
  EVP_PKEY_CTX_free(kc);
  return r;
}

/* PH(msg) with OpenSSL's own digest: 0 ok, -1 failure. */
static int prehash(const ShimHash *h, const uint8_t *msg, size_t msg_len, uint8_t out[64],
                   char *err, size_t cap)
{
  unsigned int n = 0;
  int ok;
  EVP_MD *md = EVP_MD_fetch(NULL, h->md_name, NULL);
  EVP_MD_CTX *mc = EVP_MD_CTX_new();

  ok = md != NULL && mc != NULL && EVP_DigestInit_ex2(mc, md, NULL) &&
       EVP_DigestUpdate(mc, nonnull(msg), msg_len) &&
       (h->xof ? EVP_DigestFinalXOF(mc, out, h->len)
               : (EVP_DigestFinal_ex(mc, out, &n) && n == h->len));
  EVP_MD_CTX_free(mc);
  EVP_MD_free(md);
  if (!ok) report(err, cap, "shim: computing PH(M) failed", 1);
  return ok ? 0 : -1;
}

/*
 * mu of HashML-DSA with the ML-DSA-MU digest, the public key read from pkey:
 * 0 ok, 1 OpenSSL refuses (context, digest length...), -1 shim failure.
 */
static int hash_mu(const ShimHash *h, EVP_PKEY *pkey, const uint8_t *phm, size_t phm_len,
                   const uint8_t *ctx, size_t ctx_len, uint8_t mu[SHIM_MU_LEN], char *err,
                   size_t cap)
{
  uint8_t pub[SHIM_MAX_PK];
  size_t pub_len = 0;
  unsigned int n = 0;
  OSSL_PARAM p[4], *q = p;
  EVP_MD *md = NULL;
  EVP_MD_CTX *mc = NULL;
  int r = -1;

  if (!EVP_PKEY_get_octet_string_param(pkey, OSSL_PKEY_PARAM_PUB_KEY, pub, sizeof(pub), &pub_len)) {
    report(err, cap, "shim: reading the public key failed", 1);
    return -1;
  }
  md = EVP_MD_fetch(NULL, "ML-DSA-MU", NULL);
  mc = EVP_MD_CTX_new();
  if (md == NULL || mc == NULL) {
    report(err, cap, "shim: fetching ML-DSA-MU failed", 1);
    goto end;
  }
  *q++ = OSSL_PARAM_construct_octet_string(OSSL_DIGEST_PARAM_MU_PUB_KEY, pub, pub_len);
  if (ctx_len != 0)
    *q++ = OSSL_PARAM_construct_octet_string(OSSL_DIGEST_PARAM_MU_CONTEXT_STRING, (void *)ctx, ctx_len);
  *q++ = OSSL_PARAM_construct_utf8_string(OSSL_DIGEST_PARAM_MU_DIGEST, (char *)h->mu_name, 0);
  *q = OSSL_PARAM_construct_end();
  r = 1;
  if (!EVP_DigestInit_ex2(mc, md, p)) {
    report(err, cap, "ML-DSA-MU refused its parameters", 1);
    goto end;
  }
  if (!EVP_DigestUpdate(mc, nonnull(phm), phm_len)) {
    report(err, cap, "ML-DSA-MU refused PH(M)", 1);
    goto end;
  }
  if (!EVP_DigestFinal_ex(mc, mu, &n)) {
    report(err, cap, "ML-DSA-MU refused to finish (it does when PH(M) is shorter than the digest)", 1);
    goto end;
  }
  r = 0;
  if (n != SHIM_MU_LEN) {
    report(err, cap, "shim: ML-DSA-MU gave a mu not of 64 bytes", 1);
    r = -1;
  }
end:
  EVP_MD_CTX_free(mc);
  EVP_MD_free(md);
  return r;
}

/*
 * What EVP_PKEY_sign/verify is given: msg itself (modes 0, 3, 4), or for HashML-DSA the mu
 * of PH(M) (PH(M) = msg in mode 2, computed from msg in mode 1), written to mu.
 * 0 ok, 1 OpenSSL refuses, -1 shim failure.
 */
static int to_be_signed(const ShimHash *h, int mode, EVP_PKEY *pkey, const uint8_t **tbs,
                        size_t *tbs_len, const uint8_t *ctx, size_t ctx_len,
                        uint8_t mu[SHIM_MU_LEN], char *err, size_t cap)
{
  uint8_t digest[64];
  const uint8_t *phm = *tbs;
  size_t phm_len = *tbs_len;
  int r;
  if (mode != MLDSA_OSSL_HASH && mode != MLDSA_OSSL_HASH_DIGEST) return 0;
  if (mode == MLDSA_OSSL_HASH) {
    if (prehash(h, *tbs, *tbs_len, digest, err, cap) != 0) return -1;
    phm = digest;
    phm_len = h->len;
  }
  if ((r = hash_mu(h, pkey, phm, phm_len, ctx, ctx_len, mu, err, cap)) != 0) return r;
  *tbs = mu;
  *tbs_len = SHIM_MU_LEN;
  return 0;
}

/*
 * The parameters of the message init: rnd (signing only), then per mode the context (pure),
 * mu = 1 (modes 1 to 3) or message-encoding = 0 (internal). p has room for 4.
 */
static void sig_params(OSSL_PARAM *p, int mode, const uint8_t *ctx, size_t ctx_len,
                       const uint8_t *rnd, int *one, int *zero)
{
  if (rnd != NULL)
    *p++ = OSSL_PARAM_construct_octet_string(OSSL_SIGNATURE_PARAM_TEST_ENTROPY, (void *)rnd, SHIM_RND_LEN);
  if (mode == MLDSA_OSSL_PURE && ctx_len != 0)
    *p++ = OSSL_PARAM_construct_octet_string(OSSL_SIGNATURE_PARAM_CONTEXT_STRING, (void *)ctx, ctx_len);
  else if (mode == MLDSA_OSSL_HASH || mode == MLDSA_OSSL_HASH_DIGEST || mode == MLDSA_OSSL_MU)
    *p++ = OSSL_PARAM_construct_int(OSSL_SIGNATURE_PARAM_MU, one);
  else if (mode == MLDSA_OSSL_INTERNAL)
    *p++ = OSSL_PARAM_construct_int(OSSL_SIGNATURE_PARAM_MESSAGE_ENCODING, zero);
  *p = OSSL_PARAM_construct_end();
}

/* A context for one sign/verify message operation on pkey, or NULL (err written). */
static EVP_PKEY_CTX *new_op_ctx(const ShimSet *s, EVP_PKEY *pkey, EVP_SIGNATURE **alg,
                                char *err, size_t cap)
{
  EVP_PKEY_CTX *pc;
  *alg = EVP_SIGNATURE_fetch(NULL, s->alg, NULL);
  pc = *alg != NULL ? EVP_PKEY_CTX_new_from_pkey(NULL, pkey, NULL) : NULL;
  if (pc == NULL) report(err, cap, "shim: fetching the signature algorithm failed", 1);
  return pc;
}

int mldsa_ossl_keygen(int set, const uint8_t xi[32], uint8_t *pk, uint8_t *sk, char *err,
                      size_t err_cap)
{
  const ShimSet *s;
  EVP_PKEY_CTX *gc = NULL;
  EVP_PKEY *pkey = NULL;
  OSSL_PARAM p[2];
  size_t n_pk = 0, n_sk = 0;
  int r = -1;

  begin(err, err_cap);
  if ((s = find_set(set)) == NULL) return shim_fail(err, err_cap, "shim: unknown parameter set", -1);
  if (xi == NULL || pk == NULL || sk == NULL) return shim_fail(err, err_cap, "shim: NULL argument", -1);
  gc = EVP_PKEY_CTX_new_from_name(NULL, s->alg, NULL);
  if (gc == NULL || EVP_PKEY_keygen_init(gc) <= 0) {
    report(err, err_cap, "shim: EVP_PKEY_keygen_init failed", 1);
    goto end;
  }
  p[0] = OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_ML_DSA_SEED, (void *)xi, 32);
  p[1] = OSSL_PARAM_construct_end();
  r = 1;
  if (EVP_PKEY_CTX_set_params(gc, p) <= 0) {
    report(err, err_cap, "key generation refused the seed", 1);
    goto end;
  }
  if (EVP_PKEY_generate(gc, &pkey) <= 0) {
    report(err, err_cap, "key generation failed", 1);
    goto end;
  }
  r = -1;
  if (!EVP_PKEY_get_octet_string_param(pkey, OSSL_PKEY_PARAM_PUB_KEY, pk, s->pk_len, &n_pk) ||
      !EVP_PKEY_get_octet_string_param(pkey, OSSL_PKEY_PARAM_PRIV_KEY, sk, s->sk_len, &n_sk) ||
      n_pk != s->pk_len || n_sk != s->sk_len) {
    report(err, err_cap, "shim: exporting the generated key failed", 1);
    goto end;
  }
  r = 0;
  ERR_clear_error();
end:
  EVP_PKEY_free(pkey);
  EVP_PKEY_CTX_free(gc);
  return r;
}

int mldsa_ossl_sign(int set, const uint8_t *sk, size_t sk_len, int mode, const char *ph,
                    const uint8_t *msg, size_t msg_len, const uint8_t *ctx, size_t ctx_len,
                    const uint8_t rnd[32], uint8_t *sig, size_t sig_cap, size_t *sig_len,
                    char *err, size_t err_cap)
{
  const ShimSet *s;
  const ShimHash *h;
  EVP_PKEY *pkey = NULL;
  EVP_PKEY_CTX *pc = NULL;
  EVP_SIGNATURE *alg = NULL;
  OSSL_PARAM p[4];
  uint8_t mu[SHIM_MU_LEN];
  const uint8_t *tbs = msg;
  size_t tbs_len = msg_len;
  int one = 1, zero = 0, r;

  begin(err, err_cap);
  r = check_args(set, mode, ph, msg, msg_len, ctx, ctx_len, &s, &h, err, err_cap);
  if (r != 0) return r;
  if (rnd == NULL || sig == NULL || sig_len == NULL || (sk == NULL && sk_len != 0))
    return shim_fail(err, err_cap, "shim: NULL argument", -1);
  if (sig_cap < s->sig_len) return shim_fail(err, err_cap, "shim: sig_cap too small", -1);
  *sig_len = 0;
  if ((r = import_key(s, 1, sk, sk_len, &pkey, err, err_cap)) != 0) goto end;
  if ((r = to_be_signed(h, mode, pkey, &tbs, &tbs_len, ctx, ctx_len, mu, err, err_cap)) != 0)
    goto end;
  if ((pc = new_op_ctx(s, pkey, &alg, err, err_cap)) == NULL) {
    r = -1;
    goto end;
  }
  sig_params(p, mode, ctx, ctx_len, rnd, &one, &zero);
  r = 1;
  if (EVP_PKEY_sign_message_init(pc, alg, p) <= 0) {
    report(err, err_cap, "signing refused its parameters", 1);
    goto end;
  }
  *sig_len = sig_cap;
  if (EVP_PKEY_sign(pc, sig, sig_len, nonnull(tbs), tbs_len) <= 0) {
    *sig_len = 0;
    report(err, err_cap, "signing refused", 1);
    goto end;
  }
  r = 0;
  if (*sig_len != s->sig_len) {
    report(err, err_cap, "shim: OpenSSL gave a signature of the wrong length", 1);
    r = -1;
  }
  ERR_clear_error();
end:
  OPENSSL_cleanse(mu, sizeof(mu));
  EVP_PKEY_CTX_free(pc);
  EVP_SIGNATURE_free(alg);
  EVP_PKEY_free(pkey);
  return r;
}

int mldsa_ossl_verify(int set, const uint8_t *pk, size_t pk_len, int mode, const char *ph,
                      const uint8_t *msg, size_t msg_len, const uint8_t *ctx, size_t ctx_len,
                      const uint8_t *sig, size_t sig_len, char *err, size_t err_cap)
{
  const ShimSet *s;
  const ShimHash *h;
  EVP_PKEY *pkey = NULL;
  EVP_PKEY_CTX *pc = NULL;
  EVP_SIGNATURE *alg = NULL;
  OSSL_PARAM p[4];
  uint8_t mu[SHIM_MU_LEN];
  const uint8_t *tbs = msg;
  size_t tbs_len = msg_len;
  int one = 1, zero = 0, r;

  begin(err, err_cap);
  r = check_args(set, mode, ph, msg, msg_len, ctx, ctx_len, &s, &h, err, err_cap);
  if (r != 0) return r;
  if ((pk == NULL && pk_len != 0) || (sig == NULL && sig_len != 0))
    return shim_fail(err, err_cap, "shim: NULL argument", -1);
  /* From here on a refusal by OpenSSL is a reject (0). */
  if ((r = import_key(s, 0, pk, pk_len, &pkey, err, err_cap)) != 0) goto end;
  if ((r = to_be_signed(h, mode, pkey, &tbs, &tbs_len, ctx, ctx_len, mu, err, err_cap)) != 0)
    goto end;
  if ((pc = new_op_ctx(s, pkey, &alg, err, err_cap)) == NULL) {
    r = -1;
    goto end;
  }
  sig_params(p, mode, ctx, ctx_len, NULL, &one, &zero);
  r = 1;
  if (EVP_PKEY_verify_message_init(pc, alg, p) <= 0) {
    report(err, err_cap, "verification refused its parameters", 1);
    goto end;
  }
  r = EVP_PKEY_verify(pc, nonnull(sig), sig_len, nonnull(tbs), tbs_len);
  if (r == 1) {
    ERR_clear_error();
    r = 0;
  } else if (r == 0) {
    report(err, err_cap, "signature rejected", 1);
    r = 1;
  } else {
    report(err, err_cap, "shim: EVP_PKEY_verify failed", 1);
    r = -1;
  }
end:
  EVP_PKEY_CTX_free(pc);
  EVP_SIGNATURE_free(alg);
  EVP_PKEY_free(pkey);
  /* Internally 0 = accept, 1 = refused/rejected; the API says 1 accept, 0 reject. */
  return r == 0 ? 1 : r == 1 ? 0 : r;
}
