//! Implementations the harness reaches only through their whole-scheme API: mldsa-native
//! (portable C and its native backend) and the Rust peers (libcrux, RustCrypto `ml-dsa`,
//! `fips204`). Each is a [`Peer`]: KeyGen_internal from xi, signing with an explicit rnd in
//! the ways it offers, and verification. They answer the end-to-end checks, and so witness
//! whose answer a mismatch is: with six independent implementations besides PQClean, a
//! lone dissenter is named by the others.
//!
//! A peer answers only through its own public API. Where it has none for a mode (libcrux has
//! no external mu, RustCrypto no pre-hash API) it answers `None` for that input, and
//! `mldsa-diff list` shows the matrix.

mod fips204_peer;
mod libcrux;
pub mod rustcrypto;

use crate::model::Provenance;
use mldsa::Params;
use mldsa::prehash::PreHash;

/// What is signed or verified.
#[derive(Clone, Copy, Debug)]
pub enum Msg<'a> {
    /// Pure ML-DSA (FIPS 204 Alg. 2/3): the message and its context.
    Pure { msg: &'a [u8], ctx: &'a [u8] },
    /// HashML-DSA (Alg. 4/5): the message (each implementation hashes it, or its wrapper
    /// does with the `sha2`/`sha3` crates where the API takes the digest), the context and
    /// the pre-hash function.
    PreHash {
        ph: PreHash,
        msg: &'a [u8],
        ctx: &'a [u8],
    },
    /// HashML-DSA given the digest PH(M), of any length: an API that takes the digest must
    /// refuse one whose length is not the pre-hash function's output length.
    PreHashed {
        ph: PreHash,
        digest: &'a [u8],
        ctx: &'a [u8],
    },
    /// External mu: Sign_internal from line 7 on, given mu.
    Mu(&'a [u8; 64]),
    /// Sign_internal / Verify_internal (Alg. 7/8) on M' as given.
    Internal(&'a [u8]),
}

/// An implementation reached through its whole-scheme API.
pub trait Peer: Send + Sync {
    /// Its name in tables and reports.
    fn name(&self) -> &'static str;
    /// Where it comes from.
    fn provenance(&self) -> Provenance;
    /// KeyGen_internal(xi) -> (pk, sk), or why it failed.
    fn keygen(&self, p: &Params, xi: &[u8; 32]) -> Result<(Vec<u8>, Vec<u8>), String>;
    /// A signature with randomness `rnd`; `None` if it has no API for `m` (or `sk` has the
    /// wrong length, which its API cannot take); `Some(Err(reason))` if it refuses.
    fn sign(
        &self,
        p: &Params,
        sk: &[u8],
        m: Msg<'_>,
        rnd: &[u8; 32],
    ) -> Option<Result<Vec<u8>, String>>;
    /// Accept or reject (a public key or signature of the wrong length is rejected by the
    /// wrapper, as the API cannot take it); `None` if it has no API for `m`.
    fn verify(&self, p: &Params, pk: &[u8], m: Msg<'_>, sig: &[u8]) -> Option<bool>;
}

/// Every Rust peer this build has, on this CPU.
pub fn rust_peers() -> Vec<Box<dyn Peer>> {
    let mut v: Vec<Box<dyn Peer>> = vec![Box::new(libcrux::Libcrux::Portable)];
    v.extend(libcrux::Libcrux::simd().map(|l| Box::new(l) as Box<dyn Peer>));
    v.push(Box::new(rustcrypto::RustCrypto));
    v.push(Box::new(fips204_peer::Fips204));
    v
}

/// libcrux's portable code (on every machine).
pub fn libcrux_portable() -> impl Peer {
    libcrux::Libcrux::Portable
}

/// The names of every Rust peer on any machine.
pub const RUST_PEER_NAMES: [&str; 5] = [
    "libcrux-portable",
    "libcrux-avx2",
    "libcrux-neon",
    "rustcrypto",
    "fips204",
];

/// The digest PH(M) computed with the `sha2`/`sha3` crates (for APIs that take the digest).
pub fn digest(ph: PreHash, msg: &[u8]) -> Vec<u8> {
    ph.digest(msg)[..ph.digest_len()].to_vec()
}
