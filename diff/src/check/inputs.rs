//! Input generation shared by the families, and the helpers every check's run uses to read
//! its input (returning `None` for an input of the wrong shape, never panicking) and to
//! build its output.

use crate::model::{Case, Output};
use crate::source::{Drawn, Source};
use mldsa::backend::contract::Bounds;
use mldsa::params::{N, Q};
use mldsa::poly::Poly;

/// One element of a non-empty slice, drawn uniformly.
pub fn pick<T: Copy>(src: &mut dyn Source, xs: &[T]) -> Drawn<T> {
    Ok(xs[src.int_in(0, xs.len() as i64 - 1)? as usize])
}

const POSITIONS: [usize; 16] = [
    0, 1, 7, 8, 15, 16, 31, 32, 63, 64, 127, 128, 129, 191, 254, 255,
];
/// all-base, all-lo, all-hi, lo/hi alternating both ways, single hi and single lo at each
/// position class, and a ramp.
pub const EDGE_PATTERNS: usize = 5 + 2 * POSITIONS.len() + 1;

pub fn edge_poly(b: Bounds, pattern: usize) -> Vec<i32> {
    let base = if b.contains(0) { 0 } else { b.lo };
    let mut v = vec![base; N];
    match pattern {
        0 => {}
        1 => v.fill(b.lo),
        2 => v.fill(b.hi),
        3 | 4 => v.iter_mut().enumerate().for_each(|(i, x)| {
            *x = if (i + pattern).is_multiple_of(2) {
                b.lo
            } else {
                b.hi
            }
        }),
        p if p < 5 + POSITIONS.len() => v[POSITIONS[p - 5]] = b.hi,
        p if p < 5 + 2 * POSITIONS.len() => v[POSITIONS[p - 5 - POSITIONS.len()]] = b.lo,
        _ => {
            let span = i64::from(b.hi) - i64::from(b.lo);
            v.iter_mut()
                .enumerate()
                .for_each(|(i, x)| *x = (i64::from(b.lo) + span * i as i64 / 255) as i32);
        }
    }
    v
}

/// A uniformly random polynomial within `b`.
pub fn random_poly(src: &mut dyn Source, b: Bounds) -> Drawn<Vec<i32>> {
    (0..N)
        .map(|_| src.int_in(b.lo.into(), b.hi.into()).map(|x| x as i32))
        .collect()
}

/// A coefficient near a multiple of `step` offset by +-`half` (rounding boundaries),
/// clamped into `b`.
fn near_boundary(src: &mut dyn Source, b: Bounds, step: i64, half: i64) -> Drawn<i32> {
    let k = src.int_in(0, i64::from(Q) / step + 1)?;
    let off = pick(
        src,
        &[
            -half - 1,
            -half,
            -half + 1,
            half - 1,
            half,
            half + 1,
            -1,
            0,
            1,
        ],
    )?;
    Ok((k * step + off).clamp(b.lo.into(), b.hi.into()) as i32)
}

/// A random polynomial whose coefficients hit rounding boundaries half of the time.
pub fn boundary_poly(src: &mut dyn Source, b: Bounds, step: i64, half: i64) -> Drawn<Vec<i32>> {
    (0..N)
        .map(|_| {
            if src.chance(1, 2)? {
                near_boundary(src, b, step, half)
            } else {
                src.int_in(b.lo.into(), b.hi.into()).map(|x| x as i32)
            }
        })
        .collect()
}

/// `len` bytes: all equal to `fill` (an edge case), else random.
pub fn fill_or_random(src: &mut dyn Source, fill: Option<u8>, len: usize) -> Drawn<Vec<u8>> {
    fill.map_or_else(|| src.bytes(len), |x| Ok(vec![x; len]))
}

/// An input of `len` bytes: for edge case `index` all equal to `fills[index]`, else random.
pub fn fixed_or_random(
    src: &mut dyn Source,
    edge: bool,
    index: usize,
    fills: &[u8],
    len: usize,
) -> Drawn<Case> {
    let fill = edge.then(|| fills[index]);
    Ok(bytes_in(fill_or_random(src, fill, len)?))
}

pub fn bytes_in(bytes: Vec<u8>) -> Case {
    Case {
        bytes,
        ..Case::default()
    }
}

/// Input polynomials `0..n`, if the case has exactly those, each with N coefficients.
pub fn polys_in(case: &Case, n: usize) -> Option<Vec<Poly>> {
    if case.polys.len() != n {
        return None;
    }
    let poly = |v: &Vec<i32>| Some(Poly::from_coeffs(v.as_slice().try_into().ok()?));
    case.polys.iter().map(poly).collect()
}

pub fn bytes_array<const M: usize>(bytes: &[u8]) -> Option<[u8; M]> {
    bytes.try_into().ok()
}

pub fn bytes_of_len(bytes: &[u8], len: usize) -> Option<&[u8]> {
    (bytes.len() == len).then_some(bytes)
}

pub fn to_vecs(ps: &[Poly]) -> Vec<Vec<i32>> {
    ps.iter().map(|p| p.coeffs.to_vec()).collect()
}

pub fn polys_out(ps: &[Poly]) -> Output {
    Output {
        polys: to_vecs(ps),
        ..Output::default()
    }
}

pub fn bytes_out(bytes: Vec<u8>) -> Output {
    Output {
        bytes,
        ..Output::default()
    }
}
