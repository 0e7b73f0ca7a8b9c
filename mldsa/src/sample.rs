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

/// Squeeze buffers for [`rej_fill_x4`], made once per sampler call (not per 4-way call).
type X4Buf = [[u8; MAX_FIRST_BYTES]; 4];

/// Fills polynomials by rejection from four sponges in lock-step: `first` blocks, then one
/// more block at a time for every polynomial still short.
fn rej_fill_x4<B: Backend, const RATE: usize>(
    b: B,
    seeds: [&[u8]; 4],
    out: [&mut Poly; 4],
    buf: &mut X4Buf,
    first: usize,
    rej: impl Fn(&mut [i32], &[u8]) -> usize,
) {
    let mut xof = ShakeX4::<B, RATE>::new(b);
    xof.absorb_once(seeds);
    let len = first * RATE;
    {
        let [b0, b1, b2, b3] = buf;
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
            let [b0, b1, b2, b3] = buf;
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
    buf: &mut [u8; MAX_FIRST_BYTES],
    first: usize,
    rej: impl Fn(&mut [i32], &[u8]) -> usize,
) {
    let mut xof = crate::keccak::Shake::<B, RATE>::new(b);
    xof.absorb(seed);
    xof.squeeze(&mut buf[..first * RATE]);
    let mut n = rej(&mut out.coeffs, &buf[..first * RATE]);
    while n < N {
        xof.squeeze(&mut buf[..RATE]);
        n += rej(&mut out.coeffs[n..], &buf[..RATE]);
    }
}

/// RejNTTPoly (FIPS 204 Alg. 30) for one seed rho || s || r.
pub fn poly_uniform<B: Backend>(b: B, seed: &[u8; 34], out: &mut Poly) {
    let mut buf = [0u8; MAX_FIRST_BYTES];
    rej_fill::<B, SHAKE128_RATE>(b, seed, out, &mut buf, UNIFORM_FIRST_BLOCKS, |o, buf| {
        Checked(b).rej_uniform(o, buf)
    });
}

/// Entries `first .. first + count` of A-hat (FIPS 204 Alg. 32, entry `i` = A-hat\[i / l\]\[i
/// % l\] = RejNTTPoly(rho || i % l || i / l)), sampled into the polynomials `dest` yields, in
/// that order, and put in the backend's NTT order. Four at a time through the 4-way sponge
/// (a short last group, when the backend prefers it, is padded with repeats of its last
/// seed into a scratch polynomial); the rest through the one-way sponge.
fn sample_entries<'a, B: Backend>(
    b: B,
    p: &Params,
    rho: &[u8; 32],
    first: usize,
    count: usize,
    mut dest: impl Iterator<Item = &'a mut Poly>,
) {
    let seed = |i: usize| {
        let mut x = [0u8; 34];
        x[..32].copy_from_slice(rho);
        x[32] = (i % p.l) as u8;
        x[33] = (i / p.l) as u8;
        x
    };
    let end = first + count;
    let mut buf: X4Buf = [[0u8; MAX_FIRST_BYTES]; 4];
    let mut pad = [Poly::ZERO; 3];
    let mut idx = first;
    while idx + 4 <= end || (B::PREFERS_X4 && idx + 2 <= end) {
        let real = (end - idx).min(4);
        let seeds: [[u8; 34]; 4] = core::array::from_fn(|j| seed((idx + j).min(end - 1)));
        let mut pads = pad.iter_mut();
        let mut take = |j: usize| {
            if j < real {
                dest.next().expect("a destination per entry")
            } else {
                pads.next().expect("at most three padded lanes")
            }
        };
        let mut out = [take(0), take(1), take(2), take(3)];
        let [o0, o1, o2, o3] = &mut out;
        rej_fill_x4::<B, SHAKE128_RATE>(
            b,
            [&seeds[0], &seeds[1], &seeds[2], &seeds[3]],
            [o0, o1, o2, o3],
            &mut buf,
            UNIFORM_FIRST_BLOCKS,
            |o, buf| Checked(b).rej_uniform(o, buf),
        );
        // Sampled in canonical NTT order; the backend may keep its own.
        for a in out.iter_mut().take(real) {
            b.ntt_order_from_canonical(a);
        }
        idx += 4;
    }
    for i in idx..end {
        let a = dest.next().expect("a destination per entry");
        rej_fill::<B, SHAKE128_RATE>(
            b,
            &seed(i),
            a,
            &mut buf[0],
            UNIFORM_FIRST_BLOCKS,
            |o, buf| Checked(b).rej_uniform(o, buf),
        );
        b.ntt_order_from_canonical(a);
    }
}

/// ExpandA (FIPS 204 Alg. 32): A-hat\[r\]\[s\] = RejNTTPoly(rho || s || r), in the
/// backend's NTT order ([`Backend::ntt_order_from_canonical`]).
pub fn expand_a<B: Backend>(b: B, p: &Params, rho: &[u8; 32], mat: &mut Matrix) {
    let dest = mat[..p.k].iter_mut().flat_map(|row| row[..p.l].iter_mut());
    sample_entries(b, p, rho, 0, p.k * p.l, dest);
}

/// Rows of A-hat handed out in turn without storing the matrix: what keygen and verify use,
/// since each needs every row once. Rows are sampled four at a time (4 l entries, a whole
/// number of 4-way calls), so the 4-way sponge runs as often as for the whole matrix.
#[derive(Debug)]
pub struct MatrixRows<'p, B> {
    b: B,
    p: &'p Params,
    rho: [u8; 32],
    rows: [[Poly; L_MAX]; ROWS_PER_BATCH],
    /// Rows `next - in_batch .. next` of the matrix are in `rows`, the first of them at
    /// `rows[0]`; `used` of them have been handed out.
    next: usize,
    in_batch: usize,
    used: usize,
}

/// Rows sampled per batch by [`MatrixRows`].
const ROWS_PER_BATCH: usize = 4;

impl<'p, B: Backend> MatrixRows<'p, B> {
    /// The rows of A-hat for `rho`, none sampled yet.
    pub fn new(b: B, p: &'p Params, rho: &[u8; 32]) -> Self {
        MatrixRows {
            b,
            p,
            rho: *rho,
            rows: [[Poly::ZERO; L_MAX]; ROWS_PER_BATCH],
            next: 0,
            in_batch: 0,
            used: 0,
        }
    }

    /// The next row (its first l entries), or `None` after row k - 1.
    pub fn next_row(&mut self) -> Option<&[Poly]> {
        let (k, l) = (self.p.k, self.p.l);
        if self.used == self.in_batch {
            if self.next == k {
                return None;
            }
            let n = (k - self.next).min(ROWS_PER_BATCH);
            let dest = self.rows[..n]
                .iter_mut()
                .flat_map(|row| row[..l].iter_mut());
            sample_entries(self.b, self.p, &self.rho, self.next * l, n * l, dest);
            self.next += n;
            self.in_batch = n;
            self.used = 0;
        }
        self.used += 1;
        Some(&self.rows[self.used - 1][..l])
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
    // The squeezed bytes determine s1 and s2: wiped before returning, like `polys`.
    let mut buf: X4Buf = [[0u8; MAX_FIRST_BYTES]; 4];
    while idx + 4 <= total || (B::PREFERS_X4 && idx + 2 <= total) {
        // A last, short group is padded with repeats of its last entry (discarded).
        let seeds: [[u8; 66]; 4] = core::array::from_fn(|j| seed((idx + j).min(total - 1)));
        let [p0, p1, p2, p3] = &mut polys;
        rej_fill_x4::<B, SHAKE256_RATE>(
            b,
            [&seeds[0], &seeds[1], &seeds[2], &seeds[3]],
            [p0, p1, p2, p3],
            &mut buf,
            first,
            rej,
        );
        for (j, poly) in polys.iter().enumerate().take(total - idx) {
            put(idx + j, poly);
        }
        idx += 4;
    }
    for i in idx..total {
        rej_fill::<B, SHAKE256_RATE>(b, &seed(i), &mut polys[0], &mut buf[0], first, rej);
        put(i, &polys[0]);
    }
    zeroize::Zeroize::zeroize(&mut polys);
    zeroize::Zeroize::zeroize(buf.as_flattened_mut());
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
    let mut buf = [0u8; MAX_FIRST_BYTES];
    rej_fill::<B, SHAKE256_RATE>(b, seed, out, &mut buf, first, |o, buf| {
        Checked(b).rej_eta(eta, o, buf)
    });
    zeroize::Zeroize::zeroize(&mut buf[..]);
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
        let mut xof = ShakeX4::<B, SHAKE256_RATE>::new(b);
        xof.absorb_once([&seeds[0], &seeds[1], &seeds[2], &seeds[3]]);
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
    fn matrix_rows_are_the_rows_of_expand_a() {
        for kind in crate::backend::BackendKind::available() {
            let any = crate::backend::AnyBackend::new(kind).unwrap();
            crate::with_backend!(any, |b| {
                for p in ALL_PARAMS {
                    for t in 0..3u8 {
                        let rho = [t.wrapping_mul(91); 32];
                        let mut mat = [[Poly::ZERO; L_MAX]; K_MAX];
                        expand_a(b, &p, &rho, &mut mat);
                        let mut rows = MatrixRows::new(b, &p, &rho);
                        for (r, want) in mat[..p.k].iter().enumerate() {
                            let got = rows.next_row().expect("k rows");
                            assert_eq!(got, &want[..p.l], "{kind} {} row {r}", p.name);
                        }
                        assert!(rows.next_row().is_none(), "{kind} {}: k rows only", p.name);
                    }
                }
            });
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
