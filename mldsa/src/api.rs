//! Typed keys and signatures: ML-DSA.KeyGen, Sign, Verify (FIPS 204 Alg. 1-3), HashML-DSA
//! (Alg. 4-5), external mu, and the RustCrypto `signature` traits. Operations run on
//! [`BackendKind::default_backend`].

use core::marker::PhantomData;

use rand_core::CryptoRngCore;
use zeroize::{Zeroize, Zeroizing};

use crate::backend::{BackendKind, Portable};
use crate::error::Error;
use crate::params::{ByteArray, ParameterSet};
use crate::prehash::PreHash;
use crate::{raw, scheme};

fn backend() -> BackendKind {
    BackendKind::default_backend()
}

/// Builds the parts of M' for pure ML-DSA and calls `f` with them.
fn with_pure_m_prime<R>(msg: &[u8], ctx: &[u8], f: impl FnOnce(&[&[u8]]) -> R) -> Result<R, Error> {
    let prefix = raw::pure_prefix(ctx)?;
    Ok(f(&[&prefix, ctx, msg]))
}

/// Builds the parts of M' for HashML-DSA from a digest and calls `f` with them.
fn with_prehash_m_prime<R>(
    ph: PreHash,
    digest: &[u8],
    ctx: &[u8],
    f: impl FnOnce(&[&[u8]]) -> R,
) -> Result<R, Error> {
    raw::check_digest(ph, digest)?;
    let (prefix, oid) = raw::prehash_prefix(ctx, ph)?;
    Ok(f(&[&prefix, ctx, &oid, digest]))
}

/// An ML-DSA public key.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct VerifyingKey<P: ParameterSet> {
    bytes: P::VerifyingKeyBytes,
    tr: [u8; 64],
}

impl<P: ParameterSet> core::fmt::Debug for VerifyingKey<P> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "VerifyingKey<{}>({:02x?}..)",
            P::PARAMS.name,
            &self.bytes.as_ref()[..8]
        )
    }
}

impl<P: ParameterSet> VerifyingKey<P> {
    /// pkDecode: any byte string of the right length is a public key.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
        let mut b = P::VerifyingKeyBytes::zeroed();
        if bytes.len() != b.as_ref().len() {
            return Err(Error::InvalidLength {
                what: "public key",
                expected: b.as_ref().len(),
                got: bytes.len(),
            });
        }
        b.as_mut().copy_from_slice(bytes);
        Ok(VerifyingKey {
            bytes: b,
            tr: scheme::compute_tr(Portable, bytes),
        })
    }

    /// The encoded key.
    pub fn to_bytes(&self) -> P::VerifyingKeyBytes {
        self.bytes
    }

    /// The encoded key.
    pub fn as_bytes(&self) -> &[u8] {
        self.bytes.as_ref()
    }

    /// tr = H(pk, 64).
    pub fn tr(&self) -> &[u8; 64] {
        &self.tr
    }

    /// mu for pure ML-DSA: H(tr || 0 || |ctx| || ctx || M, 64), for signing or verifying
    /// with external mu.
    pub fn compute_mu(&self, msg: &[u8], ctx: &[u8]) -> Result<[u8; 64], Error> {
        with_pure_m_prime(msg, ctx, |m| scheme::compute_mu(Portable, &self.tr, m))
    }

    /// mu for HashML-DSA with PH(M) = `digest`.
    pub fn compute_mu_prehashed(
        &self,
        ph: PreHash,
        digest: &[u8],
        ctx: &[u8],
    ) -> Result<[u8; 64], Error> {
        with_prehash_m_prime(ph, digest, ctx, |m| {
            scheme::compute_mu(Portable, &self.tr, m)
        })
    }

    /// ML-DSA.Verify (Alg. 3).
    pub fn verify(&self, msg: &[u8], ctx: &[u8], sig: &Signature<P>) -> Result<(), Error> {
        self.verify_mu(&self.compute_mu(msg, ctx)?, sig)
    }

    /// HashML-DSA.Verify (Alg. 5), hashing `msg` with `ph`.
    pub fn verify_prehash(
        &self,
        ph: PreHash,
        msg: &[u8],
        ctx: &[u8],
        sig: &Signature<P>,
    ) -> Result<(), Error> {
        let d = ph.digest(msg);
        self.verify_prehashed(ph, &d[..ph.digest_len()], ctx, sig)
    }

    /// HashML-DSA.Verify given PH(M) already computed.
    pub fn verify_prehashed(
        &self,
        ph: PreHash,
        digest: &[u8],
        ctx: &[u8],
        sig: &Signature<P>,
    ) -> Result<(), Error> {
        self.verify_mu(&self.compute_mu_prehashed(ph, digest, ctx)?, sig)
    }

    /// ML-DSA.Verify_internal (Alg. 8) on M'.
    pub fn verify_internal(&self, m_prime: &[u8], sig: &Signature<P>) -> Result<(), Error> {
        self.verify_mu(&scheme::compute_mu(Portable, &self.tr, &[m_prime]), sig)
    }

    /// Verify_internal given mu directly (external mu).
    pub fn verify_mu(&self, mu: &[u8; 64], sig: &Signature<P>) -> Result<(), Error> {
        raw::verify_mu(
            backend(),
            &P::PARAMS,
            self.bytes.as_ref(),
            mu,
            sig.as_bytes(),
        )
    }
}

/// An ML-DSA secret key: the expanded encoding, the seed xi when known, and the public key.
/// Wiped on drop.
#[derive(Clone)]
pub struct SigningKey<P: ParameterSet> {
    expanded: P::SigningKeyBytes,
    seed: Option<[u8; 32]>,
    vk: VerifyingKey<P>,
}

impl<P: ParameterSet> Drop for SigningKey<P> {
    fn drop(&mut self) {
        self.expanded.as_mut().zeroize();
        self.seed.zeroize();
    }
}

impl<P: ParameterSet> zeroize::ZeroizeOnDrop for SigningKey<P> {}

impl<P: ParameterSet> core::fmt::Debug for SigningKey<P> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "SigningKey<{}>(<secret>, {:?})", P::PARAMS.name, self.vk)
    }
}

impl<P: ParameterSet> SigningKey<P> {
    /// ML-DSA.KeyGen_internal from the 32-byte seed xi (Alg. 6).
    pub fn from_seed(xi: &[u8; 32]) -> Self {
        let mut key = Self::with_seed(*xi);
        key.derive();
        key
    }

    /// ML-DSA.KeyGen (Alg. 1): a fresh seed from `rng`, drawn straight into the key (no
    /// buffer of its own to wipe: on an RNG error the key is dropped, and so wiped).
    pub fn generate(rng: &mut impl CryptoRngCore) -> Result<Self, Error> {
        let mut key = Self::with_seed([0; 32]);
        if let Some(xi) = key.seed.as_mut() {
            rng.try_fill_bytes(xi).map_err(|_| Error::Rng)?;
        }
        key.derive();
        Ok(key)
    }

    /// A key holding seed `xi` and nothing else yet (see [`Self::derive`]).
    fn with_seed(xi: [u8; 32]) -> Self {
        SigningKey {
            expanded: P::SigningKeyBytes::zeroed(),
            seed: Some(xi),
            vk: VerifyingKey {
                bytes: P::VerifyingKeyBytes::zeroed(),
                tr: [0; 64],
            },
        }
    }

    /// KeyGen_internal from the key's own seed, into the key itself: an expanded key made
    /// in a local and moved into the key leaves that local's copy unwiped
    /// (`mldsa/tests/secret_wipes.rs` found it). The key is still moved when returned, as
    /// any Rust value, and a move may leave a copy in the frame it left (README "Secrets and
    /// stack"): `raw::keygen_internal` writes into the caller's buffers and moves nothing.
    fn derive(&mut self) {
        let SigningKey { expanded, seed, vk } = self;
        if let Some(xi) = seed {
            raw::keygen_internal(
                backend(),
                &P::PARAMS,
                xi,
                vk.bytes.as_mut(),
                expanded.as_mut(),
            )
            .expect(
                "buffers have the parameter set's lengths and the default backend is available",
            );
            vk.tr = scheme::compute_tr(Portable, vk.bytes.as_ref());
        }
    }

    /// Imports an expanded secret key (skDecode, Alg. 25). Rejects wrong lengths, s1/s2
    /// coefficients outside [-eta, eta], and keys whose tr or t0 do not match the public
    /// key recomputed from rho, s1 and s2.
    pub fn from_expanded_bytes(bytes: &[u8]) -> Result<Self, Error> {
        let p = &P::PARAMS;
        let mut parts = scheme::SecretParts::zero(p);
        scheme::unpack_sk_into(Portable, p, bytes, &mut parts)?;
        let mut pk = P::VerifyingKeyBytes::zeroed();
        scheme::public_from_secret(Portable, p, &parts, pk.as_mut())?;
        let mut expanded = P::SigningKeyBytes::zeroed();
        expanded.as_mut().copy_from_slice(bytes);
        let vk = VerifyingKey {
            bytes: pk,
            tr: parts.tr,
        };
        Ok(SigningKey {
            expanded,
            seed: None,
            vk,
        })
    }

    /// The expanded encoding (skEncode).
    pub fn to_expanded_bytes(&self) -> Zeroizing<P::SigningKeyBytes> {
        Zeroizing::new(self.expanded)
    }

    /// The seed xi, if this key was generated from one.
    pub fn seed(&self) -> Option<&[u8; 32]> {
        self.seed.as_ref()
    }

    /// The public key.
    pub fn verifying_key(&self) -> &VerifyingKey<P> {
        &self.vk
    }

    /// Sign_internal from mu with explicit rnd (external mu).
    pub fn sign_mu(&self, mu: &[u8; 64], rnd: &[u8; 32]) -> Result<Signature<P>, Error> {
        let mut sig = P::SignatureBytes::zeroed();
        raw::sign_mu(
            backend(),
            &P::PARAMS,
            self.expanded.as_ref(),
            mu,
            rnd,
            sig.as_mut(),
        )?;
        Ok(Signature {
            bytes: sig,
            _p: PhantomData,
        })
    }

    /// ML-DSA.Sign_internal (Alg. 7) on M' with explicit rnd.
    pub fn sign_internal(&self, m_prime: &[u8], rnd: &[u8; 32]) -> Result<Signature<P>, Error> {
        self.sign_mu(&scheme::compute_mu(Portable, &self.vk.tr, &[m_prime]), rnd)
    }

    /// ML-DSA.Sign (Alg. 2) with explicit rnd (32 zero bytes: deterministic variant).
    pub fn sign_with_rnd(
        &self,
        msg: &[u8],
        ctx: &[u8],
        rnd: &[u8; 32],
    ) -> Result<Signature<P>, Error> {
        self.sign_mu(&self.vk.compute_mu(msg, ctx)?, rnd)
    }

    /// ML-DSA.Sign, hedged: rnd from `rng`.
    pub fn sign(
        &self,
        msg: &[u8],
        ctx: &[u8],
        rng: &mut impl CryptoRngCore,
    ) -> Result<Signature<P>, Error> {
        let mu = self.vk.compute_mu(msg, ctx)?;
        let mut rnd = Zeroizing::new([0u8; 32]);
        rng.try_fill_bytes(&mut rnd[..]).map_err(|_| Error::Rng)?;
        self.sign_mu(&mu, &rnd)
    }

    /// ML-DSA.Sign, deterministic variant (rnd = 0^32).
    pub fn sign_deterministic(&self, msg: &[u8], ctx: &[u8]) -> Result<Signature<P>, Error> {
        self.sign_with_rnd(msg, ctx, &[0u8; 32])
    }

    /// HashML-DSA.Sign (Alg. 4): hashes `msg` with `ph`, explicit rnd.
    pub fn sign_prehash_with_rnd(
        &self,
        ph: PreHash,
        msg: &[u8],
        ctx: &[u8],
        rnd: &[u8; 32],
    ) -> Result<Signature<P>, Error> {
        let d = ph.digest(msg);
        self.sign_prehashed_with_rnd(ph, &d[..ph.digest_len()], ctx, rnd)
    }

    /// HashML-DSA.Sign, hedged.
    pub fn sign_prehash(
        &self,
        ph: PreHash,
        msg: &[u8],
        ctx: &[u8],
        rng: &mut impl CryptoRngCore,
    ) -> Result<Signature<P>, Error> {
        let mut rnd = Zeroizing::new([0u8; 32]);
        rng.try_fill_bytes(&mut rnd[..]).map_err(|_| Error::Rng)?;
        self.sign_prehash_with_rnd(ph, msg, ctx, &rnd)
    }

    /// HashML-DSA.Sign given PH(M) already computed (`digest.len()` must match `ph`).
    pub fn sign_prehashed_with_rnd(
        &self,
        ph: PreHash,
        digest: &[u8],
        ctx: &[u8],
        rnd: &[u8; 32],
    ) -> Result<Signature<P>, Error> {
        self.sign_mu(&self.vk.compute_mu_prehashed(ph, digest, ctx)?, rnd)
    }
}

/// An ML-DSA signature whose encoding is well formed: right length, valid hint encoding
/// (Alg. 21), and ||z|| < gamma1 - beta.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Signature<P: ParameterSet> {
    bytes: P::SignatureBytes,
    _p: PhantomData<P>,
}

impl<P: ParameterSet> core::fmt::Debug for Signature<P> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "Signature<{}>({:02x?}..)",
            P::PARAMS.name,
            &self.bytes.as_ref()[..8]
        )
    }
}

impl<P: ParameterSet> Signature<P> {
    /// sigDecode with every check of FIPS 204 Alg. 21 and the z bound.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
        raw::check_signature(&P::PARAMS, bytes)?;
        let mut b = P::SignatureBytes::zeroed();
        b.as_mut().copy_from_slice(bytes);
        Ok(Signature {
            bytes: b,
            _p: PhantomData,
        })
    }

    /// The encoding.
    pub fn as_bytes(&self) -> &[u8] {
        self.bytes.as_ref()
    }

    /// The encoding.
    pub fn to_bytes(&self) -> P::SignatureBytes {
        self.bytes
    }
}

impl<P: ParameterSet> TryFrom<&[u8]> for Signature<P> {
    type Error = Error;
    fn try_from(bytes: &[u8]) -> Result<Self, Error> {
        Self::from_bytes(bytes)
    }
}

impl<P: ParameterSet> TryFrom<&[u8]> for VerifyingKey<P> {
    type Error = Error;
    fn try_from(bytes: &[u8]) -> Result<Self, Error> {
        Self::from_bytes(bytes)
    }
}

/// RustCrypto `signature` traits: pure ML-DSA with the empty context. `Signer` is the
/// deterministic variant; `RandomizedSigner` is hedged.
impl<P: ParameterSet> signature::Signer<Signature<P>> for SigningKey<P> {
    fn try_sign(&self, msg: &[u8]) -> Result<Signature<P>, signature::Error> {
        self.sign_deterministic(msg, &[])
            .map_err(|_| signature::Error::new())
    }
}

impl<P: ParameterSet> signature::RandomizedSigner<Signature<P>> for SigningKey<P> {
    fn try_sign_with_rng(
        &self,
        rng: &mut impl CryptoRngCore,
        msg: &[u8],
    ) -> Result<Signature<P>, signature::Error> {
        self.sign(msg, &[], rng)
            .map_err(|_| signature::Error::new())
    }
}

impl<P: ParameterSet> signature::Verifier<Signature<P>> for VerifyingKey<P> {
    fn verify(&self, msg: &[u8], sig: &Signature<P>) -> Result<(), signature::Error> {
        VerifyingKey::verify(self, msg, &[], sig).map_err(|_| signature::Error::new())
    }
}

impl<P: ParameterSet> signature::Keypair for SigningKey<P> {
    type VerifyingKey = VerifyingKey<P>;
    fn verifying_key(&self) -> VerifyingKey<P> {
        self.vk
    }
}

macro_rules! signature_encoding {
    ($($set:ty => $len:literal),*) => {$(
        impl From<Signature<$set>> for [u8; $len] {
            fn from(sig: Signature<$set>) -> [u8; $len] {
                sig.bytes
            }
        }
        impl signature::SignatureEncoding for Signature<$set> {
            type Repr = [u8; $len];
        }
    )*};
}

signature_encoding!(crate::MlDsa44 => 2420, crate::MlDsa65 => 3309, crate::MlDsa87 => 4627);
