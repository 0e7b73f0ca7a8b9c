//! Sampling (FIPS 204 Section 7.3), public so the differential harness can compare each
//! sampler with other implementations: ExpandA, ExpandS, ExpandMask and SampleInBall, built on
//! the SHAKE sponges and the backend's rejection and unpacking kernels. Four polynomials are
//! sampled at once through the 4-way sponge wherever four are needed.

use crate::backend::{Backend, Checked};
use crate::keccak::{SHAKE128_RATE, SHAKE256_RATE, Shake256, ShakeX4};
use crate::params::{K_MAX, L_MAX, N, Params};
use crate::poly::Poly;

/// Blocks squeezed before the first rejection pass of RejNTTPoly: 5 * 168 = 840 bytes,
/// 280 candidates for 256 slots (acceptance rate q / 2^23 ~ 0.999).
const UNIFORM_FIRST_BLOCKS: usize = 5;
const MAX_FIRST_BYTES: usize = UNIFORM_FIRST_BLOCKS * SHAKE128_RATE;

/// The matrix A-hat (NTT domain), k rows of l polynomials, stored at maximum size.
pub type Matrix = [[Poly; L_MAX]; K_MAX];

/// Fills polynomials by rejection from four sponges in lock-step: `first` blocks, then one
/// more block at a time for every polynomial still short.
fn rej_fill_x4<B: Backend, const RATE: usize>(
    b: B,
    seeds: [&[u8]; 4],
    out: &mut [Poly; 4],
    first: usize,
    rej: impl Fn(&mut [i32], &[u8]) -> usize,
) {
    let mut xof = ShakeX4::<B, RATE>::absorb_once(b, seeds);
    let mut buf = [[0u8; MAX_FIRST_BYTES]; 4];
    let len = first * RATE;
    {
        let [b0, b1, b2, b3] = &mut buf;
        xof.squeeze_blocks([
            &mut b0[..len],
            &mut b1[..len],
            &mut b2[..len],
            &mut b3[..len],
        ]);
    }
    let mut filled = [0usize; 4];
    for j in 0..4 {
        filled[j] = rej(&mut out[j].coeffs, &buf[j][..len]);
    }
    while filled.iter().any(|&n| n < N) {
        {
            let [b0, b1, b2, b3] = &mut buf;
            xof.squeeze_blocks([
                &mut b0[..RATE],
                &mut b1[..RATE],
                &mut b2[..RATE],
                &mut b3[..RATE],
            ]);
        }
        for j in 0..4 {
            let n = filled[j];
            filled[j] += rej(&mut out[j].coeffs[n..], &buf[j][..RATE]);
        }
    }
}

/// Single-way counterpart of [`rej_fill_x4`].
fn rej_fill<B: Backend, const RATE: usize>(
    b: B,
    seed: &[u8],
    out: &mut Poly,
    first: usize,
    rej: impl Fn(&mut [i32], &[u8]) -> usize,
) {
    let mut xof = crate::keccak::Shake::<B, RATE>::new(b);
    xof.absorb(seed);
    let mut buf = [0u8; MAX_FIRST_BYTES];
    xof.squeeze(&mut buf[..first * RATE]);
    let mut n = rej(&mut out.coeffs, &buf[..first * RATE]);
    while n < N {
        xof.squeeze(&mut buf[..RATE]);
        n += rej(&mut out.coeffs[n..], &buf[..RATE]);
    }
}

/// RejNTTPoly (FIPS 204 Alg. 30) for one seed rho || s || r.
pub fn poly_uniform<B: Backend>(b: B, seed: &[u8; 34], out: &mut Poly) {
    rej_fill::<B, SHAKE128_RATE>(b, seed, out, UNIFORM_FIRST_BLOCKS, |o, buf| {
        Checked(b).rej_uniform(o, buf)
    });
}

/// ExpandA (FIPS 204 Alg. 32): A-hat\[r\]\[s\] = RejNTTPoly(rho || s || r), in the
/// backend's NTT order ([`Backend::ntt_order_from_canonical`]).
pub fn expand_a<B: Backend>(b: B, p: &Params, rho: &[u8; 32], mat: &mut Matrix) {
    let seed = |r: usize, s: usize| {
        let mut x = [0u8; 34];
        x[..32].copy_from_slice(rho);
        x[32] = s as u8;
        x[33] = r as u8;
        x
    };
    let total = p.k * p.l;
    let mut idx = 0;
    while idx + 4 <= total || (B::PREFERS_X4 && idx + 2 <= total) {
        // A last, short group is padded with repeats of its last entry (discarded).
        let at = |j: usize| (idx + j).min(total - 1);
        let seeds: [[u8; 34]; 4] = core::array::from_fn(|j| seed(at(j) / p.l, at(j) % p.l));
        let mut polys = [Poly::ZERO; 4];
        rej_fill_x4::<B, SHAKE128_RATE>(
            b,
            [&seeds[0], &seeds[1], &seeds[2], &seeds[3]],
            &mut polys,
            UNIFORM_FIRST_BLOCKS,
            |o, buf| Checked(b).rej_uniform(o, buf),
        );
        for (j, poly) in polys.iter().enumerate().take(total - idx) {
            mat[(idx + j) / p.l][(idx + j) % p.l] = *poly;
        }
        idx += 4;
    }
    for i in idx..total {
        poly_uniform(b, &seed(i / p.l, i % p.l), &mut mat[i / p.l][i % p.l]);
    }
    // Sampled in canonical NTT order; the backend may keep its own.
    for row in mat[..p.k].iter_mut() {
        for a in row[..p.l].iter_mut() {
            b.ntt_order_from_canonical(a);
        }
    }
}

fn eta_first_blocks(p: &Params) -> usize {
    // eta = 2 needs ~137 bytes on average (15/16 acceptance, 2 per byte), eta = 4 ~228.
    // (Same choice as poly_uniform_eta above, which must squeeze identically.)
    match p.eta {
        crate::params::Eta::Two => 1,
        crate::params::Eta::Four => 2,
    }
}

/// ExpandS (FIPS 204 Alg. 33): s1\[r\] = RejBoundedPoly(rho' || r), s2\[r\] =
/// RejBoundedPoly(rho' || r + l), nonces as 2 little-endian bytes.
pub fn expand_s<B: Backend>(
    b: B,
    p: &Params,
    rhoprime: &[u8; 64],
    s1: &mut [Poly],
    s2: &mut [Poly],
) {
    let seed = |nonce: usize| {
        let mut x = [0u8; 66];
        x[..64].copy_from_slice(rhoprime);
        x[64..].copy_from_slice(&(nonce as u16).to_le_bytes());
        x
    };
    let total = p.l + p.k;
    let first = eta_first_blocks(p);
    let rej = |o: &mut [i32], buf: &[u8]| Checked(b).rej_eta(p.eta, o, buf);
    let mut put = |i: usize, poly: &Poly| {
        if i < p.l {
            s1[i] = *poly
        } else {
            s2[i - p.l] = *poly
        }
    };
    let mut idx = 0;
    let mut polys = [Poly::ZERO; 4];
    while idx + 4 <= total || (B::PREFERS_X4 && idx + 2 <= total) {
        // A last, short group is padded with repeats of its last entry (discarded).
        let seeds: [[u8; 66]; 4] = core::array::from_fn(|j| seed((idx + j).min(total - 1)));
        rej_fill_x4::<B, SHAKE256_RATE>(
            b,
            [&seeds[0], &seeds[1], &seeds[2], &seeds[3]],
            &mut polys,
            first,
            rej,
        );
        for (j, poly) in polys.iter().enumerate().take(total - idx) {
            put(idx + j, poly);
        }
        idx += 4;
    }
    for i in idx..total {
        rej_fill::<B, SHAKE256_RATE>(b, &seed(i), &mut polys[0], first, rej);
        put(i, &polys[0]);
    }
    zeroize::Zeroize::zeroize(&mut polys);
}

/// RejBoundedPoly (FIPS 204 Alg. 31) for one seed rho' || nonce (66 bytes).
pub fn poly_uniform_eta<B: Backend>(
    b: B,
    eta: crate::params::Eta,
    seed: &[u8; 66],
    out: &mut Poly,
) {
    let first = match eta {
        crate::params::Eta::Two => 1,
        crate::params::Eta::Four => 2,
    };
    rej_fill::<B, SHAKE256_RATE>(b, seed, out, first, |o, buf| {
        Checked(b).rej_eta(eta, o, buf)
    });
}

/// One polynomial of ExpandMask: BitUnpack(H(seed, 32 c)) for a 66-byte seed rho'' || nonce.
pub fn poly_uniform_gamma1<B: Backend>(
    b: B,
    gamma1: crate::params::Gamma1,
    seed: &[u8; 66],
    out: &mut Poly,
) {
    let mut buf = [0u8; 640];
    let n = gamma1.poly_z_bytes();
    Shake256::digest(b, &[seed], &mut buf[..n]);
    Checked(b).unpack_z(gamma1, out, &buf[..n]);
}

/// ExpandMask (FIPS 204 Alg. 34): y\[r\] = BitUnpack(H(rho'' || kappa + r, 32 c)), c = 18 or 20.
pub fn expand_mask<B: Backend>(b: B, p: &Params, rhopp: &[u8; 64], kappa: u16, y: &mut [Poly]) {
    const BLOCKS: usize = 5; // 5 * 136 = 680 >= 640 bytes, the larger packed size
    let zbytes = p.gamma1.poly_z_bytes();
    let seed = |r: usize| {
        let mut x = [0u8; 66];
        x[..64].copy_from_slice(rhopp);
        x[64..].copy_from_slice(&kappa.wrapping_add(r as u16).to_le_bytes());
        x
    };
    let mut buf = [[0u8; BLOCKS * SHAKE256_RATE]; 4];
    let mut r = 0;
    while r + 4 <= p.l || (B::PREFERS_X4 && r + 2 <= p.l) {
        let seeds: [[u8; 66]; 4] = core::array::from_fn(|j| seed((r + j).min(p.l - 1)));
        let mut xof = ShakeX4::<B, SHAKE256_RATE>::absorb_once(
            b,
            [&seeds[0], &seeds[1], &seeds[2], &seeds[3]],
        );
        {
            let [b0, b1, b2, b3] = &mut buf;
            xof.squeeze_blocks([&mut b0[..], &mut b1[..], &mut b2[..], &mut b3[..]]);
        }
        for j in 0..4.min(p.l - r) {
            Checked(b).unpack_z(p.gamma1, &mut y[r + j], &buf[j][..zbytes]);
        }
        r += 4;
    }
    for (i, yi) in y.iter_mut().enumerate().take(p.l).skip(r) {
        Shake256::digest(b, &[&seed(i)], &mut buf[0][..zbytes]);
        Checked(b).unpack_z(p.gamma1, yi, &buf[0][..zbytes]);
    }
    zeroize::Zeroize::zeroize(buf.as_flattened_mut());
}

/// SampleInBall (FIPS 204 Alg. 29): a polynomial with tau coefficients +-1, the rest 0,
/// from c~. Its loop depends on c~, which is public once the signature is released; for
/// rejected iterations c is never output (as in the reference implementations).
pub fn sample_in_ball<B: Backend>(b: B, ctilde: &[u8], tau: usize) -> Poly {
    let mut xof = Shake256::new(b);
    xof.absorb(ctilde);
    let mut s = [0u8; 8];
    xof.squeeze(&mut s);
    let mut signs = u64::from_le_bytes(s);
    let mut c = Poly::ZERO;
    for i in N - tau..N {
        let j = loop {
            let mut byte = [0u8];
            xof.squeeze(&mut byte);
            if usize::from(byte[0]) <= i {
                break usize::from(byte[0]);
            }
        };
        c.coeffs[i] = c.coeffs[j];
        c.coeffs[j] = 1 - 2 * (signs & 1) as i32;
        signs >>= 1;
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::Portable;
    use crate::params::ALL_PARAMS;

    #[test]
    #[allow(clippy::needless_range_loop)]
    fn expand_a_x4_matches_single_way() {
        for p in ALL_PARAMS {
            let rho = [7u8; 32];
            let mut mat = [[Poly::ZERO; L_MAX]; K_MAX];
            expand_a(Portable, &p, &rho, &mut mat);
            for r in 0..p.k {
                for s in 0..p.l {
                    let mut seed = [0u8; 34];
                    seed[..32].copy_from_slice(&rho);
                    seed[32] = s as u8;
                    seed[33] = r as u8;
                    let mut one = Poly::ZERO;
                    poly_uniform(Portable, &seed, &mut one);
                    assert_eq!(one, mat[r][s], "{} A[{r}][{s}]", p.name);
                }
            }
        }
    }

    #[test]
    fn sample_in_ball_has_tau_signs() {
        for p in ALL_PARAMS {
            for t in 0..20u8 {
                let c = sample_in_ball(Portable, &[t; 64][..p.ctilde_bytes()], p.tau);
                assert_eq!(c.coeffs.iter().filter(|&&x| x != 0).count(), p.tau);
                assert!(c.coeffs.iter().all(|&x| (-1..=1).contains(&x)));
            }
        }
    }
}
