//! Byte-level entry points with an explicit backend: what the KAT runner, the differential
//! harness and the fuzz targets call. Lengths are checked and reported as
//! [`Error::InvalidLength`]; a backend that is not available is [`Error::BackendUnavailable`].
//!
//! M' is passed as a list of byte strings that are concatenated, so no caller has to
//! allocate to build 0 || |ctx| || ctx || M.

use crate::backend::{AnyBackend, Backend, BackendKind};
use crate::error::Error;
use crate::params::Params;
use crate::prehash::PreHash;
use crate::scheme;
use crate::with_backend;

use scheme::check_len;

/// ML-DSA.KeyGen_internal(xi) (FIPS 204 Alg. 6) into `pk` and `sk`.
pub fn keygen_internal(
    backend: BackendKind,
    p: &Params,
    xi: &[u8; 32],
    pk: &mut [u8],
    sk: &mut [u8],
) -> Result<(), Error> {
    let any = AnyBackend::new(backend)?;
    with_backend!(any, |b| keygen_internal_with(b, p, xi, pk, sk))
}

/// [`keygen_internal`] on a backend value of any type: for a [`Backend`] defined outside
/// this crate (a test's wrapper around a kernel, as the constant-time test's deliberately
/// branchy one). A token of this crate's backends already proves its CPU features.
pub fn keygen_internal_with<B: Backend>(
    b: B,
    p: &Params,
    xi: &[u8; 32],
    pk: &mut [u8],
    sk: &mut [u8],
) -> Result<(), Error> {
    check_len("public key buffer", p.pk_bytes(), pk.len())?;
    check_len("secret key buffer", p.sk_bytes(), sk.len())?;
    b.run(|| scheme::keygen_internal(b, p, xi, pk, sk));
    Ok(())
}

/// ML-DSA.Sign_internal(sk, M', rnd) (FIPS 204 Alg. 7) into `sig`.
pub fn sign_internal(
    backend: BackendKind,
    p: &Params,
    sk: &[u8],
    m_prime: &[&[u8]],
    rnd: &[u8; 32],
    sig: &mut [u8],
) -> Result<(), Error> {
    let any = AnyBackend::new(backend)?;
    with_backend!(any, |b| sign_internal_with(b, p, sk, m_prime, rnd, sig))
}

/// [`sign_internal`] on a backend value of any type (see [`keygen_internal_with`]).
pub fn sign_internal_with<B: Backend>(
    b: B,
    p: &Params,
    sk: &[u8],
    m_prime: &[&[u8]],
    rnd: &[u8; 32],
    sig: &mut [u8],
) -> Result<(), Error> {
    check_len("signature buffer", p.sig_bytes(), sig.len())?;
    sign_on(b, p, sk, Mu::FromMPrime(m_prime), rnd, sig)
}

/// Sign_internal given mu directly (the "external mu" interface).
pub fn sign_mu(
    backend: BackendKind,
    p: &Params,
    sk: &[u8],
    mu: &[u8; 64],
    rnd: &[u8; 32],
    sig: &mut [u8],
) -> Result<(), Error> {
    let any = AnyBackend::new(backend)?;
    check_len("signature buffer", p.sig_bytes(), sig.len())?;
    with_backend!(any, |b| sign_on(b, p, sk, Mu::Given(mu), rnd, sig))
}

/// Where Sign_internal gets mu.
enum Mu<'a> {
    /// mu = H(tr || M', 64), M' given in parts (Alg. 7 line 6).
    FromMPrime(&'a [&'a [u8]]),
    /// mu given (external mu).
    Given(&'a [u8; 64]),
}

/// Sign_internal on backend `b`: decodes `sk` into a key buffer (23 KiB) and signs. A
/// function of its own per backend, never inlined: otherwise the portable instance's key
/// buffer would sit in the frame of [`sign_internal`] on every backend, and a SIMD backend
/// (whose [`Backend::run`] holds its own) would pay for both.
#[inline(never)]
fn sign_on<B: Backend>(
    b: B,
    p: &Params,
    sk: &[u8],
    mu: Mu<'_>,
    rnd: &[u8; 32],
    sig: &mut [u8],
) -> Result<(), Error> {
    b.run(|| {
        let mut parts = scheme::SecretParts::zero(p);
        scheme::unpack_sk_into(b, p, sk, &mut parts)?;
        let mu = match mu {
            Mu::FromMPrime(m_prime) => &scheme::compute_mu(b, &parts.tr, m_prime),
            Mu::Given(mu) => mu,
        };
        scheme::sign_mu(b, p, &mut parts, mu, rnd, sig)
    })
}

/// ML-DSA.Verify_internal(pk, M', sigma) (FIPS 204 Alg. 8): `Ok(())` iff valid.
pub fn verify_internal(
    backend: BackendKind,
    p: &Params,
    pk: &[u8],
    m_prime: &[&[u8]],
    sig: &[u8],
) -> Result<(), Error> {
    let any = AnyBackend::new(backend)?;
    check_len("public key", p.pk_bytes(), pk.len())?;
    with_backend!(any, |b| b.run(|| {
        let tr = scheme::compute_tr(b, pk);
        let mu = scheme::compute_mu(b, &tr, m_prime);
        scheme::verify_mu(b, p, pk, &mu, sig)
    }))
}

/// Verify_internal given mu directly.
pub fn verify_mu(
    backend: BackendKind,
    p: &Params,
    pk: &[u8],
    mu: &[u8; 64],
    sig: &[u8],
) -> Result<(), Error> {
    let any = AnyBackend::new(backend)?;
    with_backend!(any, |b| b.run(|| scheme::verify_mu(b, p, pk, mu, sig)))
}

/// mu = H(H(pk, 64) || M', 64) for a public key of any parameter set.
pub fn compute_mu(backend: BackendKind, pk: &[u8], m_prime: &[&[u8]]) -> Result<[u8; 64], Error> {
    let any = AnyBackend::new(backend)?;
    Ok(with_backend!(any, |b| {
        let tr = scheme::compute_tr(b, pk);
        scheme::compute_mu(b, &tr, m_prime)
    }))
}

/// Checks a context string's length and returns the two-byte prefix of M' for pure
/// ML-DSA (Alg. 2 line 10): 0 || |ctx|.
pub fn pure_prefix(ctx: &[u8]) -> Result<[u8; 2], Error> {
    let len = u8::try_from(ctx.len()).map_err(|_| Error::ContextTooLong { len: ctx.len() })?;
    Ok([0, len])
}

/// The prefix of M' for HashML-DSA (Alg. 4 line 23): 1 || |ctx|, followed by ctx, the OID
/// and PH(M); the OID is returned for the caller to place after ctx.
pub fn prehash_prefix(ctx: &[u8], ph: PreHash) -> Result<([u8; 2], [u8; 11]), Error> {
    let len = u8::try_from(ctx.len()).map_err(|_| Error::ContextTooLong { len: ctx.len() })?;
    Ok(([1, len], ph.oid()))
}

/// Checks that a HashML-DSA digest PH(M) given by the caller has `ph`'s output length (the
/// typed API's `*_prehashed` functions refuse any other length).
pub fn check_digest(ph: PreHash, digest: &[u8]) -> Result<(), Error> {
    if digest.len() == ph.digest_len() {
        Ok(())
    } else {
        Err(Error::InvalidDigestLength {
            expected: ph.digest_len(),
            got: digest.len(),
        })
    }
}

/// Decodes an expanded secret key, checking its length and the s1/s2 ranges only.
pub fn check_secret_key(p: &Params, sk: &[u8]) -> Result<(), Error> {
    let mut parts = scheme::SecretParts::zero(p);
    scheme::unpack_sk_into(crate::backend::Portable, p, sk, &mut parts)
}

/// Decodes a signature (length, hint encoding, z bound) without verifying it.
pub fn check_signature(p: &Params, sig: &[u8]) -> Result<(), Error> {
    let mut z = [crate::poly::Poly::ZERO; crate::params::L_MAX];
    let mut h = [crate::poly::Poly::ZERO; crate::params::K_MAX];
    scheme::unpack_sig(crate::backend::Portable, p, sig, &mut z, &mut h)
}
