//! Sampling (FIPS 204 Section 7.3), public so the differential harness can compare each
//! sampler with other implementations: ExpandA, ExpandS, ExpandMask and SampleInBall, built on
//! the SHAKE sponges and the backend's rejection and unpacking kernels. Polynomials are
//! sampled four or eight at a time through the wide sponges wherever that many are needed
//! (and, on a backend that prefers it, with padded lanes for a short last group).

mod ball;

pub use ball::{sample_in_ball, sample_in_ball_into};

use crate::backend::{Backend, Checked};
use crate::keccak::{SHAKE128_RATE, SHAKE256_RATE, Secrecy, Shake256, ShakeWide, ShakeX4, ShakeX8};
use crate::params::{K_MAX, L_MAX, N, Params};
use crate::poly::Poly;
use crate::small_div::div_rem_small;

/// Blocks squeezed before the first rejection pass of RejNTTPoly: 5 SHAKE128 blocks (840
/// bytes), 280 candidates for 256 slots (acceptance rate q / 2^23 ~ 0.999).
const UNIFORM_FIRST_BLOCKS: usize = 5;
const MAX_FIRST_BYTES: usize = UNIFORM_FIRST_BLOCKS * SHAKE128_RATE;

/// The matrix A-hat (NTT domain), k rows of l polynomials, stored at maximum size.
pub type Matrix = [[Poly; L_MAX]; K_MAX];

/// Squeeze buffers for [`rej_fill_wide`], made once per sampler call.
type WideBuf = [[u8; MAX_FIRST_BYTES]; 8];

/// The seeds of one group of up to eight sponges, built in place and wiped on drop: the
/// seeds of ExpandS and ExpandMask begin with the secret rho' or rho'' (FIPS 204 Section
/// 3.6.3: such intermediates are destroyed), so no seed is ever returned by value or left
/// behind on the stack.
struct Seeds<const SEED: usize>([[u8; SEED]; 8]);

impl<const SEED: usize> Seeds<SEED> {
    fn new() -> Self {
        Seeds([[0; SEED]; 8])
    }

    /// Seeds `0 .. 8` as `fill(j, seed j)` writes them.
    fn fill(&mut self, mut fill: impl FnMut(usize, &mut [u8; SEED])) -> [&[u8]; 8] {
        for (j, s) in self.0.iter_mut().enumerate() {
            fill(j, s);
        }
        self.0.each_ref().map(|s| &s[..])
    }
}

impl<const SEED: usize> Drop for Seeds<SEED> {
    fn drop(&mut self) {
        zeroize::Zeroize::zeroize(self.0.as_flattened_mut());
    }
}

/// How many lanes the next group of polynomials takes when `left` remain: 8 (two 4-way
/// states permuted together) for five or more if the backend prefers it, 4 for four (or for
/// two or three if the backend prefers the 4-way sponge), else 1 (the one-way sponge). Lanes
/// past the `left` real ones are padding whose output is discarded.
fn group_width<B: Backend>(left: usize) -> usize {
    if B::PREFERS_X8 && left >= 5 {
        8
    } else if left >= 4 || (B::PREFERS_X4 && left >= 2) {
        4
    } else {
        1
    }
}

/// Fills `out.len()` = 4 S polynomials by rejection from 4 S sponges in lock-step: `first`
/// blocks, then one more block at a time while any polynomial is short.
fn rej_fill_wide<B: Backend, const RATE: usize, const S: usize>(
    b: B,
    secrecy: Secrecy,
    seeds: &[&[u8]],
    out: &mut [&mut Poly],
    buf: &mut WideBuf,
    first: usize,
    rej: impl Fn(&mut [i32], &[u8]) -> usize,
) {
    let w = 4 * S;
    let mut xof = ShakeWide::<B, RATE, S>::with_secrecy(b, secrecy);
    xof.absorb_once(&seeds[..w]);
    let len = first * RATE;
    xof.squeeze_blocks(&mut buf.each_mut().map(|x| &mut x[..len])[..w]);
    let mut filled = [0usize; 8];
    for j in 0..w {
        filled[j] = rej(&mut out[j].coeffs, &buf[j][..len]);
    }
    while filled[..w].iter().any(|&n| n < N) {
        xof.squeeze_blocks(&mut buf.each_mut().map(|x| &mut x[..RATE])[..w]);
        for j in 0..w {
            let n = filled[j];
            filled[j] += rej(&mut out[j].coeffs[n..], &buf[j][..RATE]);
        }
    }
}

/// Single-way counterpart of [`rej_fill_wide`].
fn rej_fill<B: Backend, const RATE: usize>(
    b: B,
    secrecy: Secrecy,
    seed: &[u8],
    out: &mut Poly,
    buf: &mut [u8; MAX_FIRST_BYTES],
    first: usize,
    rej: impl Fn(&mut [i32], &[u8]) -> usize,
) {
    let mut xof = crate::keccak::Shake::<B, RATE>::with_secrecy(b, secrecy);
    xof.absorb(seed);
    xof.squeeze(&mut buf[..first * RATE]);
    let mut n = rej(&mut out.coeffs, &buf[..first * RATE]);
    while n < N {
        xof.squeeze(&mut buf[..RATE]);
        n += rej(&mut out.coeffs[n..], &buf[..RATE]);
    }
}

/// The squeeze buffers and padded-lane polynomials of [`rej_sample`]: the caller's, to wipe
/// when what they held is secret.
struct Scratch {
    buf: WideBuf,
    pad: [Poly; 3],
}

impl Scratch {
    fn new() -> Self {
        Scratch {
            buf: [[0u8; MAX_FIRST_BYTES]; 8],
            pad: [Poly::ZERO; 3],
        }
    }

    fn wipe(&mut self) {
        zeroize::Zeroize::zeroize(&mut self.pad);
        zeroize::Zeroize::zeroize(self.buf.as_flattened_mut());
    }
}

/// How [`rej_sample`] turns sponge output into polynomials: `first` blocks squeezed before
/// the first pass of the rejection kernel `rej`, then `finish` applied to each polynomial;
/// `secrecy` says whether the sponges' states may hold a secret.
struct Rejection<R, F> {
    secrecy: Secrecy,
    first: usize,
    rej: R,
    finish: F,
}

/// Samples `count` polynomials by rejection, polynomial `i` from the sponge on the seed
/// `seed(i, _)` writes into the `i`-th polynomial `dest` yields, in groups of
/// [`group_width`] (padded lanes go to `scratch.pad`), as `how` says. The seeds are wiped
/// before returning.
fn rej_sample<'a, B: Backend, const RATE: usize, const SEED: usize>(
    b: B,
    count: usize,
    seed: impl Fn(usize, &mut [u8; SEED]),
    mut dest: impl Iterator<Item = &'a mut Poly>,
    scratch: &mut Scratch,
    how: Rejection<impl Fn(&mut [i32], &[u8]) -> usize + Copy, impl Fn(&mut Poly)>,
) {
    let Rejection {
        secrecy,
        first,
        rej,
        finish,
    } = how;
    let Scratch { buf, pad } = scratch;
    let mut seed_buf = Seeds::<SEED>::new();
    let mut i = 0;
    while i < count {
        let w = group_width::<B>(count - i);
        let real = (count - i).min(w);
        if w == 1 {
            let a = dest.next().expect("a destination per polynomial");
            seed(i, &mut seed_buf.0[0]);
            rej_fill::<B, RATE>(b, secrecy, &seed_buf.0[0], a, &mut buf[0], first, rej);
            finish(a);
            i += 1;
            continue;
        }
        // A short group repeats its last seed in the padded lanes.
        let seeds = seed_buf.fill(|j, s| seed((i + j).min(count - 1), s));
        let mut pads = pad.iter_mut();
        let mut take = |j: usize| -> &mut Poly {
            if j < real {
                dest.next().expect("a destination per polynomial")
            } else {
                pads.next().expect("at most three padded lanes")
            }
        };
        if w == 8 {
            let mut out: [&mut Poly; 8] = core::array::from_fn(&mut take);
            rej_fill_wide::<B, RATE, 2>(b, secrecy, &seeds, &mut out, buf, first, rej);
            out[..real].iter_mut().for_each(|a| finish(a));
        } else {
            let mut out: [&mut Poly; 4] = core::array::from_fn(&mut take);
            rej_fill_wide::<B, RATE, 1>(b, secrecy, &seeds, &mut out, buf, first, rej);
            out[..real].iter_mut().for_each(|a| finish(a));
        }
        i += real;
    }
}

/// RejNTTPoly (FIPS 204 Alg. 30) for one seed rho || s || r.
pub fn poly_uniform<B: Backend>(b: B, seed: &[u8; 34], out: &mut Poly) {
    let mut buf = [0u8; MAX_FIRST_BYTES];
    rej_fill::<B, SHAKE128_RATE>(
        b,
        Secrecy::Public,
        seed,
        out,
        &mut buf,
        UNIFORM_FIRST_BLOCKS,
        |o, buf| Checked(b).rej_uniform(o, buf),
    );
}

/// Entries `first .. first + count` of A-hat (FIPS 204 Alg. 32, entry `i` = A-hat\[i / l\]\[i
/// % l\] = RejNTTPoly(rho || i % l || i / l)), sampled into the polynomials `dest` yields, in
/// that order, and put in the backend's NTT order.
fn sample_entries<'a, B: Backend>(
    b: B,
    p: &Params,
    rho: &[u8; 32],
    first: usize,
    count: usize,
    dest: impl Iterator<Item = &'a mut Poly>,
) {
    let seed = |i: usize, x: &mut [u8; 34]| {
        let (row, col) = div_rem_small(first + i, p.l);
        x[..32].copy_from_slice(rho);
        x[32] = col as u8;
        x[33] = row as u8;
    };
    rej_sample::<B, SHAKE128_RATE, 34>(
        b,
        count,
        seed,
        dest,
        &mut Scratch::new(),
        Rejection {
            // A-hat is public (from rho).
            secrecy: Secrecy::Public,
            first: UNIFORM_FIRST_BLOCKS,
            rej: |o: &mut [i32], buf: &[u8]| Checked(b).rej_uniform(o, buf),
            // Sampled in canonical NTT order; the backend may keep its own.
            finish: |a: &mut Poly| b.ntt_order_from_canonical(a),
        },
    );
}

/// ExpandA (FIPS 204 Alg. 32): A-hat\[r\]\[s\] = RejNTTPoly(rho || s || r), in the
/// backend's NTT order ([`Backend::ntt_order_from_canonical`]).
pub fn expand_a<B: Backend>(b: B, p: &Params, rho: &[u8; 32], mat: &mut Matrix) {
    let dest = mat[..p.k].iter_mut().flat_map(|row| row[..p.l].iter_mut());
    sample_entries(b, p, rho, 0, p.k * p.l, dest);
}

/// Rows of A-hat handed out in turn, sampled a batch of rows at a time into a buffer the
/// caller provides (`buf.len() / l` rows, each l polynomials, one after another): what
/// keygen and verify use, since each needs every row once. [`batch_rows`] says how many
/// rows make whole 8-entry groups.
#[derive(Debug)]
pub struct MatrixRows<'p, 'a, B> {
    b: B,
    p: &'p Params,
    rho: [u8; 32],
    buf: &'a mut [Poly],
    /// Rows per batch: `buf.len() / l`.
    batch: usize,
    /// Rows `next - in_batch .. next` of the matrix are in `buf`, the first of them at
    /// `buf[0..l]`; `used` of them have been handed out.
    next: usize,
    in_batch: usize,
    used: usize,
}

/// The batch [`MatrixRows`] should use for `p`: two rows when l = 4 (eight entries, one
/// 8-way call), else the whole matrix (l = 5 and 7 make no whole groups of eight with fewer
/// rows, and a batch ending in a short group costs a 4-way call more than one padded group
/// over the whole matrix).
pub fn batch_rows(p: &Params) -> usize {
    if p.l == 4 { 2 } else { p.k }
}

impl<'p, 'a, B: Backend> MatrixRows<'p, 'a, B> {
    /// The rows of A-hat for `rho`, none sampled yet, `buf.len() / l` at a time.
    pub fn new(b: B, p: &'p Params, rho: &[u8; 32], buf: &'a mut [Poly]) -> Self {
        assert!(buf.len() >= p.l, "a batch holds at least one row");
        MatrixRows {
            b,
            p,
            rho: *rho,
            batch: div_rem_small(buf.len(), p.l).0,
            buf,
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
            let n = (k - self.next).min(self.batch);
            let dest = self.buf[..n * l].iter_mut();
            sample_entries(self.b, self.p, &self.rho, self.next * l, n * l, dest);
            self.next += n;
            self.in_batch = n;
            self.used = 0;
        }
        self.used += 1;
        Some(&self.buf[(self.used - 1) * l..self.used * l])
    }
}

/// Declares `$rows`, a [`MatrixRows`] over a stack buffer of [`batch_rows`] rows: the
/// smallest of three sizes that holds them (8, 30 or all 56 polynomials; only the buffer
/// taken is initialised).
macro_rules! matrix_rows {
    ($rows:ident, $b:expr, $p:expr, $rho:expr) => {
        use $crate::poly::Poly;
        let n = $crate::sample::batch_rows($p) * $p.l;
        let (mut small, mut medium, mut all);
        let buf: &mut [Poly] = if n <= 8 {
            small = [Poly::ZERO; 8];
            &mut small[..n]
        } else if n <= 30 {
            medium = [Poly::ZERO; 30];
            &mut medium[..n]
        } else {
            all = [Poly::ZERO; $crate::params::K_MAX * $crate::params::L_MAX];
            &mut all[..n]
        };
        let mut $rows = $crate::sample::MatrixRows::new($b, $p, $rho, buf);
    };
}
pub(crate) use matrix_rows;

/// SHAKE256 blocks squeezed before RejBoundedPoly's first rejection pass, for ExpandS and
/// [`poly_uniform_eta`] alike: eta = 2 needs ~137 bytes on average (15/16 acceptance, 2 per
/// byte), eta = 4 ~228.
fn eta_first_blocks(eta: crate::params::Eta) -> usize {
    match eta {
        crate::params::Eta::Two => 1,
        crate::params::Eta::Four => 2,
    }
}

/// Writes the 66-byte seed rho' || nonce (or rho'' || nonce) of ExpandS and ExpandMask
/// (FIPS 204 Alg. 33, 34) into `out`: the 64-byte seed, then the nonce as 2 little-endian
/// bytes. In place, into a [`Seeds`] buffer: the prefix is secret.
fn seed_with_nonce(prefix: &[u8; 64], nonce: u16, out: &mut [u8; 66]) {
    out[..64].copy_from_slice(prefix);
    out[64..].copy_from_slice(&nonce.to_le_bytes());
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
    let seed = |nonce: usize, out: &mut [u8; 66]| seed_with_nonce(rhoprime, nonce as u16, out);
    // The squeezed bytes and the padded lanes are secret: wiped before returning.
    let mut scratch = Scratch::new();
    let dest = s1[..p.l].iter_mut().chain(s2[..p.k].iter_mut());
    rej_sample::<B, SHAKE256_RATE, 66>(
        b,
        p.l + p.k,
        seed,
        dest,
        &mut scratch,
        Rejection {
            secrecy: Secrecy::Secret,
            first: eta_first_blocks(p.eta),
            rej: |o: &mut [i32], buf: &[u8]| Checked(b).rej_eta(p.eta, o, buf),
            finish: |_: &mut Poly| {},
        },
    );
    scratch.wipe();
}

/// RejBoundedPoly (FIPS 204 Alg. 31) for one seed rho' || nonce (66 bytes).
pub fn poly_uniform_eta<B: Backend>(
    b: B,
    eta: crate::params::Eta,
    seed: &[u8; 66],
    out: &mut Poly,
) {
    let first = eta_first_blocks(eta);
    let mut buf = [0u8; MAX_FIRST_BYTES];
    rej_fill::<B, SHAKE256_RATE>(b, Secrecy::Secret, seed, out, &mut buf, first, |o, buf| {
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
    let mut buf = [0u8; crate::params::Gamma1::Pow19.poly_z_bytes()];
    let n = gamma1.poly_z_bytes();
    Shake256::digest(b, &[seed], &mut buf[..n]);
    Checked(b).unpack_z(gamma1, out, &buf[..n]);
    // The packed mask polynomial is secret.
    zeroize::Zeroize::zeroize(&mut buf[..]);
}

/// Absorbs the first `w` (4 or 8) seeds into that many sponges and squeezes the first `w`
/// outputs whole (each a multiple of `RATE` bytes, all the same length).
fn squeeze_group<B: Backend, const RATE: usize>(
    b: B,
    w: usize,
    seeds: &[&[u8]; 8],
    outs: &mut [&mut [u8]; 8],
) {
    match w {
        8 => {
            let mut xof = ShakeX8::<B, RATE>::new(b);
            xof.absorb_once(seeds);
            xof.squeeze_blocks(outs);
        }
        4 => {
            let mut xof = ShakeX4::<B, RATE>::new(b);
            xof.absorb_once(&seeds[..4]);
            xof.squeeze_blocks(&mut outs[..4]);
        }
        _ => unreachable!("groups of four or eight"),
    }
}

/// ExpandMask (FIPS 204 Alg. 34): y\[r\] = BitUnpack(H(rho'' || kappa + r, 32 c)), c = 18 or 20.
pub fn expand_mask<B: Backend>(b: B, p: &Params, rhopp: &[u8; 64], kappa: u16, y: &mut [Poly]) {
    let zbytes = p.gamma1.poly_z_bytes();
    let seed =
        |r: usize, out: &mut [u8; 66]| seed_with_nonce(rhopp, kappa.wrapping_add(r as u16), out);
    let mut seed_buf = Seeds::<66>::new();
    let mut buf = [[0u8; MASK_BYTES]; 8];
    let mut r = 0;
    while r < p.l {
        let w = group_width::<B>(p.l - r);
        let real = (p.l - r).min(w);
        if w == 1 {
            seed(r, &mut seed_buf.0[0]);
            Shake256::digest(b, &[&seed_buf.0[0]], &mut buf[0][..zbytes]);
        } else {
            // A short group repeats its last seed in the padded lanes.
            let seeds = seed_buf.fill(|j, s| seed((r + j).min(p.l - 1), s));
            squeeze_group::<B, SHAKE256_RATE>(
                b,
                w,
                &seeds,
                &mut buf.each_mut().map(|x| &mut x[..]),
            );
        }
        for j in 0..real {
            Checked(b).unpack_z(p.gamma1, &mut y[r + j], &buf[j][..zbytes]);
        }
        r += real;
    }
    zeroize::Zeroize::zeroize(buf.as_flattened_mut());
}

/// ExpandMask's polynomials for consecutive nonces `kappa`, `kappa + 1`, ...: Sign_internal
/// (FIPS 204 Alg. 7 line 11) draws attempt i's y from nonces kappa .. kappa + l and then adds
/// l to kappa, so its attempts consume one contiguous stream. Sampled eight (or four) at a
/// time, so no lane of a wide sponge is padding whatever l is; the bytes squeezed ahead are
/// secret and wiped on drop.
pub struct MaskStream<'p, B> {
    b: B,
    p: &'p Params,
    rhopp: [u8; 64],
    /// Nonce of `bytes[0]`.
    first: u16,
    /// Squeezed but not yet used: entries `used..have` of `bytes`.
    bytes: [[u8; MASK_BYTES]; 8],
    have: usize,
    used: usize,
}

/// Bytes squeezed per ExpandMask polynomial: five SHAKE256 blocks, at least the larger
/// packed size (gamma1 = 2^19).
const MASK_BYTES: usize = 5 * SHAKE256_RATE;
const _: () = assert!(MASK_BYTES >= crate::params::Gamma1::Pow19.poly_z_bytes());

impl<B> core::fmt::Debug for MaskStream<'_, B> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("MaskStream { .. }")
    }
}

impl<'p, B: Backend> MaskStream<'p, B> {
    /// The stream for rho'' starting at nonce `kappa`.
    pub fn new(b: B, p: &'p Params, rhopp: &[u8; 64], kappa: u16) -> Self {
        MaskStream {
            b,
            p,
            rhopp: *rhopp,
            first: kappa,
            bytes: [[0; MASK_BYTES]; 8],
            have: 0,
            used: 0,
        }
    }

    /// The next polynomial of the stream: BitUnpack(H(rho'' || nonce, 32 c)) (Alg. 34 line 4).
    pub fn next_into(&mut self, out: &mut Poly) {
        if self.used == self.have {
            self.refill();
        }
        let zbytes = self.p.gamma1.poly_z_bytes();
        Checked(self.b).unpack_z(self.p.gamma1, out, &self.bytes[self.used][..zbytes]);
        self.used += 1;
    }

    fn refill(&mut self) {
        let first = self.first.wrapping_add(self.have as u16);
        // The stream has no end: a whole group of the width the backend prefers.
        let w = group_width::<B>(8);
        let rhopp = &self.rhopp;
        let mut seed_buf = Seeds::<66>::new();
        let seeds = seed_buf.fill(|j, s| seed_with_nonce(rhopp, first.wrapping_add(j as u16), s));
        let mut outs = self.bytes.each_mut().map(|x| &mut x[..]);
        squeeze_group::<B, SHAKE256_RATE>(self.b, w, &seeds, &mut outs);
        self.first = first;
        self.have = w;
        self.used = 0;
    }
}

impl<B> Drop for MaskStream<'_, B> {
    fn drop(&mut self) {
        zeroize::Zeroize::zeroize(self.bytes.as_flattened_mut());
        zeroize::Zeroize::zeroize(&mut self.rhopp[..]);
    }
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
                        for batch in [1, 2, 4, p.k] {
                            let mut buf = [Poly::ZERO; K_MAX * L_MAX];
                            let mut rows = MatrixRows::new(b, &p, &rho, &mut buf[..batch * p.l]);
                            for (r, want) in mat[..p.k].iter().enumerate() {
                                let got = rows.next_row().expect("k rows");
                                assert_eq!(
                                    got,
                                    &want[..p.l],
                                    "{kind} {} row {r} batch {batch}",
                                    p.name
                                );
                            }
                            assert!(rows.next_row().is_none(), "{kind} {}: k rows only", p.name);
                        }
                    }
                }
            });
        }
    }

    #[test]
    fn mask_stream_is_expand_mask_attempt_after_attempt() {
        for kind in crate::backend::BackendKind::available() {
            let any = crate::backend::AnyBackend::new(kind).unwrap();
            crate::with_backend!(any, |b| {
                for p in ALL_PARAMS {
                    let rhopp = [0x3cu8; 64];
                    // Starting near the top of the u16 range too (the nonce wraps as in Alg. 34).
                    for start in [0u16, 65_530] {
                        let mut stream = MaskStream::new(b, &p, &rhopp, start);
                        for attempt in 0..5u16 {
                            let kappa = start.wrapping_add(attempt * p.l as u16);
                            let mut want = [Poly::ZERO; L_MAX];
                            expand_mask(b, &p, &rhopp, kappa, &mut want[..p.l]);
                            for (r, w) in want[..p.l].iter().enumerate() {
                                let mut got = Poly::ZERO;
                                stream.next_into(&mut got);
                                assert_eq!(&got, w, "{kind} {} kappa {kappa} y[{r}]", p.name);
                            }
                        }
                    }
                }
            });
        }
    }
}
