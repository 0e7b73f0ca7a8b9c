//! OpenSSL 4.0's ML-DSA (a C port of BoringSSL's: a lineage of its own), built by
//! `diff/build.rs` from the source the `openssl-src` crate bundles, through our shim over its
//! EVP API (`csrc/openssl_shim.c`, which says which route each mode takes): KeyGen_internal
//! from xi, signing with a given rnd ("test-entropy") and verifying, pure, HashML-DSA (OpenSSL
//! hashing the message, or given the digest: its "ML-DSA-MU" digest), external mu and
//! Sign_internal ("message-encoding" 0). HashML-DSA with SHA2-512/224 or SHA2-512/256 is not
//! offered: OpenSSL has no pre-hash OID for them. Built natively on Linux x86_64 and aarch64
//! only (see `build.rs`).

#[cfg(mldsa_diff_openssl)]
mod ffi;

use crate::oracle::Oracle;

pub const NAME: &str = "openssl";

/// The oracle, where this build has OpenSSL.
pub fn oracles() -> Vec<Box<dyn Oracle>> {
    #[cfg(mldsa_diff_openssl)]
    return vec![Box::new(built::OpenSsl)];
    #[cfg(not(mldsa_diff_openssl))]
    Vec::new()
}

#[cfg(mldsa_diff_openssl)]
mod built {
    use super::ffi::{self, Answer, Input};
    use crate::model::Provenance;
    use crate::oracle::{
        Fault, Got, Key, KeyPair, Miss, Msg, Oracle, Signed, Speed, Verified, offered,
    };
    use mldsa::Params;

    #[derive(Clone, Copy, Debug)]
    pub(super) struct OpenSsl;

    /// The shim's input for `m`: mode 0 pure, 1 HashML-DSA of the message, 2 given the
    /// digest, 3 external mu, 4 internal.
    fn input<'a>(m: &Msg<'a>) -> Input<'a> {
        let (mode, ph, msg, ctx): (_, _, &[u8], &[u8]) = match *m {
            Msg::Pure { msg, ctx } => (0, None, msg, ctx),
            Msg::PreHash { ph, msg, ctx } => (1, Some(ph.name()), msg, ctx),
            Msg::PreHashed { ph, digest, ctx } => (2, Some(ph.name()), digest, ctx),
            Msg::Mu(mu) => (3, None, mu, &[]),
            Msg::Internal(m) => (4, None, m, &[]),
        };
        Input { mode, ph, msg, ctx }
    }

    fn failed(e: String) -> Miss {
        Miss::Fault(Fault::Expectation(format!("the OpenSSL shim failed: {e}")))
    }

    impl Oracle for OpenSsl {
        fn name(&self) -> &'static str {
            super::NAME
        }
        fn origin(&self) -> Provenance {
            Provenance::OpenSsl
        }
        fn speed(&self) -> Speed {
            Speed::native(700)
        }
        fn keygen(&self, p: &Params, xi: &[u8; 32]) -> Got<KeyPair> {
            match ffi::keygen(p, xi) {
                Answer::Done(kp) => Ok(Ok(kp)),
                Answer::Refused(e) => Ok(Err(e)),
                Answer::NotOffered => Err(Miss::NotOffered),
                Answer::Failed(e) => Err(failed(e)),
            }
        }
        fn sign(&self, p: &Params, key: Key<'_>, m: Msg<'_>, rnd: &[u8; 32]) -> Got<Signed> {
            match ffi::sign(p, key.sk, input(&m), rnd) {
                Answer::Done(sig) => Ok(Ok(sig)),
                Answer::Refused(e) => Ok(Err(format!("openssl: {e}"))),
                Answer::NotOffered => offered(None),
                Answer::Failed(e) => Err(failed(e)),
            }
        }
        fn verify(&self, p: &Params, pk: &[u8], m: Msg<'_>, sig: &[u8]) -> Got<Verified> {
            match ffi::verify(p, pk, input(&m), sig) {
                Answer::Done(_) => Ok(Ok(())),
                Answer::Refused(e) => Ok(Err(Some(e))),
                Answer::NotOffered => Err(Miss::NotOffered),
                Answer::Failed(e) => Err(failed(e)),
            }
        }
    }
}
