//! What the secret tests look for in a painted stack region (`stack_probe`), and how:
//! byte strings (any window of a chosen width, at any offset), polynomials (runs of
//! consecutive coefficients as the library stores them, `i32` in native byte order, at any
//! 4-byte offset) and 64-bit words (at any 8-byte offset: the lanes of every Keccak state a
//! permutation passes through, as [`keccak_trace`] computes them). Shared by
//! `secret_residue.rs` (KeyGen and Sign whole) and `secret_wipes.rs` (each step
//! alone).
#![allow(dead_code)]

use std::collections::{BTreeMap, HashMap, HashSet};

use mldsa::backend::{AnyBackend, Backend};
use mldsa::params::{Eta, Params};
use mldsa::poly::Poly;
use mldsa::{BackendKind, with_backend};
use sha3::digest::{ExtendableOutput, Update, XofReader};

/// The secrets to look for.
#[derive(Default)]
pub(crate) struct Secrets {
    /// (name, window width in bytes (8 or 16), byte strings).
    pub(crate) bytes: Vec<(&'static str, usize, Vec<Vec<u8>>)>,
    /// (name, coefficients per window, polynomials).
    pub(crate) polys: Vec<(&'static str, usize, Vec<[i32; 256]>)>,
    /// (name, 64-bit words).
    pub(crate) words: Vec<(&'static str, Vec<u64>)>,
}

impl Secrets {
    /// Adds byte strings, matched by any `window`-byte window.
    pub(crate) fn bytes(&mut self, name: &'static str, window: usize, v: Vec<Vec<u8>>) {
        assert!(window == 8 || window == 16, "windows of 8 or 16 bytes");
        self.bytes.push((name, window, v));
    }
    /// Adds polynomials, matched by any run of `run` consecutive coefficients.
    pub(crate) fn polys(&mut self, name: &'static str, run: usize, v: Vec<[i32; 256]>) {
        self.polys.push((name, run, v));
    }
    /// Adds 64-bit words, matched at 8-byte aligned offsets.
    pub(crate) fn words(&mut self, name: &'static str, v: Vec<u64>) {
        self.words.push((name, v));
    }
}

fn key(bytes: &[u8]) -> u128 {
    let mut k = [0u8; 16];
    k[..bytes.len()].copy_from_slice(bytes);
    u128::from_le_bytes(k)
}

/// How many copies of each secret `region` holds. A copy is a run of matching windows (byte
/// strings), the distinct polynomial positions that matching runs imply (polynomials), or a
/// matching word (words). `written`, if given, says which 8-byte words of the region the
/// operation overwrote: a match must lie in those (the rest still holds the paint).
pub(crate) fn search(
    region: &[u8],
    written: Option<&[bool]>,
    s: &Secrets,
) -> BTreeMap<&'static str, usize> {
    let all_written = |at: usize, len: usize| match written {
        None => true,
        Some(w) => (at / 8..(at + len).div_ceil(8)).all(|i| w[i]),
    };
    let mut found: BTreeMap<&'static str, usize> = BTreeMap::new();
    for width in [8, 16] {
        // Window -> (secret, string, offset in it).
        let mut windows: HashMap<u128, (usize, usize, usize)> = HashMap::new();
        for (si, (_, w, strings)) in s.bytes.iter().enumerate() {
            if *w != width {
                continue;
            }
            for (xi, bytes) in strings.iter().enumerate() {
                for (o, win) in bytes.windows(width).enumerate() {
                    windows.entry(key(win)).or_insert((si, xi, o));
                }
            }
        }
        if windows.is_empty() {
            continue;
        }
        let mut prev: Option<(usize, usize, usize)> = None;
        for at in 0..region.len().saturating_sub(width - 1) {
            // The cheap test first: most of the region still holds the paint.
            let hit = all_written(at, width)
                .then(|| windows.get(&key(&region[at..at + width])).copied())
                .flatten();
            if let Some((si, xi, o)) = hit {
                // A continuation of the copy that matched one byte before, or a new copy.
                if prev != Some((si, xi, o.wrapping_sub(1))) {
                    *found.entry(s.bytes[si].0).or_default() += 1;
                }
            }
            prev = hit;
        }
    }
    for (name, run, polys) in &s.polys {
        let bytes = 4 * run;
        let mut chunks: HashMap<Vec<u8>, (usize, usize)> = HashMap::new();
        for (pi, poly) in polys.iter().enumerate() {
            for (ci, c) in poly.chunks_exact(*run).enumerate() {
                let v: Vec<u8> = c.iter().flat_map(|x| x.to_ne_bytes()).collect();
                chunks.entry(v).or_insert((pi, ci));
            }
        }
        let mut copies = HashSet::new();
        for at in (0..region.len().saturating_sub(bytes - 1)).step_by(4) {
            if !all_written(at, bytes) {
                continue;
            }
            if let Some(&(pi, ci)) = chunks.get(&region[at..at + bytes]) {
                // Where the polynomial this run belongs to would start.
                copies.insert((pi, at as isize - (ci * bytes) as isize));
            }
        }
        if !copies.is_empty() {
            *found.entry(name).or_default() += copies.len();
        }
    }
    for (name, words) in &s.words {
        let set: HashSet<u64> = words.iter().copied().collect();
        let n = region
            .chunks_exact(8)
            .enumerate()
            .filter(|&(i, w)| {
                all_written(8 * i, 8) && set.contains(&u64::from_ne_bytes(w.try_into().unwrap()))
            })
            .count();
        if n > 0 {
            *found.entry(name).or_default() += n;
        }
    }
    found
}

pub(crate) fn report(what: &str, found: &BTreeMap<&'static str, usize>) -> String {
    let list: Vec<String> = found.iter().map(|(k, v)| format!("{v} x {k}")).collect();
    format!("{what}: {}", list.join(", "))
}

/// SHAKE256 of the concatenated parts, `n` bytes, by the `sha3` crate.
pub(crate) fn shake256(parts: &[&[u8]], n: usize) -> Vec<u8> {
    let mut h = sha3::Shake256::default();
    for p in parts {
        h.update(p);
    }
    let mut out = vec![0u8; n];
    h.finalize_xof().read(&mut out);
    out
}

/// SHAKE128 of `input`, `n` bytes, by the `sha3` crate.
pub(crate) fn shake128(input: &[u8], n: usize) -> Vec<u8> {
    let mut h = sha3::Shake128::default();
    h.update(input);
    let mut out = vec![0u8; n];
    h.finalize_xof().read(&mut out);
    out
}

/// The seed of ExpandS and ExpandMask (FIPS 204 Alg. 33, 34): `prefix` (rho' or rho'') then
/// the nonce as 2 little-endian bytes.
pub(crate) fn nonce_seed(prefix: &[u8], nonce: u16) -> Vec<u8> {
    [prefix, &nonce.to_le_bytes()].concat()
}

/// RejBoundedPoly (FIPS 204 Alg. 31) of `seed` (rho' || nonce).
pub(crate) fn rej_bounded(eta: Eta, seed: &[u8]) -> [i32; 256] {
    let mut h = sha3::Shake256::default();
    h.update(seed);
    let mut xof = h.finalize_xof();
    let mut out = [0i32; 256];
    let mut n = 0;
    while n < 256 {
        let mut byte = [0u8];
        xof.read(&mut byte);
        for nib in [byte[0] & 15, byte[0] >> 4] {
            let nib = i32::from(nib);
            let v = match eta {
                Eta::Two if nib < 15 => Some(2 - nib % 5),
                Eta::Four if nib < 9 => Some(4 - nib),
                _ => None,
            };
            if let (Some(v), true) = (v, n < 256) {
                out[n] = v;
                n += 1;
            }
        }
    }
    out
}

/// One polynomial of ExpandMask (FIPS 204 Alg. 34 line 4): gamma1 - BitUnpack(H(seed)) for
/// `seed` = rho'' || nonce.
pub(crate) fn mask_poly(p: &Params, seed: &[u8]) -> [i32; 256] {
    let bits = p.gamma1.z_bits();
    let bytes = shake256(&[seed], 256 * bits / 8);
    core::array::from_fn(|i| {
        let mut v = 0u32;
        for b in 0..bits {
            let bit = i * bits + b;
            v |= u32::from((bytes[bit / 8] >> (bit % 8)) & 1) << b;
        }
        p.gamma1.value() - v as i32
    })
}

/// NTT of `a` as `kind` computes it (in its own coefficient order).
pub(crate) fn ntt(kind: BackendKind, a: &[i32; 256]) -> [i32; 256] {
    let mut x = Poly::from_coeffs(*a);
    let any = AnyBackend::new(kind).expect("available");
    with_backend!(any, |b| b.ntt(&mut x));
    x.coeffs
}

/// The round constants of Keccak-f[1600] (FIPS 202 Section 3.2.5).
const RC: [u64; 24] = [
    0x0000000000000001,
    0x0000000000008082,
    0x800000000000808a,
    0x8000000080008000,
    0x000000000000808b,
    0x0000000080000001,
    0x8000000080008081,
    0x8000000000008009,
    0x000000000000008a,
    0x0000000000000088,
    0x0000000080008009,
    0x000000008000000a,
    0x000000008000808b,
    0x800000000000008b,
    0x8000000000008089,
    0x8000000000008003,
    0x8000000000008002,
    0x8000000000000080,
    0x000000000000800a,
    0x800000008000000a,
    0x8000000080008081,
    0x8000000000008080,
    0x0000000080000001,
    0x8000000080008008,
];

/// The rotation offsets of rho (FIPS 202 Table 2), lane (x, y) at x + 5 y.
const ROT: [u32; 25] = [
    0, 1, 62, 28, 27, 36, 44, 6, 55, 20, 3, 10, 43, 25, 39, 41, 45, 15, 21, 8, 18, 2, 61, 56, 14,
];

/// One round of Keccak-f[1600] (FIPS 202 Algorithm 7), plainly, pushing onto `mid` the
/// values a permutation computes inside the round, which a SIMD permutation may spill to
/// its frame: each column's parity of its first three lanes (a three-way xor's result) and
/// of all five (theta's C), theta's D, every lane after theta and every lane after rho and
/// pi.
fn round(a: &mut [u64; 25], rc: u64, mid: &mut Vec<u64>) {
    mid.extend((0..5).map(|x| a[x] ^ a[x + 5] ^ a[x + 10]));
    let c: [u64; 5] = core::array::from_fn(|x| a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20]);
    mid.extend_from_slice(&c);
    for x in 0..5 {
        let d = c[(x + 4) % 5] ^ c[(x + 1) % 5].rotate_left(1);
        mid.push(d);
        for y in 0..5 {
            a[x + 5 * y] ^= d;
        }
    }
    mid.extend_from_slice(a);
    let mut b = [0u64; 25];
    for x in 0..5 {
        for y in 0..5 {
            b[y + 5 * ((2 * x + 3 * y) % 5)] = a[x + 5 * y].rotate_left(ROT[x + 5 * y]);
        }
    }
    mid.extend_from_slice(&b);
    for x in 0..5 {
        for y in 0..5 {
            a[x + 5 * y] = b[x + 5 * y] ^ (!b[(x + 1) % 5 + 5 * y] & b[(x + 2) % 5 + 5 * y]);
        }
    }
    a[0] ^= rc;
}

/// Keccak-f[1600], pushing the values inside every round and the state after it onto
/// `states`, and the output's column parities (which a permutation that carries them from
/// round to round has computed at the end).
fn permute(a: &mut [u64; 25], states: &mut Vec<u64>) {
    for rc in RC {
        round(a, rc, states);
        states.extend_from_slice(a);
    }
    states.extend((0..5).map(|x| a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20]));
}

/// A SHAKE sponge run in the open: `(output, lanes)` for SHAKE with `rate` bytes over
/// `input`, `blocks` blocks squeezed, where `lanes` holds every lane of every state the
/// permutations passed through (after each of their rounds, and the values inside each
/// round: `round`) that looks random (between 12 and 52 bits set: a lane of zeroes or of the
/// padding is no secret). Checked against the
/// `sha3` crate, so a wrong reference cannot make a test pass vacuously.
pub(crate) fn keccak_trace(rate: usize, input: &[u8], blocks: usize) -> (Vec<u8>, Vec<u64>) {
    let mut a = [0u64; 25];
    let mut states = Vec::new();
    let mut padded = input.to_vec();
    padded.push(0x1f);
    padded.resize(padded.len().div_ceil(rate) * rate, 0);
    *padded.last_mut().unwrap() |= 0x80;
    for block in padded.chunks_exact(rate) {
        for (lane, w) in a.iter_mut().zip(block.chunks_exact(8)) {
            *lane ^= u64::from_le_bytes(w.try_into().unwrap());
        }
        permute(&mut a, &mut states);
    }
    let mut out = Vec::new();
    for i in 0..blocks {
        if i > 0 {
            permute(&mut a, &mut states);
        }
        out.extend(a[..rate / 8].iter().flat_map(|l| l.to_le_bytes()));
    }
    let want = match rate {
        136 => shake256(&[input], out.len()),
        168 => shake128(input, out.len()),
        _ => panic!("SHAKE128 or SHAKE256"),
    };
    assert_eq!(out, want, "the Keccak reference agrees with the sha3 crate");
    states.retain(|w| (12..=52).contains(&w.count_ones()));
    (out, states)
}
