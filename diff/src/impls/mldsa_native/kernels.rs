//! mldsa-native's native-backend kernels (x86_64 AVX2, AArch64), through its backend
//! interface (`src/native/api.h`) and the shim of ours that exports it. How its contracts
//! differ from the checks' is stated once, in [`super::CONTRACT_DIFFERENCES`]; each
//! difference is applied here and nowhere else. Every input is checked against the kernel's
//! own `api.h` contract before the call (an input outside it is not offered, so no garbage is
//! blamed on mldsa-native), and a kernel answering -1 (fallback) does not answer the input.

use super::NativeKernels;
use super::ffi::shim::{self, Rej, Unary};
use crate::model::canonical;
use crate::oracle::{Got, Miss, offered};
use mldsa::backend::contract::{self, Bounds};
use mldsa::params::{Eta, Gamma1, Gamma2, Q};
use mldsa::poly::Poly;

/// Done (0) or not offered (-1, fallback).
fn done(r: i32) -> Got<()> {
    offered((r == 0).then_some(()))
}

/// |a| < q: the NTT, inverse NTT and caddq inputs of `api.h`.
const ABS_Q: Bounds = Bounds::centered(Q - 1);
/// |a| < MLD_NTT_BOUND = 9 * (5q + 3) / 4: the pointwise products' inputs.
const NTT_BOUND: Bounds = Bounds::centered(94_279_697);
/// [0, q): decompose and use_hint.
const CANONICAL: Bounds = Bounds::new(0, Q - 1);
/// chknorm's input: [-6283009, 6283009).
const CHKNORM_IN: Bounds = Bounds::new(-6_283_009, 6_283_008);

/// Whether every coefficient of `polys` lies in `b` (the kernel's contract).
fn within(polys: &[Poly], b: Bounds) -> Got<()> {
    offered(polys.iter().all(|p| b.holds(&p.coeffs)).then_some(()))
}

/// ntt, invntt_tomont and caddq: `op` on a copy of `a`, within |a| < q.
fn unary(mut a: Poly, op: impl FnOnce(&mut Poly) -> Got<()>) -> Got<Poly> {
    within(&[a], ABS_Q)?;
    op(&mut a)?;
    Ok(a)
}

/// NTT, out in canonical (bit-reversed) order through mldsa-native's own permutation where
/// its backend keeps another.
pub(super) fn ntt(k: NativeKernels, a: Poly) -> Got<Poly> {
    unary(a, |a| {
        done(shim::unary(k, Unary::Ntt, a))?;
        shim::unary(k, Unary::Permute, a);
        Ok(())
    })
}

pub(super) fn invntt_tomont(k: NativeKernels, a: Poly) -> Got<Poly> {
    unary(a, |a| {
        shim::unary(k, Unary::Permute, a);
        done(shim::unary(k, Unary::Intt, a))
    })
}

pub(super) fn caddq(k: NativeKernels, a: Poly) -> Got<Poly> {
    unary(a, |a| done(shim::unary(k, Unary::Caddq, a)))
}

pub(super) fn pointwise(k: NativeKernels, a: &Poly, b: &Poly) -> Got<Poly> {
    within(&[*a, *b], NTT_BOUND)?;
    let mut a = *a;
    done(shim::pointwise(k, &mut a, b))?;
    Ok(a)
}

/// Its contract takes u in [0, q): u mod q is congruent, and outputs compare mod q.
pub(super) fn pointwise_acc(k: NativeKernels, u: &[Poly], v: &[Poly]) -> Got<Poly> {
    within(v, NTT_BOUND)?;
    let u: Vec<Poly> = u
        .iter()
        .map(|x| Poly::from_coeffs(x.coeffs.map(canonical)))
        .collect();
    let mut w = Poly::ZERO;
    done(shim::pointwise_acc(k, &mut w, &u, v).ok_or(Miss::NotOffered)?)?;
    Ok(w)
}

pub(super) fn decompose(k: NativeKernels, g: Gamma2, a: &Poly) -> Got<(Poly, Poly)> {
    within(&[*a], CANONICAL)?;
    let (mut a1, mut a0) = (Poly::ZERO, *a);
    done(shim::decompose(
        k,
        g == Gamma2::QMinus1Over32,
        &mut a1,
        &mut a0,
    ))?;
    Ok((a1, a0))
}

pub(super) fn use_hint(k: NativeKernels, g: Gamma2, a: &Poly, h: &Poly) -> Got<Poly> {
    within(&[*a], CANONICAL)?;
    within(&[*h], contract::HINT_BITS)?;
    let mut a = *a;
    done(shim::use_hint(k, g == Gamma2::QMinus1Over32, &mut a, h))?;
    Ok(a)
}

/// chknorm: a within [-6283009, 6283009) and, as `api.h` requires, 0 <= bound <= (q-1)/8.
pub(super) fn chknorm(k: NativeKernels, a: &Poly, bound: i32) -> Got<bool> {
    within(&[*a], CHKNORM_IN)?;
    if !(0..=(Q - 1) / 8).contains(&bound) {
        return Err(Miss::NotOffered);
    }
    match shim::chknorm(k, a, bound) {
        r if r >= 0 => Ok(r != 0),
        _ => Err(Miss::NotOffered),
    }
}

/// rej_uniform (`eta` None) or rej_eta: only whole buffers are sampled (-1 for others).
pub(super) fn rej(k: NativeKernels, eta: Option<Eta>, buf: &[u8]) -> Got<Vec<i32>> {
    let which = match eta {
        Some(Eta::Two) => Rej::Eta2,
        Some(Eta::Four) => Rej::Eta4,
        None => Rej::Uniform,
    };
    let mut out = [0i32; 256];
    let n = usize::try_from(shim::rej(k, which, &mut out, buf)).map_err(|_| Miss::NotOffered)?;
    Ok(out[..n.min(256)].to_vec())
}

pub(super) fn unpack_z(k: NativeKernels, g: Gamma1, buf: &[u8]) -> Got<Poly> {
    if buf.len() != g.poly_z_bytes() {
        return Err(Miss::NotOffered);
    }
    let mut a = Poly::ZERO;
    done(shim::unpack_z(k, g == Gamma1::Pow19, &mut a, buf))?;
    Ok(a)
}
