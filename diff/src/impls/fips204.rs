//! The `fips204` crate (IntegrityChain): pure and HashML-DSA signing with an explicit rnd
//! (its pre-hash API takes the digest, computed here with the `sha2`/`sha3` crates through
//! `mldsa::prehash`), and, with its `acvp-internal` feature, external mu and Sign_internal.
#![allow(deprecated)] // `sign_mu`/`sign_internal`/`verify_*` are its deprecated ACVP hooks

use crate::model::Provenance;
use crate::oracle::{
    Got, Key, KeyPair, Msg, Oracle, Signed, Speed, Verified, accepted, digest, offered,
};
use fips204::traits::{KeyGen, SerDes, Signer, Verifier};
use mldsa::Params;

#[derive(Clone, Copy, Debug)]
pub(super) struct Fips204;

/// Hands `fips204` the caller's rnd as its "random" bytes.
struct FixedRnd([u8; 32]);

impl fips204::RngCore for FixedRnd {
    fn next_u32(&mut self) -> u32 {
        unreachable!("fips204 asks only for the 32 bytes of rnd")
    }
    fn next_u64(&mut self) -> u64 {
        unreachable!("fips204 asks only for the 32 bytes of rnd")
    }
    fn fill_bytes(&mut self, dst: &mut [u8]) {
        dst.copy_from_slice(&self.0);
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), fips204::RngError> {
        dst.copy_from_slice(&self.0);
        Ok(())
    }
}
impl fips204::CryptoRng for FixedRnd {}

macro_rules! set_module {
    ($m:ident) => {
        mod $m {
            use super::*;
            use fips204::$m as m;

            pub(super) fn keygen(xi: &[u8; 32]) -> (Vec<u8>, Vec<u8>) {
                let (pk, sk) = m::KG::keygen_from_seed(xi);
                (pk.into_bytes().to_vec(), sk.into_bytes().to_vec())
            }

            pub(super) fn sign(
                sk: &[u8],
                msg: Msg<'_>,
                rnd: &[u8; 32],
            ) -> Option<Result<Vec<u8>, String>> {
                let sk = m::PrivateKey::try_from_bytes(sk.try_into().ok()?);
                let r = sk.and_then(|sk| match msg {
                    Msg::Pure { msg, ctx } => sk.try_sign_with_seed(rnd, msg, ctx),
                    Msg::PreHash { ph, msg, ctx } => {
                        sk.try_hash_sign_with_seed(rnd, &digest(ph, msg), ctx, &ph.oid())
                    }
                    Msg::PreHashed { ph, digest, ctx } => {
                        sk.try_hash_sign_with_seed(rnd, digest, ctx, &ph.oid())
                    }
                    Msg::Mu(mu) => sk.sign_mu(&mut FixedRnd(*rnd), mu, true),
                    Msg::Internal(m_prime) => sk.sign_internal(&mut FixedRnd(*rnd), m_prime, true),
                });
                Some(r.map(|s| s.to_vec()).map_err(|e| format!("fips204: {e}")))
            }

            pub(super) fn verify(pk: &[u8], msg: Msg<'_>, sig: &[u8]) -> Option<bool> {
                let (Ok(pk), Ok(sig)) = (
                    <[u8; m::PK_LEN]>::try_from(pk),
                    <[u8; m::SIG_LEN]>::try_from(sig),
                ) else {
                    return Some(false);
                };
                let Ok(pk) = m::PublicKey::try_from_bytes(pk) else {
                    return Some(false);
                };
                Some(match msg {
                    Msg::Pure { msg, ctx } => pk.verify(msg, &sig, ctx),
                    Msg::PreHash { ph, msg, ctx } => {
                        pk.hash_verify(&digest(ph, msg), &sig, ctx, &ph.oid())
                    }
                    Msg::PreHashed { ph, digest, ctx } => {
                        pk.hash_verify(digest, &sig, ctx, &ph.oid())
                    }
                    Msg::Mu(mu) => pk.verify_mu(mu, &sig),
                    Msg::Internal(m_prime) => pk.verify_internal(m_prime, &sig),
                })
            }
        }
    };
}

set_module!(ml_dsa_44);
set_module!(ml_dsa_65);
set_module!(ml_dsa_87);

/// `$f` of the module of `p`'s parameter set (by its k).
macro_rules! by_set {
    ($p:expr, $f:ident($($a:expr),*)) => {
        match $p.k {
            4 => ml_dsa_44::$f($($a),*),
            6 => ml_dsa_65::$f($($a),*),
            _ => ml_dsa_87::$f($($a),*),
        }
    };
}

pub const NAME: &str = "fips204";

impl Oracle for Fips204 {
    fn name(&self) -> &'static str {
        NAME
    }
    fn origin(&self) -> Provenance {
        Provenance::RustPeer
    }
    fn speed(&self) -> Speed {
        Speed::native(400)
    }
    fn keygen(&self, p: &Params, xi: &[u8; 32]) -> Got<KeyPair> {
        Ok(Ok(by_set!(p, keygen(xi))))
    }
    fn sign(&self, p: &Params, key: Key<'_>, m: Msg<'_>, rnd: &[u8; 32]) -> Got<Signed> {
        let sk = key.sk;
        offered(by_set!(p, sign(sk, m, rnd)))
    }
    fn verify(&self, p: &Params, pk: &[u8], m: Msg<'_>, sig: &[u8]) -> Got<Verified> {
        offered(by_set!(p, verify(pk, m, sig))).map(accepted)
    }
}
