//! FIPS 204 verification written a second time, for the crafter alone: plain modular
//! arithmetic on `i64` (no Montgomery form, no kernels of the `mldsa` crate), hashing with
//! the `sha3` crate. Only public data passes through here (public keys, signatures,
//! messages), so nothing here needs to be constant time.
//!
//! It serves two purposes: the crafter computes w1 and c~ with it (so a crafted signature's
//! c~ does not come from the library under test), and [`verify`] with a set of
//! [`Leniency`] flags answers what a verifier with exactly those deviations would say —
//! which is how a known deviation of another implementation is asserted exactly, and how
//! the tests show that each crafted invalid case fails for its one rule and no other.

use mldsa::Params;
use sha3::Shake128;
use sha3::Shake256;
use sha3::digest::{ExtendableOutput, Update, XofReader};

pub const Q: i64 = 8_380_417;
/// Dropped bits of t (FIPS 204 d).
pub const D: u32 = 13;
/// A polynomial, coefficients as plain integers (reduced or centred as each function says).
pub type Poly = [i64; 256];

/// Ways a verifier can deviate from FIPS 204 Alg. 8 (and its decoders), one flag each: the
/// model verifier applies exactly the flags it is given.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Leniency {
    /// No ||z||_inf < gamma1 - beta check (PQClean AVX2: "shortness follows from unpacking").
    pub no_z_bound: bool,
    /// UseHint(1, r) with r0 = 0 gives r1 + 1 (PQClean AVX2's blend on the sign bit); FIPS
    /// 204 Alg. 40 gives r1 - 1 for r0 <= 0.
    pub use_hint_zero_up: bool,
    /// HintBitUnpack without the strictly-increasing index check within a row.
    pub hint_order: bool,
    /// HintBitUnpack without the check that the unused index bytes are zero.
    pub hint_padding: bool,
    /// HintBitUnpack without the count checks (a count below the previous one reads no
    /// index for that row; one above omega reads on into the count bytes).
    pub hint_count: bool,
    /// c~ compared on its first 32 bytes only (FIPS 204's draft used only those).
    pub ctilde_first_32: bool,
    /// A context of more than 255 bytes taken, its length encoded modulo 256.
    pub ctx_length: bool,
}

/// SHAKE256 of the concatenation of `parts`, as many bytes as `out` holds (FIPS 204 H),
/// by the `sha3` crate: never this crate's own Keccak, so a broken library (a mutant, a
/// planted fault) changes what is checked, never what the harness draws or stores.
pub(crate) fn h256(parts: &[&[u8]], out: &mut [u8]) {
    let mut x = Shake256::default();
    for p in parts {
        x.update(p);
    }
    x.finalize_xof().read(out);
}

fn pow_mod(mut b: i64, mut e: u32) -> i64 {
    let mut r = 1;
    b %= Q;
    while e > 0 {
        if e & 1 == 1 {
            r = r * b % Q;
        }
        b = b * b % Q;
        e >>= 1;
    }
    r
}

/// zeta^brv8(k) for k in 0..256, zeta = 1753 (FIPS 204 Appendix B).
fn zetas() -> [i64; 256] {
    core::array::from_fn(|k| pow_mod(1753, u32::from((k as u8).reverse_bits())))
}

/// NTT (Alg. 41), on coefficients in any representation; output in [0, q).
pub fn ntt(a: &Poly) -> Poly {
    let z = zetas();
    let mut w = a.map(|x| x.rem_euclid(Q));
    let (mut m, mut len) = (0, 128);
    while len >= 1 {
        let mut start = 0;
        while start < 256 {
            m += 1;
            for j in start..start + len {
                let t = z[m] * w[j + len] % Q;
                w[j + len] = (w[j] - t).rem_euclid(Q);
                w[j] = (w[j] + t) % Q;
            }
            start += 2 * len;
        }
        len /= 2;
    }
    w
}

/// Inverse NTT (Alg. 42); output in [0, q).
pub fn inv_ntt(a: &Poly) -> Poly {
    let z = zetas();
    let mut w = a.map(|x| x.rem_euclid(Q));
    let (mut m, mut len) = (256, 1);
    while len < 256 {
        let mut start = 0;
        while start < 256 {
            m -= 1;
            let zeta = Q - z[m];
            for j in start..start + len {
                let t = w[j];
                w[j] = (t + w[j + len]) % Q;
                w[j + len] = zeta * (t - w[j + len]).rem_euclid(Q) % Q;
            }
            start += 2 * len;
        }
        len *= 2;
    }
    w.map(|x| x * 8_347_681 % Q)
}

/// RejNTTPoly (Alg. 30) of rho || s || r: entry (r, s) of A-hat (ExpandA, Alg. 32).
pub(super) fn rej_ntt_poly(rho: &[u8], r: usize, s: usize) -> Poly {
    let mut x = Shake128::default();
    x.update(rho);
    x.update(&[s as u8, r as u8]);
    let mut rd = x.finalize_xof();
    let mut a = [0; 256];
    let mut j = 0;
    while j < 256 {
        let mut b = [0u8; 3];
        rd.read(&mut b);
        let v = i64::from(b[0]) | i64::from(b[1]) << 8 | i64::from(b[2] & 0x7f) << 16;
        if v < Q {
            a[j] = v;
            j += 1;
        }
    }
    a
}

/// SampleInBall (Alg. 29) on all of c~.
pub fn sample_in_ball(p: &Params, ctilde: &[u8]) -> Poly {
    let mut x = Shake256::default();
    x.update(ctilde);
    let mut rd = x.finalize_xof();
    let mut s = [0u8; 8];
    rd.read(&mut s);
    let signs = u64::from_le_bytes(s);
    let mut c = [0; 256];
    for i in 256 - p.tau..256 {
        let j = loop {
            let mut b = [0u8; 1];
            rd.read(&mut b);
            if usize::from(b[0]) <= i {
                break usize::from(b[0]);
            }
        };
        c[i] = c[j];
        c[j] = 1 - 2 * ((signs >> (i + p.tau - 256)) & 1) as i64;
    }
    c
}

/// Decompose (Alg. 36): (r1, r0) with r0 in (-gamma2, gamma2] (or the q - 1 special case).
pub fn decompose(p: &Params, r: i64) -> (i64, i64) {
    let g2 = i64::from(p.gamma2.value());
    let r = r.rem_euclid(Q);
    let mut r0 = r % (2 * g2);
    if r0 > g2 {
        r0 -= 2 * g2;
    }
    if r - r0 == Q - 1 {
        (0, r0 - 1)
    } else {
        ((r - r0) / (2 * g2), r0)
    }
}

/// UseHint (Alg. 40), with the r0 = 0 deviation if asked.
pub fn use_hint(p: &Params, h: bool, r: i64, lenient: Leniency) -> i64 {
    let m = i64::from(p.gamma2.m());
    let (r1, r0) = decompose(p, r);
    if !h {
        r1
    } else if r0 > 0 || (lenient.use_hint_zero_up && r0 == 0) {
        (r1 + 1).rem_euclid(m)
    } else {
        (r1 - 1).rem_euclid(m)
    }
}

/// w1Encode (Alg. 28).
pub fn w1_encode(p: &Params, w1: &[Poly]) -> Vec<u8> {
    let bits = p.gamma2.w1_bits();
    let mut out = Vec::new();
    for poly in w1 {
        pack_bits(poly.iter().map(|&c| c as u32), bits, &mut out);
    }
    out
}

pub(super) fn pack_bits(values: impl Iterator<Item = u32>, bits: usize, out: &mut Vec<u8>) {
    let (mut acc, mut n) = (0u64, 0);
    for v in values {
        acc |= u64::from(v) << n;
        n += bits;
        while n >= 8 {
            out.push(acc as u8);
            acc >>= 8;
            n -= 8;
        }
    }
}

/// `v` or `-v` as bit `i` of `bits` (little-endian) is 1 or 0.
pub(super) fn signed(bits: &[u8], i: usize, v: i64) -> i64 {
    if bits[i / 8] >> (i % 8) & 1 == 1 {
        v
    } else {
        -v
    }
}

fn unpack_bits(bytes: &[u8], bits: usize) -> Vec<u32> {
    let (mut acc, mut n, mut out) = (0u64, 0, Vec::new());
    for &b in bytes {
        acc |= u64::from(b) << n;
        n += 8;
        while n >= bits {
            out.push((acc & ((1 << bits) - 1)) as u32);
            acc >>= bits;
            n -= bits;
        }
    }
    out
}

/// BitPack(z, gamma1 - 1, gamma1) of each polynomial (Alg. 17, in sigEncode).
pub fn pack_z(p: &Params, z: &[Poly]) -> Vec<u8> {
    let g1 = i64::from(p.gamma1.value());
    let mut out = Vec::new();
    for poly in z {
        pack_bits(
            poly.iter().map(|&c| (g1 - c) as u32),
            p.gamma1.z_bits(),
            &mut out,
        );
    }
    out
}

/// The first `n` polynomials of `bits`-bit coefficients in `bytes` (BitUnpack's layout, 32 *
/// `bits` bytes each), each coefficient mapped by `f`.
pub(super) fn unpack(bytes: &[u8], bits: usize, n: usize, f: impl Fn(i64) -> i64) -> Vec<Poly> {
    bytes
        .chunks(32 * bits)
        .take(n)
        .map(|c| {
            let v = unpack_bits(c, bits);
            core::array::from_fn(|i| f(i64::from(v[i])))
        })
        .collect()
}

/// The inverse of [`pack_z`]: centred coefficients in [-gamma1 + 1, gamma1].
pub fn unpack_z(p: &Params, bytes: &[u8]) -> Vec<Poly> {
    let g1 = i64::from(p.gamma1.value());
    unpack(bytes, p.gamma1.z_bits(), p.l, |v| g1 - v)
}

/// HintBitPack (Alg. 20) of the hint indices of each row, as given (at most omega in all).
pub(super) fn hint_pack(p: &Params, rows: &[Vec<u8>]) -> Vec<u8> {
    let mut y = vec![0u8; p.omega + p.k];
    let mut at = 0;
    for (i, r) in rows.iter().enumerate() {
        y[at..at + r.len()].copy_from_slice(r);
        at += r.len();
        y[p.omega + i] = at as u8;
    }
    y
}

/// HintBitUnpack (Alg. 21), with the decoder deviations asked for: the hint set per row, or
/// `None` (FIPS 204's bottom).
pub fn hint_unpack(p: &Params, y: &[u8], lenient: Leniency) -> Option<Vec<[bool; 256]>> {
    let (omega, k) = (p.omega, p.k);
    let mut h = vec![[false; 256]; k];
    let mut index = 0usize;
    for (i, row) in h.iter_mut().enumerate() {
        let count = usize::from(y[omega + i]);
        if !lenient.hint_count && (count < index || count > omega) {
            return None;
        }
        let first = index;
        while index < count {
            // A lenient count reads on into the count bytes, never past the hint field.
            let at = *y.get(index)?;
            if !lenient.hint_order && index > first && y[index - 1] >= at {
                return None;
            }
            row[usize::from(at)] = true;
            index += 1;
        }
    }
    if !lenient.hint_padding && y[index.min(omega)..omega].iter().any(|&b| b != 0) {
        return None;
    }
    Some(h)
}

/// M' of pure ML-DSA (Alg. 3 line 5), or `None` for a context over 255 bytes unless the
/// deviation that encodes its length modulo 256 is asked for.
pub fn pure_m_prime(msg: &[u8], ctx: &[u8], lenient: Leniency) -> Option<Vec<u8>> {
    if ctx.len() > 255 && !lenient.ctx_length {
        return None;
    }
    Some([&[0, ctx.len() as u8], ctx, msg].concat())
}

/// w' = NTT^-1(A-hat o NTT(z) - NTT(c) o NTT(t1 2^d)) (Alg. 8 line 9), in [0, q).
pub fn w_approx(p: &Params, rho: &[u8], t1: &[Poly], c: &Poly, z: &[Poly]) -> Vec<Poly> {
    let z_hat: Vec<Poly> = z.iter().map(ntt).collect();
    let c_hat = ntt(c);
    (0..p.k)
        .map(|r| {
            let mut acc = [0i64; 256];
            for (s, zs) in z_hat.iter().enumerate() {
                let a = rej_ntt_poly(rho, r, s);
                for i in 0..256 {
                    acc[i] = (acc[i] + a[i] * zs[i]) % Q;
                }
            }
            let t_hat = ntt(&t1[r].map(|x| x << D));
            for i in 0..256 {
                acc[i] = (acc[i] - c_hat[i] * t_hat[i] % Q).rem_euclid(Q);
            }
            inv_ntt(&acc)
        })
        .collect()
}

/// c~ = H(mu || w1Encode(UseHint(h, w')), lambda/4) (Alg. 8 lines 10-12).
pub fn challenge(
    p: &Params,
    mu: &[u8; 64],
    h: &[[bool; 256]],
    w: &[Poly],
    lenient: Leniency,
) -> Vec<u8> {
    let w1: Vec<Poly> = w
        .iter()
        .zip(h)
        .map(|(wr, hr)| core::array::from_fn(|i| use_hint(p, hr[i], wr[i], lenient)))
        .collect();
    let mut ct = vec![0u8; p.ctilde_bytes()];
    h256(&[mu, &w1_encode(p, &w1)], &mut ct);
    ct
}

/// mu = H(H(pk, 64) || M', 64) (Alg. 8 lines 6-7).
pub fn mu(pk: &[u8], m_prime: &[u8]) -> [u8; 64] {
    let mut tr = [0u8; 64];
    h256(&[pk], &mut tr);
    let mut mu = [0u8; 64];
    h256(&[&tr, m_prime], &mut mu);
    mu
}

/// pkDecode's t1 (Alg. 23).
pub fn t1_of(p: &Params, pk: &[u8]) -> Vec<Poly> {
    unpack(&pk[32..], 10, p.k, |v| v)
}

/// Verify (Alg. 3 and 8) of pure ML-DSA, as a verifier with exactly the deviations in
/// `lenient` answers.
pub fn verify(
    p: &Params,
    pk: &[u8],
    msg: &[u8],
    ctx: &[u8],
    sig: &[u8],
    lenient: Leniency,
) -> bool {
    pure_m_prime(msg, ctx, lenient).is_some_and(|m| verify_internal(p, pk, &m, sig, lenient))
}

/// Verify_internal (Alg. 8) on M', with the deviations in `lenient`.
pub fn verify_internal(
    p: &Params,
    pk: &[u8],
    m_prime: &[u8],
    sig: &[u8],
    lenient: Leniency,
) -> bool {
    if pk.len() != p.pk_bytes() || sig.len() != p.sig_bytes() {
        return false;
    }
    let cb = p.ctilde_bytes();
    let zb = p.l * p.gamma1.poly_z_bytes();
    let (ctilde, rest) = sig.split_at(cb);
    let (zbytes, hint) = rest.split_at(zb);
    let z = unpack_z(p, zbytes);
    let Some(h) = hint_unpack(p, hint, lenient) else {
        return false;
    };
    let bound = i64::from(p.gamma1.value() - p.beta);
    if !lenient.no_z_bound && z.iter().flatten().any(|c| c.abs() >= bound) {
        return false;
    }
    let c = sample_in_ball(p, ctilde);
    let w = w_approx(p, &pk[..32], &t1_of(p, pk), &c, &z);
    let expect = challenge(p, &mu(pk, m_prime), &h, &w, lenient);
    let n = if lenient.ctilde_first_32 {
        32.min(cb)
    } else {
        cb
    };
    expect[..n] == ctilde[..n]
}

/// HashML-DSA's M' (Alg. 4 line 23) given the digest: `None` for a context over 255 bytes or
/// a digest whose length is not the function's. The OIDs (2.16.840.1.101.3.4.2.x) and output
/// lengths are written here from NIST's registry, not taken from the library.
pub fn prehash_m_prime(ph: mldsa::prehash::PreHash, digest: &[u8], ctx: &[u8]) -> Option<Vec<u8>> {
    use mldsa::prehash::PreHash::*;
    let (last, len) = match ph {
        Sha2_256 => (0x01, 32),
        Sha2_384 => (0x02, 48),
        Sha2_512 => (0x03, 64),
        Sha2_224 => (0x04, 28),
        Sha2_512_224 => (0x05, 28),
        Sha2_512_256 => (0x06, 32),
        Sha3_224 => (0x07, 28),
        Sha3_256 => (0x08, 32),
        Sha3_384 => (0x09, 48),
        Sha3_512 => (0x0a, 64),
        Shake128 => (0x0b, 32),
        Shake256 => (0x0c, 64),
    };
    if ctx.len() > 255 || digest.len() != len {
        return None;
    }
    let oid = [
        0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, last,
    ];
    Some([&[1, ctx.len() as u8][..], ctx, &oid, digest].concat())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inverse_ntt_undoes_ntt() {
        let a: Poly = core::array::from_fn(|i| (i as i64 * 7919 + 3) % Q);
        assert_eq!(inv_ntt(&ntt(&a)), a);
    }

    #[test]
    fn ntt_multiplies_negacyclically() {
        // x^255 * x = x^256 = -1 in Z_q[x]/(x^256 + 1).
        let (mut a, mut b) = ([0; 256], [0; 256]);
        a[255] = 1;
        b[1] = 1;
        let (ah, bh) = (ntt(&a), ntt(&b));
        let prod = inv_ntt(&core::array::from_fn(|i| ah[i] * bh[i] % Q));
        let mut want = [0; 256];
        want[0] = Q - 1;
        assert_eq!(prod, want);
    }

    #[test]
    fn decompose_matches_fips_examples() {
        let p = mldsa::ML_DSA_44;
        let g2 = i64::from(p.gamma2.value());
        assert_eq!(decompose(&p, 0), (0, 0));
        assert_eq!(decompose(&p, g2), (0, g2));
        assert_eq!(decompose(&p, g2 + 1), (1, -g2 + 1));
        assert_eq!(decompose(&p, Q - 1), (0, -1));
        assert_eq!(use_hint(&p, true, 0, Leniency::default()), 43);
        let up = Leniency {
            use_hint_zero_up: true,
            ..Leniency::default()
        };
        assert_eq!(use_hint(&p, true, 0, up), 1);
    }
}
