//! libcrux-ml-dsa (Cryspen; formally verified in parts): its portable code, and its AVX2
//! (x86_64) or Neon (aarch64) code, each called explicitly. Pure and Sign_internal signing,
//! HashML-DSA with SHAKE128 (the only pre-hash it offers); no external mu.

use crate::model::Provenance;
use crate::oracle::{Got, Key, KeyPair, Msg, Oracle, Signed, Speed, Verified, accepted, offered};
use libcrux_ml_dsa::{MLDSASignature, MLDSASigningKey, MLDSAVerificationKey};
use mldsa::Params;
use mldsa::prehash::PreHash;

/// The names of its builds on any machine.
pub const NAMES: [&str; 3] = ["libcrux-portable", "libcrux-avx2", "libcrux-neon"];

/// Its portable build, and its SIMD build where this CPU has it.
pub fn oracles() -> Vec<Box<dyn Oracle>> {
    std::iter::once(Libcrux::Portable)
        .chain(Libcrux::simd())
        .map(|l| Box::new(l) as Box<dyn Oracle>)
        .collect()
}

/// Which libcrux implementation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Libcrux {
    /// `ml_dsa_XX::portable`.
    Portable,
    /// `ml_dsa_XX::avx2` (only after `is_x86_feature_detected!("avx2")`: libcrux's AVX2
    /// functions do not check the CPU).
    #[cfg(target_arch = "x86_64")]
    Avx2,
    /// `ml_dsa_XX::neon`.
    #[cfg(target_arch = "aarch64")]
    Neon,
}

impl Libcrux {
    /// Its SIMD implementation, if this CPU has it.
    pub(super) fn simd() -> Option<Libcrux> {
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("avx2") {
            return Some(Libcrux::Avx2);
        }
        #[cfg(target_arch = "aarch64")]
        if std::arch::is_aarch64_feature_detected!("neon") {
            return Some(Libcrux::Neon);
        }
        None
    }
}

/// One parameter set, one implementation module: (pk, sk) / signature / accept.
macro_rules! set_fns {
    ($imp:path, $pk:literal, $sk:literal, $sig:literal) => {{
        use $imp as m;
        fn keygen(xi: &[u8; 32]) -> (Vec<u8>, Vec<u8>) {
            let kp = m::generate_key_pair(*xi);
            (
                kp.verification_key.as_slice().to_vec(),
                kp.signing_key.as_slice().to_vec(),
            )
        }
        fn sign(sk: &[u8], msg: Msg<'_>, rnd: &[u8; 32]) -> Option<Result<Vec<u8>, String>> {
            let sk = MLDSASigningKey::<$sk>::new(sk.try_into().ok()?);
            let r = match msg {
                Msg::Pure { msg, ctx } => m::sign(&sk, msg, ctx, *rnd),
                Msg::PreHash {
                    ph: PreHash::Shake128,
                    msg,
                    ctx,
                } => m::sign_pre_hashed_shake128(&sk, msg, ctx, *rnd),
                // Not offered (see `offers`).
                Msg::PreHash { .. } | Msg::PreHashed { .. } | Msg::Mu(_) => return None,
                Msg::Internal(m_prime) => m::sign_internal(&sk, m_prime, *rnd),
            };
            Some(
                r.map(|s| s.as_slice().to_vec())
                    .map_err(|e| format!("{e:?}")),
            )
        }
        fn verify(pk: &[u8], msg: Msg<'_>, sig: &[u8]) -> Option<bool> {
            let (Ok(pk), Ok(sig)) = (<[u8; $pk]>::try_from(pk), <[u8; $sig]>::try_from(sig)) else {
                return Some(false);
            };
            let (pk, sig) = (
                MLDSAVerificationKey::<$pk>::new(pk),
                MLDSASignature::<$sig>::new(sig),
            );
            let r = match msg {
                Msg::Pure { msg, ctx } => m::verify(&pk, msg, ctx, &sig),
                Msg::PreHash {
                    ph: PreHash::Shake128,
                    msg,
                    ctx,
                } => m::verify_pre_hashed_shake128(&pk, msg, ctx, &sig),
                // Not offered (see `offers`).
                Msg::PreHash { .. } | Msg::PreHashed { .. } | Msg::Mu(_) => return None,
                Msg::Internal(m_prime) => m::verify_internal(&pk, m_prime, &sig),
            };
            Some(r.is_ok())
        }
        (keygen, sign, verify)
    }};
}

type Fns = (
    fn(&[u8; 32]) -> (Vec<u8>, Vec<u8>),
    fn(&[u8], Msg<'_>, &[u8; 32]) -> Option<Result<Vec<u8>, String>>,
    fn(&[u8], Msg<'_>, &[u8]) -> Option<bool>,
);

macro_rules! per_impl {
    ($imp:ident, $k:expr) => {
        match $k {
            4 => set_fns!(libcrux_ml_dsa::ml_dsa_44::$imp, 1312, 2560, 2420),
            6 => set_fns!(libcrux_ml_dsa::ml_dsa_65::$imp, 1952, 4032, 3309),
            _ => set_fns!(libcrux_ml_dsa::ml_dsa_87::$imp, 2592, 4896, 4627),
        }
    };
}

/// Whether libcrux has an API for `m`: no external mu, and SHAKE128 the only pre-hash.
fn offers(m: Msg<'_>) -> bool {
    match m {
        Msg::Mu(_) | Msg::PreHashed { .. } => false,
        Msg::PreHash { ph, .. } => ph == PreHash::Shake128,
        Msg::Pure { .. } | Msg::Internal(_) => true,
    }
}

impl Libcrux {
    fn fns(self, p: &Params) -> Fns {
        match self {
            Libcrux::Portable => per_impl!(portable, p.k),
            #[cfg(target_arch = "x86_64")]
            Libcrux::Avx2 => per_impl!(avx2, p.k),
            #[cfg(target_arch = "aarch64")]
            Libcrux::Neon => per_impl!(neon, p.k),
        }
    }
}

impl Oracle for Libcrux {
    fn name(&self) -> &'static str {
        match self {
            Libcrux::Portable => NAMES[0],
            #[cfg(target_arch = "x86_64")]
            Libcrux::Avx2 => NAMES[1],
            #[cfg(target_arch = "aarch64")]
            Libcrux::Neon => NAMES[2],
        }
    }
    fn origin(&self) -> Provenance {
        Provenance::RustPeer
    }
    fn speed(&self) -> Speed {
        match self {
            Libcrux::Portable => Speed::native(300),
            #[cfg(target_arch = "x86_64")]
            Libcrux::Avx2 => Speed::native(100),
            #[cfg(target_arch = "aarch64")]
            Libcrux::Neon => Speed::native(150),
        }
    }
    fn keygen(&self, p: &Params, xi: &[u8; 32]) -> Got<KeyPair> {
        Ok(Ok((self.fns(p).0)(xi)))
    }
    fn sign(&self, p: &Params, key: Key<'_>, m: Msg<'_>, rnd: &[u8; 32]) -> Got<Signed> {
        let sk = key.sk;
        offered(offers(m).then(|| (self.fns(p).1)(sk, m, rnd)).flatten())
    }
    fn verify(&self, p: &Params, pk: &[u8], m: Msg<'_>, sig: &[u8]) -> Got<Verified> {
        offered(offers(m).then(|| (self.fns(p).2)(pk, m, sig)).flatten()).map(accepted)
    }
}
