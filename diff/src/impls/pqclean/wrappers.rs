//! The safe wrappers around PQClean's kernels and entry points: each checks its inputs
//! against the kernel contract (lengths, coefficient bounds) and returns `None` rather than
//! call C out of contract.
#![allow(unsafe_code)]

use super::*;
use mldsa::backend::contract::{self, ANY, Bounds, Contract};
use mldsa::params::{K_MAX, L_MAX, N, Q};

impl CKernels {
    /// `f` on `a` in place (`poly_reduce`, `poly_ntt`, ...).
    pub(super) fn unary(&self, f: PolyFn, mut a: Poly, c: Contract) -> Option<Poly> {
        within(c, &[&a])?;
        // SAFETY: `a` is a valid, aligned, exclusive 256-coefficient polynomial, the layout
        // of the C `poly`, within the kernel's contract (checked above).
        unsafe { f(&mut a) };
        Some(a)
    }

    /// `f` of `a` and `b` (`poly_add`, `poly_use_hint`, ...).
    pub(super) fn binary(&self, f: Poly3Fn, a: &Poly, b: &Poly, c: Contract) -> Option<Poly> {
        within(c, &[a, b])?;
        let mut out = Poly::ZERO;
        // SAFETY: three valid polynomials, the inputs within the contract; the output does
        // not alias the inputs.
        unsafe { f(&mut out, a, b) };
        Some(out)
    }

    /// `f` of `a` into two polynomials (`poly_power2round`, `poly_decompose`).
    pub(super) fn split(&self, f: SplitFn, a: &Poly, c: Contract) -> Option<(Poly, Poly)> {
        within(c, &[a])?;
        let (mut x, mut y) = (Poly::ZERO, Poly::ZERO);
        // SAFETY: three valid, distinct polynomials, the input within the contract.
        unsafe { f(&mut x, &mut y, a) };
        Some((x, y))
    }

    /// `a` packed by `f` into `len` bytes: `f`'s packed size in this table's set, which
    /// every caller takes from `self.params` or a constant of FIPS 204.
    pub(super) fn pack(&self, f: PackFn, a: &Poly, len: usize, c: Contract) -> Option<Vec<u8>> {
        within(c, &[a])?;
        let mut out = vec![0u8; len + 32];
        // SAFETY: `out` has room for the packed size plus slack; `a` is a valid polynomial
        // within the contract.
        unsafe { f(out.as_mut_ptr(), a) };
        out.truncate(len);
        Some(out)
    }

    /// The polynomial `f` unpacks from exactly `len` bytes (`f`'s packed size in this
    /// table's set, from `self.params` or a constant of FIPS 204).
    pub(super) fn unpack(&self, f: UnpackFn, buf: &[u8], len: usize) -> Option<Poly> {
        if buf.len() != len {
            return None;
        }
        // The AVX2 unpackers read up to 14 bytes past the end: give them zero padding.
        let mut padded = buf.to_vec();
        padded.resize(len + 32, 0);
        let mut a = Poly::ZERO;
        // SAFETY: `padded` covers every byte the C code reads; `a` is a valid polynomial.
        unsafe { f(&mut a, padded.as_ptr()) };
        Some(a)
    }

    /// The polynomial `f` samples from a seed of exactly `seed_len` bytes and `nonce`.
    pub(super) fn sample(
        &self,
        f: SampleFn,
        seed: &[u8],
        seed_len: usize,
        nonce: u16,
    ) -> Option<Poly> {
        if seed.len() != seed_len {
            return None;
        }
        let mut a = Poly::ZERO;
        // SAFETY: the seed has the length the C function reads; `a` is valid.
        unsafe { f(&mut a, seed.as_ptr(), nonce) };
        Some(a)
    }

    /// `poly_ntt` in this variant's own order (AVX2: not canonical; the oracle reorders),
    /// which is what the kernel benchmarks time.
    pub fn ntt(&self, a: Poly) -> Option<Poly> {
        self.unary(self.poly_ntt, a, contract::NTT)
    }
    /// `poly_invntt_tomont` on a polynomial in this variant's own order.
    pub fn invntt_tomont(&self, a: Poly) -> Option<Poly> {
        self.unary(self.poly_invntt_tomont, a, contract::INVNTT_TOMONT)
    }
    /// `poly_nttunpack`, AVX2 only: canonical order to the AVX2 order (a permutation: any
    /// values).
    pub fn nttunpack(&self, a: &mut Poly) -> bool {
        match &self.avx2 {
            Some(x) => {
                // SAFETY: a valid, exclusive polynomial; the C code only moves coefficients.
                unsafe { (x.poly_nttunpack)(a) };
                true
            }
            None => false,
        }
    }
    /// `polyvecl_pointwise_acc_montgomery` for this set's L; `None` unless
    /// `a.len() == b.len() == l` and both lie within the contract.
    pub fn pointwise_acc(&self, a: &[Poly], b: &[Poly]) -> Option<Poly> {
        let l = self.params.l;
        if a.len() != l || b.len() != l {
            return None;
        }
        let c = contract::POINTWISE_ACC;
        for (x, y) in a.iter().zip(b) {
            within(c, &[x, y])?;
        }
        let mut w = Poly::ZERO;
        // SAFETY: `a` and `b` hold exactly L contiguous polynomials, the layout of polyvecl.
        unsafe { (self.polyvecl_pointwise_acc_montgomery)(&mut w, a.as_ptr(), b.as_ptr()) };
        Some(w)
    }
    /// `poly_make_hint` as a 0/1 polynomial and its count (AVX2 positions are expanded).
    pub fn make_hint(&self, a0: &Poly, a1: &Poly) -> Option<(Poly, u32)> {
        within(contract::make_hint(self.params.gamma2), &[a0, a1])?;
        let mut h = Poly::ZERO;
        if let Some(f) = self.poly_make_hint {
            // SAFETY: three valid, distinct polynomials, the inputs within the contract.
            let n = unsafe { f(&mut h, a0, a1) };
            return Some((h, n));
        }
        let x = self.avx2.as_ref().expect("every variant has one make_hint");
        let mut pos = [0u8; N];
        // SAFETY: `pos` has N bytes, the most positions there can be.
        let n = unsafe { (x.poly_make_hint)(pos.as_mut_ptr(), a0, a1) };
        for &p in &pos[..(n as usize).min(N)] {
            h.coeffs[usize::from(p)] = 1;
        }
        Some((h, n))
    }
    /// `poly_chknorm`: true iff some |a_i| >= bound; `None` unless the bound lies in
    /// [0, (q-1)/8] and `a` within the contract.
    pub fn chknorm(&self, a: &Poly, bound: i32) -> Option<bool> {
        within(contract::CHKNORM, &[a])?;
        if !(0..=(Q - 1) / 8).contains(&bound) {
            return None;
        }
        // SAFETY: `a` is a valid polynomial, the inputs within the contract.
        Some(unsafe { (self.poly_chknorm)(a, bound) != 0 })
    }
    /// `poly_challenge(c~)`: SampleInBall.
    pub fn challenge(&self, ctilde: &[u8]) -> Option<Poly> {
        if ctilde.len() != self.params.ctilde_bytes() {
            return None;
        }
        let mut c = Poly::ZERO;
        // SAFETY: c~ has CTILDEBYTES bytes.
        unsafe { (self.poly_challenge)(&mut c, ctilde.as_ptr()) };
        Some(c)
    }
    /// `polyvec_matrix_expand(rho)`: k * l polynomials, row-major.
    /// `polyvecl_uniform_gamma1`: ExpandMask (Alg. 34) of rho'' and kappa = l * `nonce` (the C
    /// code's argument is Sign's attempt number), each y[r] from kappa + r mod 2^16.
    pub fn mask_expand(&self, rhopp: &[u8], nonce: u16) -> Option<Vec<Poly>> {
        if rhopp.len() != 64 {
            return None;
        }
        let mut y = vec![Poly::ZERO; self.params.l];
        // SAFETY: `y` holds one polyvecl (L contiguous polynomials); rho'' has the 64 bytes
        // (CRHBYTES) the C function reads.
        unsafe { (self.polyvecl_uniform_gamma1)(y.as_mut_ptr(), rhopp.as_ptr(), nonce) };
        Some(y)
    }
    pub fn matrix_expand(&self, rho: &[u8]) -> Option<Vec<Poly>> {
        if rho.len() != 32 {
            return None;
        }
        let mut mat = vec![Poly::ZERO; self.params.k * self.params.l];
        // SAFETY: `mat` holds K polyvecl of L polynomials each, contiguous; rho has 32 bytes.
        unsafe { (self.polyvec_matrix_expand)(mat.as_mut_ptr(), rho.as_ptr()) };
        Some(mat)
    }
    /// `rej_uniform_avx` on exactly [`AVX2_REJ_UNIFORM_BUFLEN`] bytes (AVX2 only).
    pub fn rej_uniform_avx(&self, buf: &[u8]) -> Option<Vec<i32>> {
        rej_avx(
            self.avx2.as_ref()?.rej_uniform_avx,
            buf,
            AVX2_REJ_UNIFORM_BUFLEN,
        )
    }
    /// `rej_eta_avx` on exactly REJ_UNIFORM_ETA_BUFLEN bytes, that of this set's AVX2 code
    /// (136 for eta = 2, 272 for eta = 4) (AVX2 only).
    pub fn rej_eta_avx(&self, buf: &[u8]) -> Option<Vec<i32>> {
        let len = if self.params.eta.value() == 2 {
            136
        } else {
            272
        };
        rej_avx(self.avx2.as_ref()?.rej_eta_avx, buf, len)
    }
    /// `f1600x4` on four interleaved states (AVX2 only).
    pub fn keccak_x4(&self, states: &mut [u64; 100]) -> bool {
        let Some(x) = &self.avx2 else { return false };
        // The round constants the library's own Keccak uses (FIPS 202 Alg. 5/6).
        let rc = &mldsa::backend::field::KECCAK_RC;
        // The C code loads the state with aligned 256-bit loads.
        #[repr(C, align(32))]
        struct Aligned([u64; 100]);
        let mut a = Aligned(*states);
        // SAFETY: 25 aligned 256-bit lanes (100 u64) and the 24-entry constant table.
        unsafe { (x.f1600x4)(a.0.as_mut_ptr(), rc.as_ptr()) };
        *states = a.0;
        true
    }

    /// The hint bytes `pack_sig` writes for `h` (k polynomials), with c~ and z zero; `None`
    /// unless `h` is k polynomials of 0/1 with at most omega ones (more would make
    /// `pack_sig` write past the signature).
    pub fn pack_hint(&self, h: &[Poly]) -> Option<Vec<u8>> {
        let p = self.params;
        if h.len() != p.k || !h.iter().all(|x| contract::HINT_BITS.holds(&x.coeffs)) {
            return None;
        }
        let ones: usize = h
            .iter()
            .map(|x| x.coeffs.iter().filter(|&&c| c != 0).count())
            .sum();
        if ones > p.omega {
            return None;
        }
        let mut hv = [Poly::ZERO; K_MAX];
        hv[..p.k].copy_from_slice(h);
        let z = [Poly::ZERO; L_MAX];
        let c = [0u8; 64];
        let mut sig = vec![0u8; p.sig_bytes()];
        // SAFETY: sig has CRYPTO_BYTES; c has CTILDEBYTES; z and h hold L and K polynomials.
        unsafe { (self.pack_sig)(sig.as_mut_ptr(), c.as_ptr(), z.as_ptr(), hv.as_ptr()) };
        Some(sig[p.sig_bytes() - p.omega - p.k..].to_vec())
    }
    /// `unpack_sig`'s verdict on a hint encoding (omega + k bytes), and the decoded h.
    pub fn unpack_hint(&self, hint: &[u8]) -> Option<(bool, Vec<Poly>)> {
        let p = self.params;
        if hint.len() != p.omega + p.k {
            return None;
        }
        let mut sig = vec![0u8; p.sig_bytes()];
        sig[p.sig_bytes() - hint.len()..].copy_from_slice(hint);
        let mut c = [0u8; 64];
        let mut z = [Poly::ZERO; L_MAX];
        let mut h = [Poly::ZERO; K_MAX];
        // SAFETY: buffers sized for the largest set; sig has CRYPTO_BYTES.
        let r = unsafe {
            (self.unpack_sig)(c.as_mut_ptr(), z.as_mut_ptr(), h.as_mut_ptr(), sig.as_ptr())
        };
        Some((r == 0, h[..p.k].to_vec()))
    }
    /// `crypto_sign_keypair`: draws xi through getrandom (script it for determinism).
    pub fn keypair(&self) -> (Vec<u8>, Vec<u8>) {
        let mut pk = vec![0u8; self.params.pk_bytes()];
        let mut sk = vec![0u8; self.params.sk_bytes()];
        // SAFETY: buffers have CRYPTO_PUBLICKEYBYTES and CRYPTO_SECRETKEYBYTES.
        let r = unsafe { (self.crypto_sign_keypair)(pk.as_mut_ptr(), sk.as_mut_ptr()) };
        assert_eq!(r, 0, "crypto_sign_keypair cannot fail");
        (pk, sk)
    }
    /// `crypto_sign_signature_ctx`: draws rnd through getrandom. `None` if the C code
    /// refuses (context over 255 bytes) or the secret key does not have the set's length.
    pub fn sign(&self, sk: &[u8], msg: &[u8], ctx: &[u8]) -> Option<Vec<u8>> {
        if sk.len() != self.params.sk_bytes() {
            return None;
        }
        let mut sig = vec![0u8; self.params.sig_bytes()];
        let mut siglen = 0usize;
        // SAFETY: every pointer covers the length passed with it; sk has CRYPTO_SECRETKEYBYTES.
        let r = unsafe {
            (self.crypto_sign_signature_ctx)(
                sig.as_mut_ptr(),
                &mut siglen,
                msg.as_ptr(),
                msg.len(),
                ctx.as_ptr(),
                ctx.len(),
                sk.as_ptr(),
            )
        };
        (r == 0 && siglen == sig.len()).then_some(sig)
    }
    /// `crypto_sign_verify_ctx`: whether it accepts. Any lengths of sig and ctx; a public
    /// key of another length than the set's is rejected here (the C API reads a fixed size),
    /// as every peer's wrapper does.
    pub fn verify(&self, pk: &[u8], msg: &[u8], ctx: &[u8], sig: &[u8]) -> Option<bool> {
        if pk.len() != self.params.pk_bytes() {
            return Some(false);
        }
        // SAFETY: every pointer covers the length passed with it; the C code checks siglen
        // before reading sig; pk has CRYPTO_PUBLICKEYBYTES.
        let r = unsafe {
            (self.crypto_sign_verify_ctx)(
                sig.as_ptr(),
                sig.len(),
                msg.as_ptr(),
                msg.len(),
                ctx.as_ptr(),
                ctx.len(),
                pk.as_ptr(),
            )
        };
        Some(r == 0)
    }
}

/// The values AVX2 rejection kernel `f` keeps from exactly `len` bytes.
fn rej_avx(f: RejFn, buf: &[u8], len: usize) -> Option<Vec<i32>> {
    if buf.len() != len {
        return None;
    }
    let mut padded = buf.to_vec();
    padded.resize(len + 32, 0);
    let mut out = Poly::ZERO;
    // SAFETY: the buffer covers what the C code reads (rej_uniform_avx: REJ_UNIFORM_BUFLEN
    // + 8 bytes); it writes at most N values.
    let n = unsafe { f(out.coeffs.as_mut_ptr(), padded.as_ptr()) } as usize;
    Some(out.coeffs[..n.min(N)].to_vec())
}

/// `Some(())` if every polynomial lies within its input bounds of `c`: the first in
/// `input[0]`, the second in `input[1]` (or `input[0]` where that slot is unused). The C
/// arithmetic has signed-overflow undefined behaviour outside the contract.
fn within(c: Contract, polys: &[&Poly]) -> Option<()> {
    polys
        .iter()
        .enumerate()
        .all(|(i, p)| {
            let b: Bounds = if i == 1 && c.input[1] != ANY {
                c.input[1]
            } else {
                c.input[0]
            };
            b.holds(&p.coeffs)
        })
        .then_some(())
}
