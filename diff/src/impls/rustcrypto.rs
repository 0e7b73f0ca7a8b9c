//! RustCrypto `ml-dsa` (portable, no `unsafe`): pure signing with a context, external mu and
//! Sign_internal, each with an explicit rnd; it has no pre-hash API.
//!
//! Its expanded-key decoder asserts (panics, in release builds too) on an s1/s2 coefficient
//! outside [-eta, eta]. Under libFuzzer every panic aborts, so such a key is not handed to it:
//! the wrapper answers a fixed refusal instead, which `known.rs` asserts exactly, and the test
//! `rustcrypto_panics_on_out_of_range_keys` shows the panic is real.
#![allow(deprecated)] // `from_expanded`/`to_expanded`: the expanded key format is what is compared

use crate::model::Provenance;
use crate::oracle::{Got, Key, KeyPair, Msg, Oracle, Signed, Speed, Verified, accepted, offered};
use ml_dsa::signature::rand_core::{TryCryptoRng, TryRng};
use ml_dsa::{
    EncodedVerifyingKey, ExpandedSigningKey, ExpandedSigningKeyBytes, MlDsa44, MlDsa65, MlDsa87,
    MlDsaParams, Signature, VerifyingKey,
};
use mldsa::Params;

#[derive(Clone, Copy, Debug)]
pub(super) struct RustCrypto;

/// The refusal answered for a key `ml-dsa` would panic on.
pub const PANICS_ON_KEY: &str =
    "not called: ml-dsa's expanded-key decoder panics on an s1/s2 coefficient outside [-eta, eta]";

/// Hands `ml-dsa` the caller's rnd as its "random" bytes.
struct FixedRnd([u8; 32]);

impl TryRng for FixedRnd {
    type Error = core::convert::Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
        unreachable!("ml-dsa asks only for the 32 bytes of rnd")
    }
    fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
        unreachable!("ml-dsa asks only for the 32 bytes of rnd")
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
        dst.copy_from_slice(&self.0);
        Ok(())
    }
}
impl TryCryptoRng for FixedRnd {}

fn keygen<P: MlDsaParams>(xi: &[u8; 32]) -> (Vec<u8>, Vec<u8>) {
    let sk = ExpandedSigningKey::<P>::from_seed(&(*xi).into());
    (
        sk.verifying_key().encode().to_vec(),
        sk.to_expanded().to_vec(),
    )
}

fn sign<P: MlDsaParams>(
    p: &Params,
    sk: &[u8],
    m: Msg<'_>,
    rnd: &[u8; 32],
) -> Option<Result<Vec<u8>, String>> {
    let bytes = ExpandedSigningKeyBytes::<P>::try_from(sk).ok()?;
    if mldsa::raw::check_secret_key(p, sk) == Err(mldsa::Error::SecretKeyOutOfRange) {
        return Some(Err(PANICS_ON_KEY.into()));
    }
    let esk = ExpandedSigningKey::<P>::from_expanded(&bytes);
    let r = match m {
        Msg::Pure { msg, ctx } => esk.sign_randomized(msg, ctx, &mut FixedRnd(*rnd)),
        Msg::Mu(mu) => esk.sign_mu_randomized(&(*mu).into(), &mut FixedRnd(*rnd)),
        Msg::Internal(m_prime) => Ok(esk.sign_internal(&[m_prime], &(*rnd).into())),
        Msg::PreHash { .. } | Msg::PreHashed { .. } => return None,
    };
    Some(
        r.map(|s| s.encode().to_vec())
            .map_err(|e| format!("ml-dsa: {e}")),
    )
}

fn verify<P: MlDsaParams>(pk: &[u8], m: Msg<'_>, sig: &[u8]) -> Option<bool> {
    if matches!(m, Msg::PreHash { .. } | Msg::PreHashed { .. }) {
        return None;
    }
    let Ok(pk) = EncodedVerifyingKey::<P>::try_from(pk) else {
        return Some(false);
    };
    let vk = VerifyingKey::<P>::decode(&pk);
    // Decoding rejects a wrong length, a malformed hint and an out-of-bound z.
    let Ok(sig) = Signature::<P>::try_from(sig) else {
        return Some(false);
    };
    Some(match m {
        Msg::Pure { msg, ctx } => vk.verify_with_context(msg, ctx, &sig),
        Msg::Mu(mu) => vk.verify_mu(&(*mu).into(), &sig),
        Msg::Internal(m_prime) => vk.verify_internal(m_prime, &sig),
        // No pre-hash API (answered above).
        Msg::PreHash { .. } | Msg::PreHashed { .. } => return None,
    })
}

pub const NAME: &str = "rustcrypto";

impl Oracle for RustCrypto {
    fn name(&self) -> &'static str {
        NAME
    }
    fn origin(&self) -> Provenance {
        Provenance::RustPeer
    }
    fn speed(&self) -> Speed {
        Speed::native(800)
    }
    fn keygen(&self, p: &Params, xi: &[u8; 32]) -> Got<KeyPair> {
        Ok(Ok(per_set!(p, keygen(xi))))
    }
    fn sign(&self, p: &Params, key: Key<'_>, m: Msg<'_>, rnd: &[u8; 32]) -> Got<Signed> {
        let sk = key.sk;
        offered(per_set!(p, sign(p, sk, m, rnd)))
    }
    fn verify(&self, p: &Params, pk: &[u8], m: Msg<'_>, sig: &[u8]) -> Got<Verified> {
        offered(per_set!(p, verify(pk, m, sig))).map(accepted)
    }
}
