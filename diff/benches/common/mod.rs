//! What the scheme and placement benchmarks share: the inputs every implementation is given
//! and mldsa-native's native build where this CPU runs it.

use mldsa::{BackendKind, Params, raw};
use mldsa_diff::Oracle;
use mldsa_diff::impls::mldsa_native;

pub(crate) const MSG: &[u8] = b"The quick brown fox jumps over the lazy dog, 59 bytes long.";
pub(crate) const CTX: &[u8] = b"bench";

/// One set's inputs: the same xi for every KeyGen, the same rnd for every signer (scripted
/// into the C code, so all run the same number of rejection-loop iterations), the key pair
/// from xi, and the portable backend's signature of `MSG` under `CTX` for every verifier.
pub(crate) struct Fixture {
    pub xi: [u8; 32],
    pub rnd: [u8; 32],
    pub pk: Vec<u8>,
    pub sk: Vec<u8>,
    pub sig: Vec<u8>,
    pre: Vec<u8>,
}

impl Fixture {
    pub(crate) fn new(p: &Params) -> Self {
        let (xi, rnd) = ([0x11u8; 32], [0x22u8; 32]);
        let (pk, sk) = mldsa_diff::check::e2e::keygen(p, &xi);
        let pre = raw::pure_prefix(CTX).expect("a 5-byte context").to_vec();
        let mut sig = vec![0u8; p.sig_bytes()];
        raw::sign_internal(
            BackendKind::Portable,
            p,
            &sk,
            &[&pre, CTX, MSG],
            &rnd,
            &mut sig,
        )
        .expect("the portable backend signs");
        Fixture {
            xi,
            rnd,
            pk,
            sk,
            sig,
            pre,
        }
    }

    /// M' of pure ML-DSA (FIPS 204 Alg. 2): the prefix, the context, the message.
    pub(crate) fn m_prime(&self) -> [&[u8]; 3] {
        [&self.pre, CTX, MSG]
    }
}

/// mldsa-native's native build (AVX2 on x86_64, its aarch64 backend), if this CPU runs it.
pub(crate) fn native_oracle() -> Option<Box<dyn Oracle>> {
    mldsa_native::oracles()
        .into_iter()
        .find(|o| o.name() == mldsa_native::NATIVE_NAME)
}
