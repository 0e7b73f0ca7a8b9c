//! mldsa-native (the PQ Code Package's successor to PQClean's ML-DSA, formally verified, used
//! in AWS-LC) as an oracle, built by diff/build.rs from the source the `mldsa-native-rs`
//! crate bundles, twice: its portable C code ("mldsa-native") and its native backend
//! ("mldsa-native-avx2" on x86_64, "mldsa-native-aarch64" on aarch64).
//!
//! Both answer every end-to-end check through mldsa-native's own API (KeyGen_internal,
//! signing with an explicit rnd: pure, HashML-DSA with all twelve pre-hashes, external mu,
//! Sign_internal; Verify). The native build also answers the kernel checks its backend
//! interface (`src/native/api.h`) has, through a shim of ours ([`NativeKernels`]); where
//! that interface's contract differs from the check's, [`CONTRACT_DIFFERENCES`] says how,
//! once, and the wrapper applies exactly that.

mod ffi;

use crate::model::Provenance;
use crate::peers::{Msg, Peer, digest};
use mldsa::Params;
use mldsa::prehash::PreHash;

use ffi::SignInput;

/// The names of both builds on any machine.
pub const NAMES: [&str; 3] = ["mldsa-native", "mldsa-native-avx2", "mldsa-native-aarch64"];

/// The name of the native build on this architecture.
pub const NATIVE_NAME: &str = if cfg!(target_arch = "x86_64") {
    "mldsa-native-avx2"
} else if cfg!(target_arch = "aarch64") {
    "mldsa-native-aarch64"
} else {
    "mldsa-native (no native backend on this architecture)"
};

/// How the native kernels' contracts differ from the checks' (kernel, what the wrapper
/// does). `mldsa-diff list` prints these.
pub const CONTRACT_DIFFERENCES: [(&str, &str); 5] = [
    (
        "ntt, invntt_tomont",
        "the AVX2 backend keeps NTT-domain values in its own order: the wrapper applies \
         mldsa-native's own permutation (an involution) from and to bit-reversed order",
    ),
    (
        "pointwise_acc_l{4,5,7}",
        "u must lie in [0, q) (the checks draw |u| < 9q): the wrapper passes u mod q, which \
         is congruent, and the output is compared mod q as for every implementation",
    ),
    (
        "chknorm",
        "a must lie in [-6283009, 6283009) (the checks draw |a| < q): inputs outside are not \
         given to it",
    ),
    (
        "rej_uniform, rej_eta{2,4}",
        "the kernels sample only whole buffers (x86_64: 840 bytes for rej_uniform; aarch64: a \
         multiple of 24; 136 / 272 bytes for eta 2 / 4) and answer -1 (fallback) for others: \
         those inputs are not answered",
    ),
    (
        "every kernel",
        "a kernel answering -1 (fallback: not for this input or CPU) does not answer that input",
    ),
];

/// The native build's kernels, on a CPU that runs them (a zero-sized token: made only after
/// the backend is known to be compiled in and the CPU to have its instructions).
#[derive(Clone, Copy, Debug)]
pub struct NativeKernels(());

impl NativeKernels {
    /// The kernels, if this build and CPU have them.
    pub fn detect() -> Option<Self> {
        native_available().then_some(NativeKernels(()))
    }
}

/// The native kernels (each takes a [`NativeKernels`] token).
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
pub use ffi::shim;

/// Whether the native build runs here: on x86_64 a CPU with AVX2 first (the whole unit is
/// compiled for it, even the function that says whether the backend was compiled in), then a
/// backend compiled in (x86_64, aarch64).
fn native_available() -> bool {
    #[cfg(target_arch = "x86_64")]
    if !std::is_x86_feature_detected!("avx2") {
        return false;
    }
    ffi::native_backend_compiled()
}

/// mldsa-native's MLD_PREHASH_* constant for `ph`.
fn hashalg(ph: PreHash) -> core::ffi::c_int {
    match ph {
        PreHash::Sha2_224 => 1,
        PreHash::Sha2_256 => 2,
        PreHash::Sha2_384 => 3,
        PreHash::Sha2_512 => 4,
        PreHash::Sha2_512_224 => 5,
        PreHash::Sha2_512_256 => 6,
        PreHash::Sha3_224 => 7,
        PreHash::Sha3_256 => 8,
        PreHash::Sha3_384 => 9,
        PreHash::Sha3_512 => 10,
        PreHash::Shake128 => 11,
        PreHash::Shake256 => 12,
    }
}

/// One of the two builds, as a [`Peer`]: the native one only with the token that proves this
/// CPU runs it (on x86_64 the whole unit is compiled for AVX2).
#[derive(Clone, Copy, Debug)]
pub struct MldsaNative {
    native: Option<NativeKernels>,
}

impl MldsaNative {
    fn api(self, p: &Params) -> &'static ffi::Api {
        match (self.native, p.k) {
            (None, 4) => &ffi::PORT_44,
            (None, 6) => &ffi::PORT_65,
            (None, _) => &ffi::PORT_87,
            (Some(_), 4) => &ffi::NAT_44,
            (Some(_), 6) => &ffi::NAT_65,
            (Some(_), _) => &ffi::NAT_87,
        }
    }
}

fn error(code: core::ffi::c_int) -> String {
    format!("mldsa-native error {code}")
}

impl Peer for MldsaNative {
    fn name(&self) -> &'static str {
        if self.native.is_some() {
            NATIVE_NAME
        } else {
            NAMES[0]
        }
    }
    fn provenance(&self) -> Provenance {
        Provenance::MldsaNative
    }
    fn keygen(&self, p: &Params, xi: &[u8; 32]) -> Result<(Vec<u8>, Vec<u8>), String> {
        self.api(p).keypair(xi).map_err(error)
    }
    fn sign(
        &self,
        p: &Params,
        sk: &[u8],
        m: Msg<'_>,
        rnd: &[u8; 32],
    ) -> Option<Result<Vec<u8>, String>> {
        let api = self.api(p);
        if sk.len() != api.sizes.1 {
            return None;
        }
        let pre;
        let d;
        let input = match m {
            Msg::Pure { msg, ctx } => {
                let prefix = match mldsa::raw::pure_prefix(ctx) {
                    Ok(prefix) => prefix,
                    Err(e) => return Some(Err(e.to_string())),
                };
                pre = [&prefix[..], ctx].concat();
                SignInput::Internal { pre: &pre, m: msg }
            }
            Msg::PreHash { ph, msg, ctx } => {
                d = digest(ph, msg);
                SignInput::PreHash {
                    ph: &d,
                    ctx,
                    hashalg: hashalg(ph),
                }
            }
            Msg::PreHashed { ph, digest, ctx } => SignInput::PreHash {
                ph: digest,
                ctx,
                hashalg: hashalg(ph),
            },
            Msg::Mu(mu) => SignInput::Mu(mu),
            Msg::Internal(m_prime) => SignInput::Internal {
                pre: &[],
                m: m_prime,
            },
        };
        Some(api.sign(sk, input, rnd).map_err(error))
    }
    fn verify(&self, p: &Params, pk: &[u8], m: Msg<'_>, sig: &[u8]) -> Option<bool> {
        let api = self.api(p);
        if pk.len() != api.sizes.0 {
            return Some(false);
        }
        Some(
            0 == match m {
                Msg::Pure { msg, ctx } => api.verify(pk, msg, ctx, sig),
                Msg::PreHash { ph, msg, ctx } => {
                    api.verify_pre_hash(pk, &digest(ph, msg), ctx, hashalg(ph), sig)
                }
                Msg::PreHashed { ph, digest, ctx } => {
                    api.verify_pre_hash(pk, digest, ctx, hashalg(ph), sig)
                }
                Msg::Mu(mu) => api.verify_internal(pk, mu, true, sig),
                Msg::Internal(m_prime) => api.verify_internal(pk, m_prime, false, sig),
            },
        )
    }
}

/// The portable C build (on every machine).
pub fn portable() -> MldsaNative {
    MldsaNative { native: None }
}

/// Both builds available here, as peers, the native one with its kernels.
pub fn peers() -> Vec<(Box<dyn Peer>, Option<NativeKernels>)> {
    let mut v: Vec<(Box<dyn Peer>, Option<NativeKernels>)> =
        vec![(Box::new(MldsaNative { native: None }), None)];
    if let Some(k) = NativeKernels::detect() {
        v.push((Box::new(MldsaNative { native: Some(k) }), Some(k)));
    }
    v
}
