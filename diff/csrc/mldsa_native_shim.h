/*
 * The harness's view of mldsa-native's native backend interface (src/native/api.h): each
 * kernel exported under <prefix>_shim_<name>, taking plain int32_t[256] arrays. The
 * polynomials are copied into mldsa-native's own 32-byte-aligned mld_poly first (its AVX2
 * assembly uses aligned loads). Every function returns the kernel's own result: 0 done,
 * -1 (MLD_NATIVE_FUNC_FALLBACK) not done for this input shape or CPU, or a count/verdict.
 * How the harness checks the contracts and compares each result: diff/src/impls/mldsa_native/kernels.rs
 * and CONTRACT_DIFFERENCES in diff/src/impls/mldsa_native/mod.rs.
 */
#include <string.h>

#define MDS_CAT_(a, b) a##b
#define MDS_CAT(a, b) MDS_CAT_(a, b)
#define MDS(name) MDS_CAT(MLD_CONFIG_NAMESPACE_PREFIX, MDS_CAT(_shim_, name))
#define MDS_IN(poly, src) memcpy((poly).coeffs, (src), sizeof(int32_t) * 256)
#define MDS_OUT(dst, poly) memcpy((dst), (poly).coeffs, sizeof(int32_t) * 256)

#if defined(MLD_CONFIG_USE_NATIVE_BACKEND_ARITH) && defined(MLD_SYS_X86_64) && \
    !defined(MLD_ARITH_BACKEND_X86_64_DEFAULT)
#error "mldsa-native native build on x86_64 without -mavx2: the backend would be left out"
#endif

int MDS(has_native)(void);
#if defined(MLD_USE_NATIVE_NTT)
int MDS(has_native)(void) { return 1; }

/* One polynomial in place. */
#define MDS_UNARY(name, kernel)                  \
  int MDS(name)(int32_t p[256]);                 \
  int MDS(name)(int32_t p[256])                  \
  {                                              \
    mld_poly a;                                  \
    int r;                                       \
    MDS_IN(a, p);                                \
    r = kernel(a.coeffs);                        \
    MDS_OUT(p, a);                               \
    return r;                                    \
  }
MDS_UNARY(ntt, mld_ntt_native)
MDS_UNARY(intt, mld_intt_native)
MDS_UNARY(caddq, mld_poly_caddq_native)

/* x86_64 keeps NTT-domain values in its own order; the permutation from bit-reversed order
 * to it is an involution. Returns 1 if applied, 0 if the order is plain bit-reversed. */
int MDS(permute_bitrev_to_custom)(int32_t p[256]);
int MDS(permute_bitrev_to_custom)(int32_t p[256])
{
#if defined(MLD_USE_NATIVE_NTT_CUSTOM_ORDER)
  mld_poly a;
  MDS_IN(a, p);
  mld_poly_permute_bitrev_to_custom(a.coeffs);
  MDS_OUT(p, a);
  return 1;
#else
  (void)p;
  return 0;
#endif
}

/* a := f(a, b). */
#define MDS_BINARY(name, kernel)                                 \
  int MDS(name)(int32_t a[256], const int32_t b[256]);           \
  int MDS(name)(int32_t a[256], const int32_t b[256])            \
  {                                                              \
    mld_poly x, y;                                               \
    int r;                                                       \
    MDS_IN(x, a);                                                \
    MDS_IN(y, b);                                                \
    r = kernel(x.coeffs, y.coeffs);                              \
    MDS_OUT(a, x);                                               \
    return r;                                                    \
  }
MDS_BINARY(pointwise, mld_poly_pointwise_montgomery_native)
MDS_BINARY(use_hint_32, mld_poly_use_hint_32_native)
MDS_BINARY(use_hint_88, mld_poly_use_hint_88_native)

/* (a1, a0) := decompose(a0). */
#define MDS_DECOMPOSE(name, kernel)                              \
  int MDS(name)(int32_t a1[256], int32_t a0[256]);               \
  int MDS(name)(int32_t a1[256], int32_t a0[256])                \
  {                                                              \
    mld_poly x, y;                                               \
    int r;                                                       \
    memset(&x, 0, sizeof(x));                                    \
    MDS_IN(y, a0);                                               \
    r = kernel(x.coeffs, y.coeffs);                              \
    MDS_OUT(a1, x);                                              \
    MDS_OUT(a0, y);                                              \
    return r;                                                    \
  }
MDS_DECOMPOSE(decompose_32, mld_poly_decompose_32_native)
MDS_DECOMPOSE(decompose_88, mld_poly_decompose_88_native)

/* w := sum u[i] * v[i] (Montgomery), l terms; the terms are copied into mld_polys (aligned,
 * 1024 bytes each, so an array of them is an aligned int32_t[l][256]). */
#define MDS_ACC(name, kernel, l)                                                  \
  int MDS(name)(int32_t w[256], const int32_t u[l][256], const int32_t v[l][256]); \
  int MDS(name)(int32_t w[256], const int32_t u[l][256], const int32_t v[l][256])  \
  {                                                                               \
    mld_poly x, a[l], b[l];                                                       \
    int r, i;                                                                     \
    for (i = 0; i < l; i++)                                                       \
    {                                                                             \
      MDS_IN(a[i], u[i]);                                                         \
      MDS_IN(b[i], v[i]);                                                         \
    }                                                                             \
    memset(&x, 0, sizeof(x));                                                     \
    r = kernel(x.coeffs, (const int32_t (*)[256])(void *)a,                       \
               (const int32_t (*)[256])(void *)b);                                \
    MDS_OUT(w, x);                                                                \
    return r;                                                                     \
  }
MDS_ACC(acc_l4, mld_polyvecl_pointwise_acc_montgomery_l4_native, 4)
MDS_ACC(acc_l5, mld_polyvecl_pointwise_acc_montgomery_l5_native, 5)
MDS_ACC(acc_l7, mld_polyvecl_pointwise_acc_montgomery_l7_native, 7)

/* Rejection samplers: r must hold 256 values (the kernels store whole vectors). */
#define MDS_REJ(name, kernel)                                                      \
  int MDS(name)(int32_t r[256], unsigned len, const uint8_t *buf, unsigned buflen); \
  int MDS(name)(int32_t r[256], unsigned len, const uint8_t *buf, unsigned buflen)  \
  {                                                                                \
    return kernel(r, len, buf, buflen);                                            \
  }
MDS_REJ(rej_uniform, mld_rej_uniform_native)
MDS_REJ(rej_eta2, mld_rej_uniform_eta2_native)
MDS_REJ(rej_eta4, mld_rej_uniform_eta4_native)

/* 0 if every |a_i| < bound, 1 if not, -1 fallback. */
int MDS(chknorm)(const int32_t p[256], int32_t bound);
int MDS(chknorm)(const int32_t p[256], int32_t bound)
{
  mld_poly a;
  MDS_IN(a, p);
  return mld_poly_chknorm_native(a.coeffs, bound);
}

#define MDS_UNPACK_Z(name, kernel)                   \
  int MDS(name)(int32_t r[256], const uint8_t *buf); \
  int MDS(name)(int32_t r[256], const uint8_t *buf)  \
  {                                                  \
    mld_poly x;                                      \
    int ret;                                         \
    memset(&x, 0, sizeof(x));                        \
    ret = kernel(x.coeffs, buf);                     \
    MDS_OUT(r, x);                                   \
    return ret;                                      \
  }
MDS_UNPACK_Z(z_unpack_17, mld_polyz_unpack_17_native)
MDS_UNPACK_Z(z_unpack_19, mld_polyz_unpack_19_native)

#else
int MDS(has_native)(void) { return 0; }
#endif
