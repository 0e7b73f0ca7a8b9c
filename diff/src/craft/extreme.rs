//! Verify inputs at the extremes of the arithmetic: public keys whose t1 coefficients are 0
//! and 2^10 - 1 (so t1 2^d is 0 or q - 1, the largest value the NTT of t1 2^d ever takes in),
//! z at +-(gamma1 - beta - 1), and z placed so that one row's NTT-domain sum of A-hat o NTT(z)
//! — the value a verifier holds unreduced before the inverse NTT — is as far from 0 as a
//! cheap search gets it.
//!
//! With t1 2^d in {0, -1} (mod q), c t1 2^d = -(c * b) for a 0/1 polynomial b: every
//! coefficient at most tau in magnitude, whatever c is. So the crafter can take w1 =
//! HighBits(A z) before c is known (no secret needed), compute the honest c~ = H(mu ||
//! w1Encode(w1)), and then give a hint wherever w' = A z - c t1 2^d has other high bits:
//! UseHint(1, r) undoes a move of at most tau across a boundary. The signature is valid.

use super::spec::{self, Poly, Q};
use mldsa::Params;

/// 2^-32 mod q: a Montgomery product's factor.
fn r_inv() -> i64 {
    // Halving 32 times: x / 2 mod q is x / 2 or (x + q) / 2.
    (0..32).fold(1i64, |x, _| if x % 2 == 0 { x / 2 } else { (x + Q) / 2 })
}

fn centred(x: i64) -> i64 {
    let r = x.rem_euclid(Q);
    if r > Q / 2 { r - Q } else { r }
}

/// z for `row`: in each of the l polynomials, `per_column` coefficients at +-v (v = gamma1 -
/// beta - 1), each chosen greedily to raise the sum over the 256 slots of the centred
/// residues of A-hat[row][j] o NTT(z_j) 2^-32 — to within a few hundredths of q each, the
/// Montgomery products a verifier of the reference lineage (this crate's portable backend,
/// PQClean, mldsa-native) accumulates before its reduction and inverse NTT.
pub fn steered_z(p: &Params, rho: &[u8], row: usize, per_column: usize) -> Vec<Poly> {
    let v = i64::from(p.gamma1.value() - p.beta) - 1;
    let r_inv = r_inv();
    // NTT(X^m) for every m: the slot values x_i^m, from NTT(X).
    let mut x = [0i64; 256];
    x[1] = 1;
    let pts = spec::ntt(&x);
    let mut powers = vec![[1i64; 256]; 256];
    for m in 1..256 {
        powers[m] = core::array::from_fn(|i| powers[m - 1][i] * pts[i] % Q);
    }
    (0..p.l)
        .map(|j| {
            let alpha = spec::rej_ntt_poly(rho, row, j).map(|a| a * r_inv % Q);
            let mut z = [0i64; 256];
            let mut cur = [0i64; 256];
            for _ in 0..per_column {
                let mut best = (i64::MIN, 0, 0);
                for (m, pw) in powers.iter().enumerate() {
                    for sign in [1, -1] {
                        if z[m] != 0 {
                            continue;
                        }
                        let score: i64 = (0..256)
                            .map(|i| centred((cur[i] + sign * v * pw[i]) % Q * alpha[i]))
                            .sum();
                        if score > best.0 {
                            best = (score, m, sign);
                        }
                    }
                }
                let (_, m, sign) = best;
                z[m] = sign * v;
                for i in 0..256 {
                    cur[i] = (cur[i] + sign * v * powers[m][i]).rem_euclid(Q);
                }
            }
            z
        })
        .collect()
}

/// The sum over the 256 slots of row `row` of A-hat o NTT(z) in centred Montgomery form
/// (as [`steered_z`] raises it), in units of q: for the record of what a case reaches.
pub fn row_sum_in_q(p: &Params, rho: &[u8], row: usize, z: &[Poly]) -> f64 {
    let r_inv = r_inv();
    let total: i64 = (0..p.l)
        .map(|j| {
            let a = spec::rej_ntt_poly(rho, row, j);
            let zh = spec::ntt(&z[j]);
            (0..256)
                .map(|i| centred(a[i] * zh[i] % Q * r_inv))
                .sum::<i64>()
        })
        .sum();
    total as f64 / Q as f64
}

/// A valid signature for pk = rho || t1 (every t1 coefficient 0 or 2^10 - 1), z, and M':
/// c~ honest, the hints the ones the shift by c t1 2^d needs. `None` if more than omega
/// hints would be needed.
pub fn sign(
    p: &Params,
    rho: &[u8],
    t1: &[Poly],
    z: &[Poly],
    m_prime: &[u8],
) -> Option<(Vec<u8>, Vec<u8>)> {
    debug_assert!(t1.iter().flatten().all(|&c| c == 0 || c == 1023));
    let mut pk = rho.to_vec();
    spec::pack_bits(t1.iter().flatten().map(|&c| c as u32), 10, &mut pk);
    let zero_t1 = vec![[0i64; 256]; p.k];
    let az = spec::w_approx(p, rho, &zero_t1, &[0; 256], z);
    let w1: Vec<Poly> = az
        .iter()
        .map(|w| w.map(|r| spec::decompose(p, r).0))
        .collect();
    let mut ctilde = vec![0u8; p.ctilde_bytes()];
    spec::h256(
        &[&spec::mu(&pk, m_prime), &spec::w1_encode(p, &w1)],
        &mut ctilde,
    );
    let c = spec::sample_in_ball(p, &ctilde);
    let w = spec::w_approx(p, rho, t1, &c, z);
    let mut rows = vec![Vec::new(); p.k];
    for r in 0..p.k {
        for i in 0..256 {
            if spec::decompose(p, w[r][i]).0 == w1[r][i] {
                continue;
            }
            if spec::use_hint(p, true, w[r][i], super::FIPS) != w1[r][i] {
                return None;
            }
            rows[r].push(i as u8);
        }
    }
    if rows.iter().map(Vec::len).sum::<usize>() > p.omega {
        return None;
    }
    let sig = [ctilde, spec::pack_z(p, z), spec::hint_pack(p, &rows)].concat();
    Some((pk, sig))
}
