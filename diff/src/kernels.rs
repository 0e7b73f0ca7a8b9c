//! An object-safe view of an `mldsa` backend: every kernel a check calls, and the samplers
//! built on them, behind `&dyn Kernels`. Any [`Backend`] is one (a blanket impl), so a check
//! is written once as a plain function and runs on every backend — and on test-only
//! backends such as a deliberately wrong one — without a generic parameter.

use mldsa::HintError;
use mldsa::Params;
use mldsa::backend::{Backend, BackendKind};
use mldsa::params::{Eta, Gamma1, Gamma2};
use mldsa::poly::Poly;
use mldsa::sample::Matrix;

/// The kernels and samplers a check can call, on one backend.
#[allow(missing_docs)]
pub trait Kernels {
    /// The backend these kernels belong to (end-to-end checks run the whole scheme on it).
    fn kind(&self) -> BackendKind;
    fn ntt_order_to_canonical(&self, a: &mut Poly);
    fn ntt_order_from_canonical(&self, a: &mut Poly);
    fn ntt(&self, a: &mut Poly);
    fn invntt_tomont(&self, a: &mut Poly);
    fn pointwise_montgomery(&self, c: &mut Poly, a: &Poly, b: &Poly);
    fn pointwise_acc_montgomery(&self, c: &mut Poly, a: &[Poly], b: &[Poly]);
    fn reduce(&self, a: &mut Poly);
    fn caddq(&self, a: &mut Poly);
    fn add(&self, a: &mut Poly, b: &Poly);
    fn sub(&self, a: &mut Poly, b: &Poly);
    fn shiftl(&self, a: &mut Poly);
    fn power2round(&self, t1: &mut Poly, t0: &mut Poly, a: &Poly);
    fn decompose(&self, g: Gamma2, a1: &mut Poly, a0: &mut Poly, a: &Poly);
    fn make_hint(&self, g: Gamma2, h: &mut Poly, a0: &Poly, a1: &Poly) -> usize;
    fn use_hint(&self, g: Gamma2, out: &mut Poly, a: &Poly, h: &Poly);
    fn chknorm(&self, a: &Poly, bound: i32) -> bool;
    fn rej_uniform(&self, out: &mut [i32], buf: &[u8]) -> usize;
    fn rej_eta(&self, eta: Eta, out: &mut [i32], buf: &[u8]) -> usize;
    fn pack_t1(&self, out: &mut [u8], a: &Poly);
    fn unpack_t1(&self, a: &mut Poly, buf: &[u8]);
    fn pack_t0(&self, out: &mut [u8], a: &Poly);
    fn unpack_t0(&self, a: &mut Poly, buf: &[u8]);
    fn pack_eta(&self, eta: Eta, out: &mut [u8], a: &Poly);
    fn unpack_eta(&self, eta: Eta, a: &mut Poly, buf: &[u8]) -> bool;
    fn pack_z(&self, g: Gamma1, out: &mut [u8], a: &Poly);
    fn unpack_z(&self, g: Gamma1, a: &mut Poly, buf: &[u8]);
    fn pack_w1(&self, g: Gamma2, out: &mut [u8], a: &Poly);
    fn pack_hint(&self, out: &mut [u8], h: &[Poly], omega: usize);
    fn unpack_hint(&self, h: &mut [Poly], buf: &[u8], omega: usize) -> Result<(), HintError>;
    fn keccak_f1600(&self, s: &mut [u64; 25]);
    fn keccak_f1600_x4(&self, s: &mut [u64; 100]);
    fn keccak_f1600_x4x2(&self, s0: &mut [u64; 100], s1: &mut [u64; 100]);
    /// RejNTTPoly (FIPS 204 Alg. 30) of rho || nonce.
    fn poly_uniform(&self, seed: &[u8; 34], out: &mut Poly);
    /// RejBoundedPoly (Alg. 31) of rho' || nonce.
    fn poly_uniform_eta(&self, eta: Eta, seed: &[u8; 66], out: &mut Poly);
    /// One polynomial of ExpandMask (Alg. 34) of rho'' || nonce.
    fn poly_uniform_gamma1(&self, g: Gamma1, seed: &[u8; 66], out: &mut Poly);
    /// SampleInBall (Alg. 29).
    fn sample_in_ball(&self, ctilde: &[u8], tau: usize) -> Poly;
    /// ExpandA (Alg. 32), in the backend's NTT order.
    fn expand_a(&self, p: &Params, rho: &[u8; 32], mat: &mut Matrix);
}

macro_rules! forward {
    ($($name:ident($($arg:ident: $ty:ty),*) $(-> $ret:ty)?;)*) => {
        $(fn $name(&self, $($arg: $ty),*) $(-> $ret)? { Backend::$name(*self, $($arg),*) })*
    };
}

impl<B: Backend> Kernels for B {
    fn kind(&self) -> BackendKind {
        B::KIND
    }
    forward! {
        ntt_order_to_canonical(a: &mut Poly);
        ntt_order_from_canonical(a: &mut Poly);
        ntt(a: &mut Poly);
        invntt_tomont(a: &mut Poly);
        pointwise_montgomery(c: &mut Poly, a: &Poly, b: &Poly);
        pointwise_acc_montgomery(c: &mut Poly, a: &[Poly], b: &[Poly]);
        reduce(a: &mut Poly);
        caddq(a: &mut Poly);
        add(a: &mut Poly, b: &Poly);
        sub(a: &mut Poly, b: &Poly);
        shiftl(a: &mut Poly);
        power2round(t1: &mut Poly, t0: &mut Poly, a: &Poly);
        decompose(g: Gamma2, a1: &mut Poly, a0: &mut Poly, a: &Poly);
        make_hint(g: Gamma2, h: &mut Poly, a0: &Poly, a1: &Poly) -> usize;
        use_hint(g: Gamma2, out: &mut Poly, a: &Poly, h: &Poly);
        chknorm(a: &Poly, bound: i32) -> bool;
        rej_uniform(out: &mut [i32], buf: &[u8]) -> usize;
        rej_eta(eta: Eta, out: &mut [i32], buf: &[u8]) -> usize;
        pack_t1(out: &mut [u8], a: &Poly);
        unpack_t1(a: &mut Poly, buf: &[u8]);
        pack_t0(out: &mut [u8], a: &Poly);
        unpack_t0(a: &mut Poly, buf: &[u8]);
        pack_eta(eta: Eta, out: &mut [u8], a: &Poly);
        unpack_eta(eta: Eta, a: &mut Poly, buf: &[u8]) -> bool;
        pack_z(g: Gamma1, out: &mut [u8], a: &Poly);
        unpack_z(g: Gamma1, a: &mut Poly, buf: &[u8]);
        pack_w1(g: Gamma2, out: &mut [u8], a: &Poly);
        pack_hint(out: &mut [u8], h: &[Poly], omega: usize);
        unpack_hint(h: &mut [Poly], buf: &[u8], omega: usize) -> Result<(), HintError>;
        keccak_f1600(s: &mut [u64; 25]);
        keccak_f1600_x4(s: &mut [u64; 100]);
        keccak_f1600_x4x2(s0: &mut [u64; 100], s1: &mut [u64; 100]);
    }
    fn poly_uniform(&self, seed: &[u8; 34], out: &mut Poly) {
        mldsa::sample::poly_uniform(*self, seed, out)
    }
    fn poly_uniform_eta(&self, eta: Eta, seed: &[u8; 66], out: &mut Poly) {
        mldsa::sample::poly_uniform_eta(*self, eta, seed, out)
    }
    fn poly_uniform_gamma1(&self, g: Gamma1, seed: &[u8; 66], out: &mut Poly) {
        mldsa::sample::poly_uniform_gamma1(*self, g, seed, out)
    }
    fn sample_in_ball(&self, ctilde: &[u8], tau: usize) -> Poly {
        mldsa::sample::sample_in_ball(*self, ctilde, tau)
    }
    fn expand_a(&self, p: &Params, rho: &[u8; 32], mat: &mut Matrix) {
        mldsa::sample::expand_a(*self, p, rho, mat)
    }
}
