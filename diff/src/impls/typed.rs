//! This crate's typed public API (`SigningKey`, `VerifyingKey`, `Signature` and the
//! RustCrypto `signature` traits) as an implementation, end to end only, on the backend it
//! selects (`BackendKind::default_backend`): keys and signatures decoded by its parsers,
//! which check what the raw API leaves to the scheme (a secret key's consistency with the
//! public key it implies, a signature's encoding before verification).
//!
//! The API offers several routes to one FIPS 204 operation, and every one is a function a
//! user calls, so every one is compared: [`route`] picks one from the input, so a replay
//! takes the route it took, and a check's cases take them all (`diff/tests/api.rs` counts
//! them). The routes of one operation must answer alike:
//! * KeyGen: `from_seed(xi)`, or `generate` given a generator that yields xi (Alg. 1 line 1
//!   draws 32 bytes); the public key by `verifying_key().as_bytes()` or by the `Keypair`
//!   trait's `verifying_key().to_bytes()`. Every route also answers for `seed()` (xi) and
//!   `tr()` (the tr that skEncode wrote into the expanded key): a route that contradicts
//!   them is a fault of this implementation, whatever the others answer.
//! * Sign: with rnd given (`sign_with_rnd`, `sign_prehash_with_rnd`,
//!   `sign_prehashed_with_rnd`), hedged with a generator that yields rnd (`sign`,
//!   `sign_prehash`, `RandomizedSigner`: Alg. 2 line 5 draws 32 bytes once), deterministic
//!   when rnd is 0^32 (`sign_deterministic`, the `Signer` trait), or split at mu
//!   (`compute_mu` or `compute_mu_prehashed`, then `sign_mu`); the signature by `as_bytes` or
//!   `to_bytes`. The traits sign and verify with the empty context only.
//! * Verify: keys and signatures parsed by `from_bytes` or `TryFrom`; `verify` or the
//!   `Verifier` trait, or split at mu (`compute_mu` or `compute_mu_prehashed`, then
//!   `verify_mu`).

use crate::model::{Fault, Provenance};
use crate::oracle::{Got, Key, KeyPair, Miss, Msg, Oracle, Signed, Speed, Verified};
use mldsa::params::{MlDsa44, MlDsa65, MlDsa87, ParameterSet};
use mldsa::{Params, Signature, SigningKey, VerifyingKey};

/// The name of [`Typed`].
pub const TYPED: &str = "typed";

/// The typed public API: see the module documentation.
#[derive(Clone, Copy, Debug)]
pub struct Typed;

/// One of the routes through the API that answer alike (module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Route {
    /// KeyGen: `from_seed`, the public key by `as_bytes`.
    FromSeed,
    /// KeyGen: `generate`, the public key by the `Keypair` trait and `to_bytes`.
    Generate,
    /// Sign with rnd given; verify with `verify`, `verify_prehashed`, `verify_mu` or
    /// `verify_internal` (whichever the message is).
    Given,
    /// Sign hedged, with a generator that yields rnd (the `RandomizedSigner` trait where the
    /// context is empty).
    Hedged,
    /// Sign deterministically (rnd is 0^32): the `Signer` trait where the context is empty,
    /// else `sign_deterministic`.
    Deterministic,
    /// Split at mu: `compute_mu` or `compute_mu_prehashed`, then `sign_mu` or `verify_mu`.
    ExternalMu,
    /// Verify with the `Verifier` trait (empty context), keys and signatures by `TryFrom`.
    Traits,
}

/// A hash of the input's bytes, to pick a route: the same input, the same route.
fn pick(parts: &[&[u8]], n: u32) -> u32 {
    let h = parts
        .iter()
        .flat_map(|p| p.iter())
        .fold(0x811c_9dc5u32, |h, &b| {
            (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
        });
    h % n
}

/// The route a call with these inputs takes: KeyGen when `m` is `None` (`xi` then in
/// `bytes`), else Sign (`bytes` = rnd) or Verify (`bytes` = the signature).
pub fn route(m: Option<Msg<'_>>, bytes: &[u8], signing: bool) -> Route {
    let Some(m) = m else {
        return [Route::FromSeed, Route::Generate][pick(&[bytes], 2) as usize];
    };
    let zero = bytes.iter().all(|&b| b == 0);
    match m {
        // The `Signer` trait takes this call whenever it can: few cases have both.
        Msg::Pure { ctx, .. } if signing && zero && ctx.is_empty() => Route::Deterministic,
        Msg::Pure { msg, ctx } if signing => {
            let third = if zero {
                Route::Deterministic
            } else {
                Route::Hedged
            };
            [Route::Given, third, Route::ExternalMu][pick(&[msg, ctx, bytes], 3) as usize]
        }
        Msg::Pure { msg, ctx } => {
            let third = if ctx.is_empty() {
                Route::Traits
            } else {
                Route::Given
            };
            [Route::Given, third, Route::ExternalMu][pick(&[msg, ctx, bytes], 3) as usize]
        }
        Msg::PreHash { msg, ctx, .. } if signing => {
            [Route::Given, Route::Hedged][pick(&[msg, ctx, bytes], 2) as usize]
        }
        Msg::PreHashed { digest, ctx, .. } => {
            [Route::Given, Route::ExternalMu][pick(&[digest, ctx, bytes], 2) as usize]
        }
        Msg::PreHash { .. } | Msg::Mu(_) | Msg::Internal(_) => Route::Given,
    }
}

/// A generator that yields the given bytes (then zeros), counting what it is asked for: the
/// API's hedged routes must draw exactly 32 bytes, once.
struct Yields<'a> {
    bytes: &'a [u8; 32],
    drawn: Vec<usize>,
}

impl<'a> Yields<'a> {
    fn new(bytes: &'a [u8; 32]) -> Self {
        Yields {
            bytes,
            drawn: Vec::new(),
        }
    }

    /// Whether the API drew 32 bytes once, as FIPS 204 does; else the contradiction.
    fn drew_once(&self, what: &str) -> Result<(), Miss> {
        if self.drawn == [32] {
            return Ok(());
        }
        Err(contradiction(format!(
            "{what} drew {:?} bytes from its generator; FIPS 204 draws 32, once",
            self.drawn
        )))
    }
}

impl rand_core::RngCore for Yields<'_> {
    fn next_u32(&mut self) -> u32 {
        rand_core::impls::next_u32_via_fill(self)
    }
    fn next_u64(&mut self) -> u64 {
        rand_core::impls::next_u64_via_fill(self)
    }
    fn fill_bytes(&mut self, dest: &mut [u8]) {
        let from = self.drawn.iter().sum::<usize>();
        for (i, d) in dest.iter_mut().enumerate() {
            *d = self.bytes.get(from + i).copied().unwrap_or(0);
        }
        self.drawn.push(dest.len());
    }
    fn try_fill_bytes(&mut self, dest: &mut [u8]) -> Result<(), rand_core::Error> {
        self.fill_bytes(dest);
        Ok(())
    }
}

impl rand_core::CryptoRng for Yields<'_> {}

fn contradiction(what: String) -> Miss {
    Miss::Fault(Fault::Contradiction {
        implementation: TYPED.into(),
        what,
    })
}

/// The `signature` traits' error, worded.
fn traits_error(e: signature::Error) -> String {
    format!("the signature trait refused: {e}")
}

impl Typed {
    fn keygen_with<P: ParameterSet>(xi: &[u8; 32]) -> Got<KeyPair> {
        let (sk, pk) = match route(None, xi, false) {
            Route::FromSeed => {
                let sk = SigningKey::<P>::from_seed(xi);
                let pk = sk.verifying_key().as_bytes().to_vec();
                (sk, pk)
            }
            _ => {
                let mut rng = Yields::new(xi);
                let sk = SigningKey::<P>::generate(&mut rng)
                    .map_err(|e| contradiction(format!("generate failed: {e}")))?;
                rng.drew_once("generate")?;
                let pk = signature::Keypair::verifying_key(&sk).to_bytes();
                (sk, pk.as_ref().to_vec())
            }
        };
        let expanded = sk.to_expanded_bytes().as_ref().to_vec();
        if sk.seed() != Some(xi) {
            return Err(contradiction(format!(
                "seed() answers {:02x?}, not the xi it was made from",
                sk.seed()
            )));
        }
        // skEncode (Alg. 24): rho (32 bytes), K (32), tr (64), ...
        if sk.verifying_key().tr()[..] != expanded[64..128] {
            return Err(contradiction(
                "verifying_key().tr() is not the tr of the expanded key".into(),
            ));
        }
        Ok(Ok((pk, expanded)))
    }

    fn sign_with<P: ParameterSet>(sk: &[u8], m: Msg<'_>, rnd: &[u8; 32]) -> Got<Signed> {
        let key = match SigningKey::<P>::from_expanded_bytes(sk) {
            Ok(key) => key,
            Err(e) => return Ok(Err(e.to_string())),
        };
        let r = route(Some(m), rnd, true);
        let mut rng = Yields::new(rnd);
        let vk = key.verifying_key();
        let sig = match (m, r) {
            (Msg::Pure { msg, ctx: [] }, Route::Hedged) => {
                signature::RandomizedSigner::try_sign_with_rng(&key, &mut rng, msg)
                    .map_err(traits_error)
            }
            (Msg::Pure { msg, ctx }, Route::Hedged) => {
                key.sign(msg, ctx, &mut rng).map_err(|e| e.to_string())
            }
            (Msg::Pure { msg, ctx: [] }, Route::Deterministic) => {
                signature::Signer::try_sign(&key, msg).map_err(traits_error)
            }
            (Msg::Pure { msg, ctx }, Route::Deterministic) => {
                key.sign_deterministic(msg, ctx).map_err(|e| e.to_string())
            }
            (Msg::Pure { msg, ctx }, Route::ExternalMu) => vk
                .compute_mu(msg, ctx)
                .and_then(|mu| key.sign_mu(&mu, rnd))
                .map_err(|e| e.to_string()),
            (Msg::Pure { msg, ctx }, _) => {
                key.sign_with_rnd(msg, ctx, rnd).map_err(|e| e.to_string())
            }
            (Msg::PreHash { ph, msg, ctx }, Route::Hedged) => key
                .sign_prehash(ph, msg, ctx, &mut rng)
                .map_err(|e| e.to_string()),
            (Msg::PreHash { ph, msg, ctx }, _) => key
                .sign_prehash_with_rnd(ph, msg, ctx, rnd)
                .map_err(|e| e.to_string()),
            (Msg::PreHashed { ph, digest, ctx }, Route::ExternalMu) => vk
                .compute_mu_prehashed(ph, digest, ctx)
                .and_then(|mu| key.sign_mu(&mu, rnd))
                .map_err(|e| e.to_string()),
            (Msg::PreHashed { ph, digest, ctx }, _) => key
                .sign_prehashed_with_rnd(ph, digest, ctx, rnd)
                .map_err(|e| e.to_string()),
            (Msg::Mu(mu), _) => key.sign_mu(mu, rnd).map_err(|e| e.to_string()),
            (Msg::Internal(m_prime), _) => {
                key.sign_internal(m_prime, rnd).map_err(|e| e.to_string())
            }
        };
        if r == Route::Hedged && sig.is_ok() {
            rng.drew_once("the hedged signer")?;
        }
        Ok(sig.map(|s| match r {
            Route::Hedged | Route::Deterministic => s.to_bytes().as_ref().to_vec(),
            _ => s.as_bytes().to_vec(),
        }))
    }

    fn verify_with<P: ParameterSet>(pk: &[u8], m: Msg<'_>, sig: &[u8]) -> Verified {
        let r = route(Some(m), sig, false);
        let worded = |e: mldsa::Error| Some(e.to_string());
        let (vk, s) = if r == Route::Traits {
            let vk = VerifyingKey::<P>::try_from(pk).map_err(worded)?;
            (vk, Signature::<P>::try_from(sig).map_err(worded)?)
        } else {
            let vk = VerifyingKey::<P>::from_bytes(pk).map_err(worded)?;
            (vk, Signature::<P>::from_bytes(sig).map_err(worded)?)
        };
        match (m, r) {
            (Msg::Pure { msg, .. }, Route::Traits) => {
                signature::Verifier::verify(&vk, msg, &s).map_err(|e| Some(traits_error(e)))
            }
            (Msg::Pure { msg, ctx }, Route::ExternalMu) => vk
                .compute_mu(msg, ctx)
                .and_then(|mu| vk.verify_mu(&mu, &s))
                .map_err(worded),
            (Msg::Pure { msg, ctx }, _) => vk.verify(msg, ctx, &s).map_err(worded),
            (Msg::PreHash { ph, msg, ctx }, _) => {
                vk.verify_prehash(ph, msg, ctx, &s).map_err(worded)
            }
            (Msg::PreHashed { ph, digest, ctx }, Route::ExternalMu) => vk
                .compute_mu_prehashed(ph, digest, ctx)
                .and_then(|mu| vk.verify_mu(&mu, &s))
                .map_err(worded),
            (Msg::PreHashed { ph, digest, ctx }, _) => {
                vk.verify_prehashed(ph, digest, ctx, &s).map_err(worded)
            }
            (Msg::Mu(mu), _) => vk.verify_mu(mu, &s).map_err(worded),
            (Msg::Internal(m_prime), _) => vk.verify_internal(m_prime, &s).map_err(worded),
        }
    }
}

impl Oracle for Typed {
    fn name(&self) -> &'static str {
        TYPED
    }
    fn origin(&self) -> Provenance {
        Provenance::Ours
    }
    fn speed(&self) -> Speed {
        Speed::native(130)
    }
    fn keygen(&self, p: &Params, xi: &[u8; 32]) -> Got<KeyPair> {
        per_set!(p, Typed::keygen_with(xi))
    }
    fn sign(&self, p: &Params, key: Key<'_>, m: Msg<'_>, rnd: &[u8; 32]) -> Got<Signed> {
        let sk = key.sk;
        per_set!(p, Typed::sign_with(sk, m, rnd))
    }
    fn verify(&self, p: &Params, pk: &[u8], m: Msg<'_>, sig: &[u8]) -> Got<Verified> {
        Ok(per_set!(p, Typed::verify_with(pk, m, sig)))
    }
}
