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
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
mod kernels;

use crate::model::Provenance;
use crate::oracle::{Got, Key, KeyPair, Miss, Msg, Oracle, Signed, Speed, Verified, digest};
use mldsa::Params;
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
use mldsa::params::{Eta, Gamma1, Gamma2};
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
use mldsa::poly::Poly;
use mldsa::prehash::PreHash;

use ffi::SignInput;

/// The names of both builds on any machine.
pub const NAMES: [&str; 3] = ["mldsa-native", "mldsa-native-avx2", "mldsa-native-aarch64"];

/// The name of the native build on this architecture.
pub const NATIVE_NAME: &str = if cfg!(target_arch = "x86_64") {
    NAMES[1]
} else if cfg!(target_arch = "aarch64") {
    NAMES[2]
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

/// The kernel checks the native build answers (the kernels its `api.h` has), as the checks
/// name them: what `mldsa-diff list`'s matrix must show for it (`tests/listing.rs`).
pub const KERNEL_CHECKS: [&str; 11] = [
    "ntt",
    "invntt_tomont",
    "caddq",
    "pointwise_montgomery",
    "pointwise_acc_l{l}",
    "decompose_{g2}",
    "use_hint_{g2}",
    "chknorm",
    "rej_uniform",
    "rej_eta{eta}",
    "unpack_z{g1}",
];

/// The native build's kernels, on a CPU that runs them (a zero-sized token: made only after
/// the backend is known to be compiled in and the CPU to have its instructions).
#[derive(Clone, Copy, Debug)]
pub struct NativeKernels(());

impl NativeKernels {
    /// The kernels, if the native build runs here: on x86_64 a CPU with AVX2 first (the whole
    /// unit is compiled for it, even the function that says whether the backend was compiled
    /// in), then a backend compiled in (x86_64, aarch64).
    pub fn detect() -> Option<Self> {
        #[cfg(target_arch = "x86_64")]
        if !std::is_x86_feature_detected!("avx2") {
            return None;
        }
        ffi::native_backend_compiled().then_some(NativeKernels(()))
    }
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

/// One of the two builds, as an [`Oracle`]: the native one only with the token that proves
/// this CPU runs it (on x86_64 the whole unit is compiled for AVX2), and only that one offers
/// kernels.
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

    /// The native kernels, where this build has them.
    #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
    fn kernels(self) -> Got<NativeKernels> {
        self.native.ok_or(Miss::NotOffered)
    }
}

fn error(code: core::ffi::c_int) -> String {
    format!("mldsa-native error {code}")
}

/// The kernels of the native backend's interface (`api.h`); [`CONTRACT_DIFFERENCES`] says
/// how their contracts differ, and `kernels.rs` applies exactly that.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
macro_rules! native_kernels {
    () => {
        fn ntt(&self, _: &Params, a: Poly) -> Got<Poly> {
            kernels::ntt(self.kernels()?, a)
        }
        fn invntt_tomont(&self, _: &Params, a: Poly) -> Got<Poly> {
            kernels::invntt_tomont(self.kernels()?, a)
        }
        fn caddq(&self, _: &Params, a: Poly) -> Got<Poly> {
            kernels::caddq(self.kernels()?, a)
        }
        fn pointwise_montgomery(&self, _: &Params, a: &Poly, b: &Poly) -> Got<Poly> {
            kernels::pointwise(self.kernels()?, a, b)
        }
        fn pointwise_acc_montgomery(&self, _: &Params, u: &[Poly], v: &[Poly]) -> Got<Poly> {
            kernels::pointwise_acc(self.kernels()?, u, v)
        }
        fn decompose(&self, _: &Params, g: Gamma2, a: &Poly) -> Got<(Poly, Poly)> {
            kernels::decompose(self.kernels()?, g, a)
        }
        fn use_hint(&self, _: &Params, g: Gamma2, a: &Poly, h: &Poly) -> Got<Poly> {
            kernels::use_hint(self.kernels()?, g, a, h)
        }
        fn chknorm(&self, _: &Params, a: &Poly, bound: i32) -> Got<bool> {
            kernels::chknorm(self.kernels()?, a, bound)
        }
        fn rej_uniform(&self, _: &Params, buf: &[u8]) -> Got<Vec<i32>> {
            kernels::rej(self.kernels()?, None, buf)
        }
        fn rej_eta(&self, _: &Params, e: Eta, buf: &[u8]) -> Got<Vec<i32>> {
            kernels::rej(self.kernels()?, Some(e), buf)
        }
        fn unpack_z(&self, _: &Params, g: Gamma1, buf: &[u8]) -> Got<Poly> {
            kernels::unpack_z(self.kernels()?, g, buf)
        }
    };
}
#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
macro_rules! native_kernels {
    () => {};
}

impl Oracle for MldsaNative {
    native_kernels!();

    fn name(&self) -> &'static str {
        if self.native.is_some() {
            NATIVE_NAME
        } else {
            NAMES[0]
        }
    }
    fn origin(&self) -> Provenance {
        Provenance::MldsaNative
    }
    fn speed(&self) -> Speed {
        Speed::native(if self.native.is_some() { 70 } else { 300 })
    }
    fn keygen(&self, p: &Params, xi: &[u8; 32]) -> Got<KeyPair> {
        Ok(self.api(p).keypair(xi).map_err(error))
    }
    fn sign(&self, p: &Params, key: Key<'_>, m: Msg<'_>, rnd: &[u8; 32]) -> Got<Signed> {
        let sk = key.sk;
        let api = self.api(p);
        if sk.len() != api.sizes.1 {
            return Err(Miss::NotOffered);
        }
        let pre;
        let d;
        let input = match m {
            Msg::Pure { msg, ctx } => {
                // Its internal API takes the prefix as given: the wrapper refuses what its pure
                // API would (mld_sign rejects a context over 255 bytes).
                let Ok(len) = u8::try_from(ctx.len()) else {
                    return Ok(Err("mldsa-native: context longer than 255 bytes".into()));
                };
                pre = [&[0, len][..], ctx].concat();
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
        Ok(api.sign(sk, input, rnd).map_err(error))
    }
    fn verify(&self, p: &Params, pk: &[u8], m: Msg<'_>, sig: &[u8]) -> Got<Verified> {
        let api = self.api(p);
        if pk.len() != api.sizes.0 {
            return Ok(Err(None));
        }
        let ok = 0
            == match m {
                Msg::Pure { msg, ctx } => api.verify(pk, msg, ctx, sig),
                Msg::PreHash { ph, msg, ctx } => {
                    api.verify_pre_hash(pk, &digest(ph, msg), ctx, hashalg(ph), sig)
                }
                Msg::PreHashed { ph, digest, ctx } => {
                    api.verify_pre_hash(pk, digest, ctx, hashalg(ph), sig)
                }
                Msg::Mu(mu) => api.verify_internal(pk, mu, true, sig),
                Msg::Internal(m_prime) => api.verify_internal(pk, m_prime, false, sig),
            };
        Ok(if ok { Ok(()) } else { Err(None) })
    }
}

/// The portable C build (on every machine).
pub fn portable() -> MldsaNative {
    MldsaNative { native: None }
}

/// Both builds available here, the native one with its kernels.
pub fn oracles() -> Vec<Box<dyn Oracle>> {
    let mut v: Vec<Box<dyn Oracle>> = vec![Box::new(portable())];
    if let Some(k) = NativeKernels::detect() {
        v.push(Box::new(MldsaNative { native: Some(k) }));
    }
    v
}
