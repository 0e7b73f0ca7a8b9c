//! The one interface every implementation answers: [`Oracle`], one method per kernel and per
//! end-to-end operation, each answering [`Miss::NotOffered`] unless the implementation
//! overrides it (as a Cryptofuzz module overrides the operations its library has). A check
//! is written once against it (`check::Def::run`); an implementation lives in its own folder
//! under [`crate::impls`] and carries its own contract differences (NTT order, narrowed input
//! bounds, whole buffers) inside its methods.
//!
//! Every method speaks the checks' contract: NTT-domain polynomials in the canonical (FIPS
//! 204 bit-reversed) order, coefficients as the kernel contract bounds them, byte strings as
//! FIPS 204 encodes them. `p` names the parameter set whose compiled code answers (the C
//! implementations are built once per set); a parameter-free kernel ignores it.
//!
//! A leaf: it knows the data model and nothing of checks or implementations.

pub use crate::model::Fault;
use crate::model::{Output, Provenance};
use mldsa::Params;
use mldsa::params::{Eta, Gamma1, Gamma2};
use mldsa::poly::Poly;
use mldsa::prehash::PreHash;

/// Why an implementation gave no answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Miss {
    /// It does not offer this operation, or not for this input (outside its own narrower
    /// contract, a mode its API lacks): the input is not compared with it.
    NotOffered,
    /// The harness around it failed: reported as that implementation's answer, so it shows
    /// as a mismatch naming it, never as a silent skip.
    Fault(Fault),
}

/// An implementation's answer to one operation.
pub type Got<T> = Result<T, Miss>;

/// The answer `f` makes of `got`; `None` where the implementation offers nothing for it, a
/// harness error where the harness around it failed.
pub fn answered<T>(got: Got<T>, f: impl FnOnce(T) -> Output) -> Option<Output> {
    match got {
        Ok(t) => Some(f(t)),
        Err(Miss::NotOffered) => None,
        Err(Miss::Fault(e)) => Some(e.output()),
    }
}

/// An API's `Option` as an answer: `None` is not offered.
pub fn offered<T>(x: Option<T>) -> Got<T> {
    x.ok_or(Miss::NotOffered)
}

/// A verifier's accept (`true`) or reject, with no reason given.
pub fn accepted(ok: bool) -> Verified {
    if ok { Ok(()) } else { Err(None) }
}

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

/// The digest PH(M) computed with the `sha2`/`sha3` crates (for APIs that take the digest).
pub fn digest(ph: PreHash, msg: &[u8]) -> Vec<u8> {
    ph.digest(msg)[..ph.digest_len()].to_vec()
}

/// A signing key as a check gives it: the FIPS 204 encoding of the secret key, and the seed
/// it was made from where the input knows one (then `sk` is exactly KeyGen_internal(xi)'s, which
/// the input's validation checks). An API that signs only with keys it derives from a seed
/// itself (Go's) answers only where `xi` is given.
#[derive(Clone, Copy, Debug)]
pub struct Key<'a> {
    pub sk: &'a [u8],
    pub xi: Option<&'a [u8; 32]>,
}

impl<'a> Key<'a> {
    /// A key given by its encoding alone.
    pub fn expanded(sk: &'a [u8]) -> Self {
        Key { sk, xi: None }
    }
}

/// What an implementation states of its own speed here, for the fuzz targets' fast subset
/// and the runner's case scaling (read from the implementation, never from a list of names
/// kept elsewhere). An order of magnitude is enough. The implementations in this process
/// state what `mldsa-diff check --only sign_44` measured on x86_64 (its time column over
/// 200 cases; Neon builds, not measured here, state their peers' SIMD figures); an adapter,
/// what its author measured (its hello).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Speed {
    /// One ML-DSA-44 signature, in microseconds.
    pub sign_us: u32,
    /// One kernel call, in microseconds.
    pub kernel_us: u32,
}

impl Speed {
    /// Native code called in process: signing in well under a millisecond.
    pub const fn native(sign_us: u32) -> Self {
        Speed {
            sign_us,
            kernel_us: 1,
        }
    }
}

/// A key pair, or why KeyGen failed.
pub type KeyPair = Result<(Vec<u8>, Vec<u8>), String>;
/// A signature, or the signer's refusal as it words it.
pub type Signed = Result<Vec<u8>, String>;
/// Accept, or reject with the verifier's reason where it gives one.
pub type Verified = Result<(), Option<String>>;

/// Declares the interface: each operation with a default body answering "not offered".
macro_rules! interface {
    ($( $(#[$doc:meta])* fn $name:ident(&self $(, $arg:ident: $ty:ty)*) -> $ret:ty; )*) => {
        /// An implementation under comparison: a name, where it comes from, and the operations
        /// it offers (every other one answers [`Miss::NotOffered`]).
        #[allow(unused_variables)]
        pub trait Oracle: Send + Sync {
            /// Its name in tables and reports ("portable", "avx2", "c-clean", ...).
            fn name(&self) -> &'static str;
            fn origin(&self) -> Provenance;
            /// Its stated speed.
            fn speed(&self) -> Speed;
            /// Whether every answer is to be spoiled by one bit (the planted oracle fault:
            /// [`Planted`]).
            fn planted(&self) -> bool {
                false
            }
            $( $(#[$doc])* fn $name(&self $(, $arg: $ty)*) -> $ret { Err(Miss::NotOffered) } )*
        }

        /// An implementation with a planted fault in its wrapper: every answer it gives is one
        /// bit off ([`spoiled`]), to show that a wrong answer from any implementation is caught
        /// and that the report names exactly that one. With `MLDSA_DIFF_PLANTED_ORACLE=<name>`,
        /// [`crate::impls::available`] wraps that implementation; `tests/planted_oracle.rs` does
        /// it for every one; by hand: `MLDSA_DIFF_PLANTED_ORACLE=fips204 mldsa-diff check
        /// --only sign_44`.
        pub struct Planted(pub Box<dyn Oracle>);

        impl std::fmt::Debug for Planted {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, "Planted({})", self.0.name())
            }
        }

        impl Oracle for Planted {
            fn name(&self) -> &'static str {
                self.0.name()
            }
            fn origin(&self) -> Provenance {
                self.0.origin()
            }
            fn speed(&self) -> Speed {
                self.0.speed()
            }
            fn planted(&self) -> bool {
                true
            }
            $( fn $name(&self $(, $arg: $ty)*) -> $ret { self.0.$name($($arg),*) } )*
        }
    };
}

interface! {
    /// NTT (Alg. 41): canonical order out.
    fn ntt(&self, p: &Params, a: Poly) -> Got<Poly>;
    /// NTT^-1 (Alg. 42) times the Montgomery factor: canonical order in.
    fn invntt_tomont(&self, p: &Params, a: Poly) -> Got<Poly>;
    /// Coefficient-wise Montgomery product.
    fn pointwise_montgomery(&self, p: &Params, a: &Poly, b: &Poly) -> Got<Poly>;
    /// The inner product of two vectors of l polynomials, Montgomery-reduced.
    fn pointwise_acc_montgomery(&self, p: &Params, u: &[Poly], v: &[Poly]) -> Got<Poly>;
    /// Montgomery-friendly reduction to (-q, q).
    fn reduce(&self, p: &Params, a: Poly) -> Got<Poly>;
    /// Adds q to negative coefficients.
    fn caddq(&self, p: &Params, a: Poly) -> Got<Poly>;
    fn add(&self, p: &Params, a: &Poly, b: &Poly) -> Got<Poly>;
    fn sub(&self, p: &Params, a: &Poly, b: &Poly) -> Got<Poly>;
    /// a * 2^d.
    fn shiftl(&self, p: &Params, a: Poly) -> Got<Poly>;
    /// Power2Round (Alg. 35): (t1, t0).
    fn power2round(&self, p: &Params, a: &Poly) -> Got<(Poly, Poly)>;
    /// Decompose (Alg. 36): (r1, r0).
    fn decompose(&self, p: &Params, g: Gamma2, a: &Poly) -> Got<(Poly, Poly)>;
    /// MakeHint (Alg. 39) coefficient-wise: the hint and its number of ones.
    fn make_hint(&self, p: &Params, g: Gamma2, a0: &Poly, a1: &Poly) -> Got<(Poly, usize)>;
    /// UseHint (Alg. 40) coefficient-wise.
    fn use_hint(&self, p: &Params, g: Gamma2, a: &Poly, h: &Poly) -> Got<Poly>;
    /// Whether some |coefficient| >= bound.
    fn chknorm(&self, p: &Params, a: &Poly, bound: i32) -> Got<bool>;
    /// The values RejNTTPoly's rejection keeps from `buf` (at most 256).
    fn rej_uniform(&self, p: &Params, buf: &[u8]) -> Got<Vec<i32>>;
    /// The values RejBoundedPoly's rejection keeps from `buf` (at most 256).
    fn rej_eta(&self, p: &Params, e: Eta, buf: &[u8]) -> Got<Vec<i32>>;
    /// SimpleBitPack of t1 (Alg. 16).
    fn pack_t1(&self, p: &Params, a: &Poly) -> Got<Vec<u8>>;
    /// SimpleBitUnpack of t1 (Alg. 18).
    fn unpack_t1(&self, p: &Params, buf: &[u8]) -> Got<Poly>;
    /// BitPack of t0 (Alg. 17).
    fn pack_t0(&self, p: &Params, a: &Poly) -> Got<Vec<u8>>;
    /// BitUnpack of t0 (Alg. 19).
    fn unpack_t0(&self, p: &Params, buf: &[u8]) -> Got<Poly>;
    /// BitPack of s1/s2.
    fn pack_eta(&self, p: &Params, e: Eta, a: &Poly) -> Got<Vec<u8>>;
    /// BitUnpack of s1/s2, and whether every coefficient lies in [-eta, eta].
    fn unpack_eta(&self, p: &Params, e: Eta, buf: &[u8]) -> Got<(Poly, bool)>;
    /// BitPack of z.
    fn pack_z(&self, p: &Params, g: Gamma1, a: &Poly) -> Got<Vec<u8>>;
    /// BitUnpack of z.
    fn unpack_z(&self, p: &Params, g: Gamma1, buf: &[u8]) -> Got<Poly>;
    /// SimpleBitPack of w1.
    fn pack_w1(&self, p: &Params, g: Gamma2, a: &Poly) -> Got<Vec<u8>>;
    /// HintBitPack (Alg. 20) of k polynomials.
    fn pack_hint(&self, p: &Params, h: &[Poly]) -> Got<Vec<u8>>;
    /// HintBitUnpack (Alg. 21): the k polynomials, or `None` where it rejects.
    fn unpack_hint(&self, p: &Params, buf: &[u8]) -> Got<Option<Vec<Poly>>>;
    /// Keccak-f[1600] on one state.
    fn keccak_f1600(&self, p: &Params, s: [u64; 25]) -> Got<[u64; 25]>;
    /// Keccak-f[1600] on four interleaved states.
    fn keccak_f1600_x4(&self, p: &Params, s: [u64; 100]) -> Got<[u64; 100]>;
    /// Keccak-f[1600] on two sets of four interleaved states.
    fn keccak_f1600_x4x2(&self, p: &Params, s: [[u64; 100]; 2]) -> Got<[[u64; 100]; 2]>;
    /// RejNTTPoly (Alg. 30) of rho || nonce.
    fn poly_uniform(&self, p: &Params, seed: &[u8; 34]) -> Got<Poly>;
    /// RejBoundedPoly (Alg. 31) of rho' || nonce.
    fn poly_uniform_eta(&self, p: &Params, e: Eta, seed: &[u8; 66]) -> Got<Poly>;
    /// One polynomial of ExpandMask (Alg. 34) of rho'' || nonce.
    fn poly_uniform_gamma1(&self, p: &Params, g: Gamma1, seed: &[u8; 66]) -> Got<Poly>;
    /// ExpandMask (Alg. 34) of rho'' and kappa: y[r] from rho'' || kappa + r (mod 2^16), l
    /// polynomials.
    fn expand_mask(&self, p: &Params, rhopp: &[u8; 64], kappa: u16) -> Got<Vec<Poly>>;
    /// SampleInBall (Alg. 29) of c~.
    fn sample_in_ball(&self, p: &Params, ctilde: &[u8]) -> Got<Poly>;
    /// ExpandA (Alg. 32): k x l polynomials, row by row, canonical order.
    fn expand_a(&self, p: &Params, rho: &[u8; 32]) -> Got<Vec<Poly>>;
    /// ML-DSA.KeyGen_internal (Alg. 6) from xi: (pk, sk).
    fn keygen(&self, p: &Params, xi: &[u8; 32]) -> Got<KeyPair>;
    /// A signature of `m` with randomness `rnd` (not offered: no API for `m`'s mode, a key
    /// of a length the API cannot take, or one it can take only from a seed not given).
    fn sign(&self, p: &Params, key: Key<'_>, m: Msg<'_>, rnd: &[u8; 32]) -> Got<Signed>;
    /// Accept or reject (a key or signature of the wrong length is rejected by the wrapper
    /// where the API cannot take it).
    fn verify(&self, p: &Params, pk: &[u8], m: Msg<'_>, sig: &[u8]) -> Got<Verified>;
}

/// `out`, one bit off: the last output byte, else the first coefficient, else the scalar.
pub fn spoiled(mut out: Output) -> Output {
    if let Some(b) = out.bytes.last_mut() {
        *b ^= 1;
    } else if let Some(c) = out.polys.iter_mut().flatten().next() {
        *c ^= 1;
    } else {
        out.scalar ^= 1;
    }
    out
}
