//! The NIST-style 100-count KAT (`PQCsignKAT` `.rsp` output), regenerated and hashed.
//! Recipe: `../shared/vectors/README.md`; expected digests are the published ones
//! (PQClean META.yml `nistkat-sha256`), not values this project produced.

use crate::drbg::Drbg;
use mldsa::{BackendKind, Params, raw};
use sha2::{Digest, Sha256};
use std::fmt::Write;

/// Published SHA-256 digests: (parameter set, count 0 only, all 100 counts).
pub const PUBLISHED: [(Params, &str, &str); 3] = [
    (
        mldsa::ML_DSA_44,
        "9a196e7fb32fbc93757dc2d8dc1924460eab66303c0c08aeb8b798fb8d8f8cf3",
        "54322d25c05b96941aec73eb3ee27a975d38a34bfb53ef4cb9fd4a8e9cab554c",
    ),
    (
        mldsa::ML_DSA_65,
        "7cb96242eac9907a55b5c84c202f0ebd552419c50b2e986dc2e28f07ecebf072",
        "47e1ca6d4a45e9853e381954cf97206eca22993deade3cade45bd9d9457c93f9",
    ),
    (
        mldsa::ML_DSA_87,
        "4537905d2aabcf302fab2f242baed293459ecda7c230e6a67063b02c7e2840ed",
        "12382114979d5b64436aebfe6db02d61c07859429233105e936752cb77cc585a",
    ),
];

/// Produces the `.rsp` text for `counts` counts (100 for the published digest).
pub fn rsp(backend: BackendKind, p: &Params, counts: usize) -> Result<String, mldsa::Error> {
    let mut entropy = [0u8; 48];
    entropy
        .iter_mut()
        .enumerate()
        .for_each(|(i, e)| *e = i as u8);
    let mut outer = Drbg::new(&entropy);
    let mut text = String::new();
    for count in 0..counts {
        let seed: [u8; 48] = outer.bytes();
        let mlen = 33 * (count + 1);
        let mut msg = vec![0u8; mlen];
        outer.fill(&mut msg);
        let mut inner = Drbg::new(&seed);
        let xi: [u8; 32] = inner.bytes();
        let mut pk = vec![0u8; p.pk_bytes()];
        let mut sk = vec![0u8; p.sk_bytes()];
        raw::keygen_internal(backend, p, &xi, &mut pk, &mut sk)?;
        let rnd: [u8; 32] = inner.bytes();
        let mut sig = vec![0u8; p.sig_bytes()];
        raw::sign_internal(backend, p, &sk, &[&[0, 0], &msg], &rnd, &mut sig)?;
        if count > 0 {
            text.push('\n');
        }
        let up = |b: &[u8]| hex::encode_upper(b);
        let _ = write!(
            text,
            "count = {count}\nseed = {}\nmlen = {mlen}\nmsg = {}\npk = {}\nsk = {}\nsmlen = {}\nsm = {}{}\n",
            up(&seed),
            up(&msg),
            up(&pk),
            up(&sk),
            sig.len() + mlen,
            up(&sig),
            up(&msg)
        );
    }
    Ok(text)
}

/// SHA-256 of a string, in hex.
pub fn sha256_hex(s: &str) -> String {
    hex::encode(Sha256::digest(s.as_bytes()))
}
