//! FIPS 204 Sign_internal (Alg. 7) written a second time for the rare-path search: the same
//! plain arithmetic as [`super::spec`], recording what each attempt of the rejection loop
//! did. It signs only the harness's own test keys (never a secret of anyone's) and is not
//! constant time. It decides which inputs reach a rare branch; the signatures compared are
//! always the implementations' own.

use super::spec::{self, Poly, Q, h256, unpack};
use mldsa::Params;

/// Why an attempt of the signing loop was rejected (Alg. 7 lines 23 and 28).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rejection {
    /// ||z|| >= gamma1 - beta.
    Z,
    /// ||LowBits(w - c s2)|| >= gamma2 - beta.
    R0,
    /// ||c t0|| >= gamma2.
    Ct0,
    /// More than omega hints.
    Hints,
}

/// One attempt: the norms it saw (as far as it got) and its verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Attempt {
    /// ||z||_inf.
    pub z: i64,
    /// ||r0||_inf, if the z check passed.
    pub r0: Option<i64>,
    /// ||c t0||_inf, if both passed.
    pub ct0: Option<i64>,
    /// The hint count, if all three passed.
    pub hints: Option<usize>,
    /// `None` if this attempt produced the signature.
    pub rejected: Option<Rejection>,
    /// The attempt's challenge c (SampleInBall of its c~).
    pub c: Challenge,
}

/// A challenge polynomial: tau coefficients +-1, the rest 0. Its `Debug` shows only where
/// the nonzero coefficients are, to keep records readable.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Challenge(pub [i8; 256]);

impl core::fmt::Debug for Challenge {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let nonzero: Vec<String> = (0..256)
            .filter(|&i| self.0[i] != 0)
            .map(|i| format!("{}{i}", if self.0[i] > 0 { '+' } else { '-' }))
            .collect();
        write!(f, "c[{}]", nonzero.join(" "))
    }
}

fn centred(x: i64) -> i64 {
    let r = x.rem_euclid(Q);
    if r > Q / 2 { r - Q } else { r }
}

fn norm(ps: &[Poly]) -> i64 {
    ps.iter()
        .flatten()
        .map(|&x| centred(x).abs())
        .max()
        .unwrap_or(0)
}

/// skDecode's s1, s2 and t0 (Alg. 25), with no range check, from `sk` of the set's length.
fn decode_sk(p: &Params, sk: &[u8]) -> (Vec<Poly>, Vec<Poly>, Vec<Poly>) {
    let (k, l) = (p.k, p.l);
    let eta = i64::from(p.eta.value());
    let eb = p.eta.poly_eta_bytes();
    (
        unpack(&sk[128..], p.eta.bits(), l, |v| eta - v),
        unpack(&sk[128 + l * eb..], p.eta.bits(), k, |v| eta - v),
        unpack(&sk[128 + (l + k) * eb..], 13, k, |v| 4096 - v),
    )
}

fn mul(a_hat: &Poly, b: &Poly) -> Poly {
    let b_hat = spec::ntt(b);
    spec::inv_ntt(&core::array::from_fn(|i| a_hat[i] * b_hat[i] % Q))
}

/// The attempts Sign_internal(sk, M', rnd) makes, in order; the last one is accepted unless
/// `max` attempts ran out first. `None` if `sk` does not have the set's length.
pub fn attempts(
    p: &Params,
    sk: &[u8],
    m_prime: &[u8],
    rnd: &[u8; 32],
    max: usize,
) -> Option<Vec<Attempt>> {
    // tr = sk[64..128]; `run` refuses a key of the wrong length.
    let mut mu = [0u8; 64];
    h256(&[sk.get(64..128)?, m_prime], &mut mu);
    Some(run(p, sk, &mu, rnd, max)?.0)
}

/// The signature Sign_internal makes from line 7 on, given mu (external mu), with `sk`
/// decoded as skDecode does (Alg. 25) and no range check of s1 and s2: what an
/// implementation that signs with an out-of-range key must produce. `None` if `sk` has the
/// wrong length or 1,000 attempts do not end the loop.
pub fn sign_mu(p: &Params, sk: &[u8], mu: &[u8; 64], rnd: &[u8; 32]) -> Option<Vec<u8>> {
    run(p, sk, mu, rnd, 1000)?.1
}

/// The rejection loop: every attempt, and the signature if one was accepted.
fn run(
    p: &Params,
    sk: &[u8],
    mu: &[u8; 64],
    rnd: &[u8; 32],
    max: usize,
) -> Option<(Vec<Attempt>, Option<Vec<u8>>)> {
    if sk.len() != p.sk_bytes() {
        return None;
    }
    let (k, l) = (p.k, p.l);
    let rho = &sk[..32];
    let (s1, s2, t0) = decode_sk(p, sk);
    let mut rhopp = [0u8; 64];
    h256(&[&sk[32..64], rnd, mu], &mut rhopp);
    let g1 = i64::from(p.gamma1.value());
    let g2 = i64::from(p.gamma2.value());
    let beta = i64::from(p.beta);
    let zero_t1 = vec![[0i64; 256]; k];
    let mut out = Vec::new();
    for attempt in 0..max {
        // ExpandMask (Alg. 34): y[r] from H(rho'' || kappa + r), kappa = attempt * l.
        let y: Vec<Poly> = (0..l)
            .map(|r| {
                let n = (attempt * l + r) as u16;
                let mut v = vec![0u8; p.gamma1.poly_z_bytes()];
                h256(&[&rhopp, &n.to_le_bytes()], &mut v);
                unpack(&v, p.gamma1.z_bits(), 1, |v| g1 - v)[0]
            })
            .collect();
        // w = A y (t1 = 0 and c = 0 make w_approx exactly that).
        let w = spec::w_approx(p, rho, &zero_t1, &[0; 256], &y);
        let w1: Vec<Poly> = w
            .iter()
            .map(|wr| wr.map(|c| spec::decompose(p, c).0))
            .collect();
        let mut ctilde = vec![0u8; p.ctilde_bytes()];
        h256(&[mu, &spec::w1_encode(p, &w1)], &mut ctilde);
        let c = spec::sample_in_ball(p, &ctilde);
        let c_hat = spec::ntt(&c);
        let z: Vec<Poly> = s1
            .iter()
            .zip(&y)
            .map(|(s, yr)| {
                let cs = mul(&c_hat, s);
                core::array::from_fn(|i| centred(yr[i] + cs[i]))
            })
            .collect();
        let mut a = Attempt {
            z: norm(&z),
            r0: None,
            ct0: None,
            hints: None,
            rejected: None,
            c: Challenge(c.map(|x| centred(x) as i8)),
        };
        let cs2: Vec<Poly> = s2.iter().map(|s| mul(&c_hat, s)).collect();
        let w_cs2: Vec<Poly> = w
            .iter()
            .zip(&cs2)
            .map(|(wr, cr)| core::array::from_fn(|i| (wr[i] - cr[i]).rem_euclid(Q)))
            .collect();
        let r0 = w_cs2
            .iter()
            .flatten()
            .map(|&c| spec::decompose(p, c).1.abs())
            .max()
            .unwrap_or(0);
        let ct0: Vec<Poly> = t0.iter().map(|t| mul(&c_hat, t)).collect();
        let ct0_norm = norm(&ct0);
        // MakeHint(-ct0, w - cs2 + ct0) (Alg. 39): HighBits(w - cs2) != HighBits(w - cs2 + ct0).
        let h: Vec<Vec<u8>> = w_cs2
            .iter()
            .zip(&ct0)
            .map(|(r, c)| {
                (0..=255u8)
                    .filter(|&i| {
                        let i = usize::from(i);
                        spec::decompose(p, r[i] + c[i]).0 != spec::decompose(p, r[i]).0
                    })
                    .collect()
            })
            .collect();
        let hints: usize = h.iter().map(Vec::len).sum();
        a.rejected = if a.z >= g1 - beta {
            Some(Rejection::Z)
        } else {
            a.r0 = Some(r0);
            if r0 >= g2 - beta {
                Some(Rejection::R0)
            } else {
                a.ct0 = Some(ct0_norm);
                if ct0_norm >= g2 {
                    Some(Rejection::Ct0)
                } else {
                    a.hints = Some(hints);
                    (hints > p.omega).then_some(Rejection::Hints)
                }
            }
        };
        let done = a.rejected.is_none();
        out.push(a);
        if done {
            // sigEncode (Alg. 26).
            let sig = [ctilde, spec::pack_z(p, &z), spec::hint_pack(p, &h)].concat();
            return Some((out, Some(sig)));
        }
    }
    Some((out, None))
}

/// Whether `sk`'s tr and t0 are the ones its rho, s1 and s2 imply: t = NTT^-1(A-hat *
/// NTT(s1)) + s2, (t1, t0) = Power2Round(t) (Alg. 35), tr = H(pkEncode(rho, t1), 64), with s1
/// and s2 decoded as skDecode does and no range check. `None` if `sk` has the wrong length.
pub fn consistent(p: &Params, sk: &[u8]) -> Option<bool> {
    if sk.len() != p.sk_bytes() {
        return None;
    }
    let k = p.k;
    let (rho, tr) = (&sk[..32], &sk[64..128]);
    let (s1, s2, t0) = decode_sk(p, sk);
    // A s1 (w_approx with c = 0 is exactly A z).
    let a_s1 = spec::w_approx(p, rho, &vec![[0i64; 256]; k], &[0; 256], &s1);
    let mut t1 = Vec::with_capacity(k * 256);
    for r in 0..k {
        for i in 0..256 {
            let t = (a_s1[r][i] + s2[r][i]).rem_euclid(Q);
            // r0 = t mod+- 2^13, in (-2^12, 2^12].
            let r0 = match t & 8191 {
                x if x > 4096 => x - 8192,
                x => x,
            };
            if r0 != t0[r][i] {
                return Some(false);
            }
            t1.push(((t - r0) >> 13) as u32);
        }
    }
    let mut pk = rho.to_vec();
    spec::pack_bits(t1.into_iter(), 10, &mut pk);
    let mut h = [0u8; 64];
    h256(&[&pk], &mut h);
    Some(h[..] == tr[..])
}

/// Whether every s1 and s2 coefficient of `sk` (of the set's length) lies in [-eta, eta].
pub fn in_range(p: &Params, sk: &[u8]) -> bool {
    let eta = i64::from(p.eta.value());
    let n = p.l + p.k;
    sk.len() == p.sk_bytes()
        && unpack(&sk[128..], p.eta.bits(), n, |v| eta - v)
            .iter()
            .flatten()
            .all(|c| c.abs() <= eta)
}
