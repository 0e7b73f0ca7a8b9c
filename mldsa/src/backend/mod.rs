//! The kernel trait every backend implements, its written contracts, and backend selection.
//!
//! Scheme code (keygen, sign, verify in [`crate::scheme`]) is written once, generic over
//! [`Backend`]. A backend implements *kernels only*: arithmetic on single polynomials,
//! rejection sampling from byte buffers, bit packing and the Keccak-f[1600] permutation.
//! The portable backend is the specification; a SIMD backend must satisfy the same
//! contract, kernel by kernel (see [`contract`]).
//!
//! A SIMD backend value is a zero-sized token that only CPU feature detection can create,
//! so calling its kernels is safe.

#[cfg(target_arch = "x86_64")]
pub mod avx2;
pub mod contract;
#[cfg(feature = "planted-bugs")]
mod planted;
pub mod portable;

/// A planted bug site: with feature `planted-bugs` and `MLDSA_PLANTED_BUG=$kernel`, applies
/// `$fault` when `$cond` holds. Expands to nothing otherwise.
macro_rules! planted_bug {
    ($kernel:literal, $cond:expr, $fault:expr) => {
        #[cfg(feature = "planted-bugs")]
        if crate::backend::planted::active($kernel) && $cond {
            $fault;
        }
    };
}
pub(crate) use planted_bug;

use crate::error::{Error, HintError};
use crate::params::{Eta, Gamma1, Gamma2, N};
use crate::poly::Poly;

#[cfg(target_arch = "x86_64")]
pub use avx2::Avx2;
pub use portable::Portable;

/// Which implementation of the kernels to use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BackendKind {
    /// Plain Rust, every CPU. The specification.
    Portable,
    /// x86_64 AVX2.
    Avx2,
    /// aarch64 Neon.
    Neon,
}

impl BackendKind {
    /// Every kind, in order of preference (slowest first).
    pub const ALL: [BackendKind; 3] = [BackendKind::Portable, BackendKind::Avx2, BackendKind::Neon];

    /// The lower-case name used by `MLDSA_BACKEND` and the tools.
    pub const fn name(self) -> &'static str {
        match self {
            BackendKind::Portable => "portable",
            BackendKind::Avx2 => "avx2",
            BackendKind::Neon => "neon",
        }
    }

    /// Parses `portable`, `avx2` or `neon`.
    pub fn parse(s: &str) -> Result<Self, Error> {
        BackendKind::ALL
            .into_iter()
            .find(|k| k.name().eq_ignore_ascii_case(s.trim()))
            .ok_or(Error::UnknownBackend)
    }

    /// Whether this backend is compiled in and the CPU supports it.
    pub fn is_available(self) -> bool {
        AnyBackend::new(self).is_ok()
    }

    /// Every backend available on this machine, portable first.
    pub fn available() -> impl Iterator<Item = BackendKind> {
        BackendKind::ALL.into_iter().filter(|k| k.is_available())
    }

    /// The fastest available backend.
    pub fn best() -> BackendKind {
        BackendKind::available()
            .last()
            .unwrap_or(BackendKind::Portable)
    }

    /// The backend named by the environment variable `MLDSA_BACKEND`, if set; an error if
    /// it names an unknown or unavailable backend (never a silent fall-back).
    #[cfg(feature = "std")]
    pub fn from_env() -> Result<Option<BackendKind>, Error> {
        BackendKind::from_setting(std::env::var("MLDSA_BACKEND").ok().as_deref())
    }

    /// What a value of `MLDSA_BACKEND` selects: `None` (unset or empty) for the default, a
    /// backend this machine has, or an error for an unknown or unavailable one.
    pub fn from_setting(value: Option<&str>) -> Result<Option<BackendKind>, Error> {
        match value {
            Some(v) if !v.trim().is_empty() => {
                let k = BackendKind::parse(v)?;
                AnyBackend::new(k)?;
                Ok(Some(k))
            }
            _ => Ok(None),
        }
    }

    /// The backend the high-level API uses: `MLDSA_BACKEND` if set, else the best available.
    ///
    /// # Panics
    /// If `MLDSA_BACKEND` names an unknown or unavailable backend: the process asked for
    /// something it cannot have, and continuing on another backend would be a silent lie.
    pub fn default_backend() -> BackendKind {
        #[cfg(feature = "std")]
        {
            static CHOICE: std::sync::OnceLock<BackendKind> = std::sync::OnceLock::new();
            *CHOICE.get_or_init(|| match BackendKind::from_env() {
                Ok(Some(k)) => k,
                Ok(None) => BackendKind::best(),
                Err(e) => panic!("MLDSA_BACKEND: {e}"),
            })
        }
        #[cfg(not(feature = "std"))]
        {
            BackendKind::best()
        }
    }
}

impl core::fmt::Display for BackendKind {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

/// A backend token obtained after feature detection. Match on it (or use
/// [`with_backend!`](crate::with_backend)) to run monomorphised code.
#[derive(Clone, Copy, Debug)]
pub enum AnyBackend {
    /// The portable backend.
    Portable(Portable),
    /// The AVX2 backend (x86_64 CPUs with AVX2).
    #[cfg(target_arch = "x86_64")]
    Avx2(Avx2),
}

impl AnyBackend {
    /// Detects the CPU features `kind` needs; an error if they (or the code) are missing.
    pub fn new(kind: BackendKind) -> Result<Self, Error> {
        match kind {
            BackendKind::Portable => Ok(AnyBackend::Portable(Portable)),
            #[cfg(target_arch = "x86_64")]
            BackendKind::Avx2 => Avx2::detect()
                .map(AnyBackend::Avx2)
                .ok_or(Error::BackendUnavailable(kind)),
            other => Err(Error::BackendUnavailable(other)),
        }
    }

    /// Which backend this is.
    pub fn kind(self) -> BackendKind {
        match self {
            AnyBackend::Portable(_) => BackendKind::Portable,
            #[cfg(target_arch = "x86_64")]
            AnyBackend::Avx2(_) => BackendKind::Avx2,
        }
    }
}

/// Runs `$body` with `$b` bound to the concrete backend token inside `$any`.
#[macro_export]
macro_rules! with_backend {
    ($any:expr, |$b:ident| $body:expr) => {
        match $any {
            $crate::backend::AnyBackend::Portable($b) => $body,
            #[cfg(target_arch = "x86_64")]
            $crate::backend::AnyBackend::Avx2($b) => $body,
        }
    };
}

/// The kernels. Each method's contract (input bounds, output bounds, how results compare
/// between backends) is written in [`contract`] and checked with `debug_assert!` by
/// [`Checked`], the only way scheme code calls a kernel.
///
/// Every method's default body is the portable kernel (`portable::kernels`): the portable
/// backend is exactly the defaults, and a SIMD backend overrides only what it accelerates.
pub trait Backend: Copy + core::fmt::Debug + Send + Sync + 'static {
    /// Which backend this is.
    const KIND: BackendKind;

    /// Converts an NTT-domain polynomial from the canonical (FIPS 204 bit-reversed)
    /// coefficient order to this backend's own NTT order. A backend whose `ntt` output is in
    /// another order owns that permutation: the samplers apply this to polynomials drawn
    /// directly in the NTT domain (the matrix A), and tests use it to compare in canonical
    /// order. The default (canonical order) does nothing.
    fn ntt_order_from_canonical(self, a: &mut Poly) {
        let _ = a;
    }
    /// Inverse of [`Backend::ntt_order_from_canonical`].
    fn ntt_order_to_canonical(self, a: &mut Poly) {
        let _ = a;
    }

    /// Whether one 4-way Keccak call costs less than two single ones, so samplers should
    /// pad a last group of two or three polynomials into a 4-way call (a lone last one
    /// takes the single sponge: one 4-way call costs more than one single call).
    const PREFERS_X4: bool = false;

    /// Whether [`Backend::keccak_f1600_x4x2`] costs less than two 4-way permutations, so
    /// samplers should take eight polynomials at a time (padding a last group of five to
    /// seven into an 8-way call).
    const PREFERS_X8: bool = false;

    /// Runs a whole operation (keygen, sign, verify) in a context compiled for this
    /// backend's CPU features, so the scheme code around the kernels benefits too. The
    /// portable backend just calls `f`.
    #[inline]
    fn run<R>(self, f: impl FnOnce() -> R) -> R {
        f()
    }

    /// Keccak-f[1600] on one state (25 lanes, FIPS 202 lane order).
    fn keccak_f1600(self, state: &mut [u64; 25]) {
        portable::kernels::keccak_f1600(state)
    }

    /// Keccak-f[1600] on four independent states, interleaved: lane `i` of instance `j` is
    /// `states[4 * i + j]`.
    fn keccak_f1600_x4(self, states: &mut [u64; 100]) {
        portable::keccak_x4(self, states);
    }

    /// Two independent 4-way permutations ([`Backend::keccak_f1600_x4`] on each): a backend
    /// may interleave them.
    fn keccak_f1600_x4x2(self, s0: &mut [u64; 100], s1: &mut [u64; 100]) {
        self.keccak_f1600_x4(s0);
        self.keccak_f1600_x4(s1);
    }

    /// Forward NTT (FIPS 204 Alg. 41) in place; output in bit-reversed order as in FIPS 204.
    /// Contract: [`contract::NTT`].
    fn ntt(self, a: &mut Poly) {
        portable::kernels::ntt(a)
    }

    /// Inverse NTT (FIPS 204 Alg. 42) times the Montgomery factor 2^32.
    /// Contract: [`contract::INVNTT_TOMONT`].
    fn invntt_tomont(self, a: &mut Poly) {
        portable::kernels::invntt_tomont(a)
    }

    /// Coefficient-wise Montgomery product c = a * b * 2^-32 (FIPS 204 Alg. 45, in
    /// Montgomery form). Contract: [`contract::POINTWISE`].
    fn pointwise_montgomery(self, c: &mut Poly, a: &Poly, b: &Poly) {
        portable::kernels::pointwise_montgomery(c, a, b)
    }

    /// c = sum_i a\[i\] * b\[i\] * 2^-32 over L = `a.len()` terms (L in 1..=7): one row of
    /// A times a vector (FIPS 204 Alg. 48). Contract: [`contract::POINTWISE_ACC`].
    fn pointwise_acc_montgomery(self, c: &mut Poly, a: &[Poly], b: &[Poly]) {
        portable::kernels::pointwise_acc_montgomery(c, a, b)
    }

    /// Reduces each coefficient to a representative of absolute value at most 6283009.
    /// Contract: [`contract::REDUCE`].
    fn reduce(self, a: &mut Poly) {
        portable::kernels::reduce(a)
    }

    /// Adds q to negative coefficients. Contract: [`contract::CADDQ`].
    fn caddq(self, a: &mut Poly) {
        portable::kernels::caddq(a)
    }

    /// a = a + b (no reduction). Contract: [`contract::ADD`].
    fn add(self, a: &mut Poly, b: &Poly) {
        portable::kernels::add(a, b)
    }

    /// a = a - b (no reduction). Contract: [`contract::SUB`].
    fn sub(self, a: &mut Poly, b: &Poly) {
        portable::kernels::sub(a, b)
    }

    /// a = a * 2^d. Contract: [`contract::SHIFTL`].
    fn shiftl(self, a: &mut Poly) {
        portable::kernels::shiftl(a)
    }

    /// Power2Round (FIPS 204 Alg. 35): a = t1 * 2^d + t0. Contract: [`contract::POWER2ROUND`].
    fn power2round(self, t1: &mut Poly, t0: &mut Poly, a: &Poly) {
        portable::kernels::power2round(t1, t0, a)
    }

    /// Decompose (FIPS 204 Alg. 36): a = a1 * 2 gamma2 + a0 (mod q).
    /// Contract: [`contract::DECOMPOSE`].
    fn decompose(self, g: Gamma2, a1: &mut Poly, a0: &mut Poly, a: &Poly) {
        portable::kernels::decompose(g, a1, a0, a)
    }

    /// Hint bits: h_i = 1 iff HighBits(a1_i * 2 gamma2 + a0_i) != a1_i; returns the number
    /// of ones. Equivalent to FIPS 204 Alg. 39 MakeHint(-ct0, w - cs2 + ct0) with
    /// a0 = w0 - cs2 + ct0, a1 = w1. Contract: [`contract::MAKE_HINT`].
    fn make_hint(self, g: Gamma2, h: &mut Poly, a0: &Poly, a1: &Poly) -> usize {
        portable::kernels::make_hint(g, h, a0, a1)
    }

    /// UseHint (FIPS 204 Alg. 40). Contract: [`contract::USE_HINT`].
    fn use_hint(self, g: Gamma2, out: &mut Poly, a: &Poly, h: &Poly) {
        portable::kernels::use_hint(g, out, a, h)
    }

    /// True iff some |a_i| >= bound (infinity-norm check). Constant time in the
    /// coefficients. Contract: [`contract::CHKNORM`].
    fn chknorm(self, a: &Poly, bound: i32) -> bool {
        portable::kernels::chknorm(a, bound)
    }

    /// RejNTTPoly inner loop (FIPS 204 Alg. 30, 14): fills `out` from 3-byte groups of
    /// `buf` (whole groups only), returns how many entries were written. Entries of `out`
    /// past the returned count are unspecified (a SIMD backend may store whole vectors).
    /// Contract: [`contract::REJ_UNIFORM`].
    fn rej_uniform(self, out: &mut [i32], buf: &[u8]) -> usize {
        portable::kernels::rej_uniform(out, buf)
    }

    /// RejBoundedPoly inner loop (FIPS 204 Alg. 31, 15): fills `out` from the half-bytes of
    /// `buf`, returns how many entries were written; entries past that count are
    /// unspecified. Contract: [`contract::REJ_ETA`].
    fn rej_eta(self, eta: Eta, out: &mut [i32], buf: &[u8]) -> usize {
        portable::kernels::rej_eta(eta, out, buf)
    }

    /// SimpleBitPack(t1, 2^10 - 1) (FIPS 204 Alg. 16). Contract: [`contract::PACK_T1`].
    fn pack_t1(self, out: &mut [u8], a: &Poly) {
        portable::kernels::pack_t1(out, a)
    }
    /// SimpleBitUnpack of t1 (Alg. 18). Contract: [`contract::UNPACK_T1`].
    fn unpack_t1(self, a: &mut Poly, buf: &[u8]) {
        portable::kernels::unpack_t1(a, buf)
    }
    /// BitPack(t0, 2^12 - 1, 2^12) (Alg. 17). Contract: [`contract::PACK_T0`].
    fn pack_t0(self, out: &mut [u8], a: &Poly) {
        portable::kernels::pack_t0(out, a)
    }
    /// BitUnpack of t0 (Alg. 19). Contract: [`contract::UNPACK_T0`].
    fn unpack_t0(self, a: &mut Poly, buf: &[u8]) {
        portable::kernels::unpack_t0(a, buf)
    }
    /// BitPack(s, eta, eta) (Alg. 17). Contract: [`contract::PACK_ETA`].
    fn pack_eta(self, eta: Eta, out: &mut [u8], a: &Poly) {
        portable::kernels::pack_eta(eta, out, a)
    }
    /// BitUnpack of s1/s2 (Alg. 19); returns false if a coefficient is outside [-eta, eta]
    /// (the output then holds the out-of-range values). Constant time.
    /// Contract: [`contract::UNPACK_ETA`].
    fn unpack_eta(self, eta: Eta, a: &mut Poly, buf: &[u8]) -> bool {
        portable::kernels::unpack_eta(eta, a, buf)
    }
    /// BitPack(z, gamma1 - 1, gamma1) (Alg. 17). Contract: [`contract::PACK_Z`].
    fn pack_z(self, g: Gamma1, out: &mut [u8], a: &Poly) {
        portable::kernels::pack_z(g, out, a)
    }
    /// BitUnpack of z and of ExpandMask's output (Alg. 19, 34).
    /// Contract: [`contract::UNPACK_Z`].
    fn unpack_z(self, g: Gamma1, a: &mut Poly, buf: &[u8]) {
        portable::kernels::unpack_z(g, a, buf)
    }
    /// SimpleBitPack(w1, m - 1) (Alg. 16, 28). Contract: [`contract::PACK_W1`].
    fn pack_w1(self, g: Gamma2, out: &mut [u8], a: &Poly) {
        portable::kernels::pack_w1(g, out, a)
    }

    /// HintBitPack (FIPS 204 Alg. 20) of `h.len()` = k polynomials with coefficients in
    /// {0, 1} and at most omega ones in total. `out.len()` = omega + k.
    fn pack_hint(self, out: &mut [u8], h: &[Poly], omega: usize) {
        portable::pack_hint(out, h, omega)
    }

    /// HintBitUnpack (FIPS 204 Alg. 21) with every rejection rule of the standard.
    /// `buf.len()` = omega + k; `h.len()` = k.
    fn unpack_hint(self, h: &mut [Poly], buf: &[u8], omega: usize) -> Result<(), HintError> {
        portable::unpack_hint(h, buf, omega)
    }
}

/// The way scheme code calls kernels: checks each kernel's contract on its inputs and
/// outputs with `debug_assert!`, then calls the backend.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Checked<B>(pub(crate) B);

macro_rules! check {
    ($c:expr, $name:literal, $($p:expr),+) => {
        $( debug_assert!($c.holds(&$p.coeffs), "kernel {} contract violated: {:?} not within {:?}", $name, contract::first_violation($c, &$p.coeffs), $c); )+
    };
}

impl<B: Backend> Checked<B> {
    pub(crate) fn ntt(self, a: &mut Poly) {
        check!(contract::NTT.input[0], "ntt", a);
        self.0.ntt(a);
        check!(contract::NTT.output[0], "ntt", a);
    }
    pub(crate) fn invntt_tomont(self, a: &mut Poly) {
        check!(contract::INVNTT_TOMONT.input[0], "invntt_tomont", a);
        self.0.invntt_tomont(a);
        check!(contract::INVNTT_TOMONT.output[0], "invntt_tomont", a);
    }
    pub(crate) fn pointwise_montgomery(self, c: &mut Poly, a: &Poly, b: &Poly) {
        check!(contract::POINTWISE.input[0], "pointwise_montgomery", a, b);
        self.0.pointwise_montgomery(c, a, b);
        check!(contract::POINTWISE.output[0], "pointwise_montgomery", c);
    }
    pub(crate) fn pointwise_acc_montgomery(self, c: &mut Poly, a: &[Poly], b: &[Poly]) {
        debug_assert!(
            a.len() == b.len() && (1..=7).contains(&a.len()),
            "kernel contract violated"
        );
        for (x, y) in a.iter().zip(b) {
            check!(
                contract::POINTWISE_ACC.input[0],
                "pointwise_acc_montgomery",
                x,
                y
            );
        }
        self.0.pointwise_acc_montgomery(c, a, b);
        check!(
            contract::POINTWISE_ACC.output[0],
            "pointwise_acc_montgomery",
            c
        );
    }
    pub(crate) fn reduce(self, a: &mut Poly) {
        check!(contract::REDUCE.input[0], "reduce", a);
        self.0.reduce(a);
        check!(contract::REDUCE.output[0], "reduce", a);
    }
    pub(crate) fn caddq(self, a: &mut Poly) {
        check!(contract::CADDQ.input[0], "caddq", a);
        self.0.caddq(a);
        check!(contract::CADDQ.output[0], "caddq", a);
    }
    pub(crate) fn add(self, a: &mut Poly, b: &Poly) {
        check!(contract::ADD.input[0], "add", a, b);
        self.0.add(a, b);
    }
    pub(crate) fn sub(self, a: &mut Poly, b: &Poly) {
        check!(contract::SUB.input[0], "sub", a, b);
        self.0.sub(a, b);
    }
    pub(crate) fn shiftl(self, a: &mut Poly) {
        check!(contract::SHIFTL.input[0], "shiftl", a);
        self.0.shiftl(a);
        check!(contract::SHIFTL.output[0], "shiftl", a);
    }
    pub(crate) fn power2round(self, t1: &mut Poly, t0: &mut Poly, a: &Poly) {
        check!(contract::POWER2ROUND.input[0], "power2round", a);
        self.0.power2round(t1, t0, a);
        check!(contract::POWER2ROUND.output[0], "power2round", t1);
        check!(contract::POWER2ROUND.output[1], "power2round", t0);
    }
    pub(crate) fn decompose(self, g: Gamma2, a1: &mut Poly, a0: &mut Poly, a: &Poly) {
        let c = contract::decompose(g);
        check!(c.input[0], "decompose", a);
        self.0.decompose(g, a1, a0, a);
        check!(c.output[0], "decompose", a1);
        check!(c.output[1], "decompose", a0);
    }
    pub(crate) fn make_hint(self, g: Gamma2, h: &mut Poly, a0: &Poly, a1: &Poly) -> usize {
        let c = contract::make_hint(g);
        check!(c.input[0], "make_hint", a0);
        check!(c.input[1], "make_hint", a1);
        let n = self.0.make_hint(g, h, a0, a1);
        check!(c.output[0], "make_hint", h);
        debug_assert_eq!(
            n,
            h.coeffs.iter().filter(|&&x| x != 0).count(),
            "kernel contract violated"
        );
        n
    }
    pub(crate) fn use_hint(self, g: Gamma2, out: &mut Poly, a: &Poly, h: &Poly) {
        let c = contract::use_hint(g);
        check!(c.input[0], "use_hint", a);
        check!(c.input[1], "use_hint", h);
        self.0.use_hint(g, out, a, h);
        check!(c.output[0], "use_hint", out);
    }
    pub(crate) fn chknorm(self, a: &Poly, bound: i32) -> bool {
        check!(contract::CHKNORM.input[0], "chknorm", a);
        debug_assert!(
            (0..=(crate::params::Q - 1) / 8).contains(&bound),
            "kernel contract violated"
        );
        self.0.chknorm(a, bound)
    }
    pub(crate) fn rej_uniform(self, out: &mut [i32], buf: &[u8]) -> usize {
        debug_assert!(
            out.len() <= N && buf.len() % 3 == 0,
            "kernel contract violated"
        );
        let n = self.0.rej_uniform(out, buf);
        debug_assert!(
            n <= out.len() && contract::REJ_UNIFORM.output[0].holds(&out[..n]),
            "kernel contract violated"
        );
        n
    }
    pub(crate) fn rej_eta(self, eta: Eta, out: &mut [i32], buf: &[u8]) -> usize {
        debug_assert!(out.len() <= N, "kernel contract violated");
        let n = self.0.rej_eta(eta, out, buf);
        debug_assert!(
            n <= out.len() && contract::rej_eta(eta).output[0].holds(&out[..n]),
            "kernel contract violated"
        );
        n
    }
    pub(crate) fn pack_t1(self, out: &mut [u8], a: &Poly) {
        check!(contract::PACK_T1.input[0], "pack_t1", a);
        self.0.pack_t1(out, a);
    }
    pub(crate) fn unpack_t1(self, a: &mut Poly, buf: &[u8]) {
        self.0.unpack_t1(a, buf);
        check!(contract::UNPACK_T1.output[0], "unpack_t1", a);
    }
    pub(crate) fn pack_t0(self, out: &mut [u8], a: &Poly) {
        check!(contract::PACK_T0.input[0], "pack_t0", a);
        self.0.pack_t0(out, a);
    }
    pub(crate) fn unpack_t0(self, a: &mut Poly, buf: &[u8]) {
        self.0.unpack_t0(a, buf);
        check!(contract::UNPACK_T0.output[0], "unpack_t0", a);
    }
    pub(crate) fn pack_eta(self, eta: Eta, out: &mut [u8], a: &Poly) {
        check!(contract::pack_eta(eta).input[0], "pack_eta", a);
        self.0.pack_eta(eta, out, a);
    }
    pub(crate) fn unpack_eta(self, eta: Eta, a: &mut Poly, buf: &[u8]) -> bool {
        let ok = self.0.unpack_eta(eta, a, buf);
        debug_assert_eq!(
            ok,
            contract::pack_eta(eta).input[0].holds(&a.coeffs),
            "kernel contract violated"
        );
        ok
    }
    pub(crate) fn pack_z(self, g: Gamma1, out: &mut [u8], a: &Poly) {
        check!(contract::pack_z(g).input[0], "pack_z", a);
        self.0.pack_z(g, out, a);
    }
    pub(crate) fn unpack_z(self, g: Gamma1, a: &mut Poly, buf: &[u8]) {
        self.0.unpack_z(g, a, buf);
        check!(contract::pack_z(g).input[0], "unpack_z", a);
    }
    pub(crate) fn pack_w1(self, g: Gamma2, out: &mut [u8], a: &Poly) {
        check!(contract::pack_w1(g).input[0], "pack_w1", a);
        self.0.pack_w1(g, out, a);
    }
    pub(crate) fn pack_hint(self, out: &mut [u8], h: &[Poly], omega: usize) {
        debug_assert!(
            h.iter().all(|p| contract::HINT_BITS.holds(&p.coeffs)),
            "kernel contract violated"
        );
        debug_assert!(
            h.iter()
                .map(|p| p.coeffs.iter().filter(|&&x| x != 0).count())
                .sum::<usize>()
                <= omega,
            "kernel contract violated"
        );
        self.0.pack_hint(out, h, omega);
    }
    pub(crate) fn unpack_hint(
        self,
        h: &mut [Poly],
        buf: &[u8],
        omega: usize,
    ) -> Result<(), HintError> {
        self.0.unpack_hint(h, buf, omega)
    }
    pub(crate) fn keccak_f1600(self, s: &mut [u64; 25]) {
        self.0.keccak_f1600(s);
    }
    pub(crate) fn keccak_f1600_x4(self, s: &mut [u64; 100]) {
        self.0.keccak_f1600_x4(s);
    }
    pub(crate) fn keccak_f1600_x4x2(self, s0: &mut [u64; 100], s1: &mut [u64; 100]) {
        self.0.keccak_f1600_x4x2(s0, s1);
    }
}
