//! SHAKE128/SHAKE256 sponges (FIPS 202) over a backend's Keccak-f[1600] permutation,
//! single-way and 4-way. The permutation is the kernel; this absorb/pad/squeeze logic is
//! shared by every backend.

use crate::backend::{Backend, Checked};

/// SHAKE128 rate in bytes.
pub const SHAKE128_RATE: usize = 168;
/// SHAKE256 rate in bytes.
pub const SHAKE256_RATE: usize = 136;

/// Whether a sponge's state may hold a secret, which decides the permutation it calls: a
/// backend's permutation for possibly secret states wipes the stack it used
/// ([`frame`](crate::backend::frame)); the one for public states need not
/// ([`Backend::keccak_f1600_public`]). Public: ExpandA (from rho), tr = H(pk), mu = H(tr ||
/// M') and everything Verify hashes. Not public: what hashes xi, K or rho', ExpandS,
/// ExpandMask and Sign's H(mu || w1) and SampleInBall (the w1 and c of a rejected attempt
/// are never released).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Secrecy {
    /// The state may hold a secret (the default).
    Secret,
    /// Nothing the state holds is secret.
    Public,
}

/// A SHAKE sponge with rate `RATE` bytes (168 for SHAKE128, 136 for SHAKE256). Its state
/// may be secret (it absorbs seeds and keys): wiped on drop, and `Debug` shows none of it.
/// The state is the first field of a 64-byte aligned struct, so a SIMD permutation's loads
/// of it never straddle a cache line, wherever the sponge lies.
#[derive(Clone)]
#[repr(C, align(64))]
pub struct Shake<B, const RATE: usize> {
    state: [u64; 25],
    pos: usize,
    squeezing: bool,
    secrecy: Secrecy,
    backend: B,
}

/// SHAKE128.
pub type Shake128<B> = Shake<B, SHAKE128_RATE>;
/// SHAKE256.
pub type Shake256<B> = Shake<B, SHAKE256_RATE>;

impl<B: core::fmt::Debug, const RATE: usize> core::fmt::Debug for Shake<B, RATE> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Shake")
            .field("rate", &RATE)
            .field("state", &"<redacted>")
            .field("squeezing", &self.squeezing)
            .field("backend", &self.backend)
            .finish_non_exhaustive()
    }
}

#[allow(
    clippy::integer_division_remainder_used,
    reason = "byte positions in the sponge state (public: they count the bytes absorbed and squeezed) and lengths, divided by the constant 8 (a shift)"
)]
fn xor_byte(state: &mut [u64], pos: usize, byte: u8) {
    state[pos / 8] ^= u64::from(byte) << (8 * (pos % 8));
}

#[allow(
    clippy::integer_division_remainder_used,
    reason = "byte positions in the sponge state (public: they count the bytes absorbed and squeezed) and lengths, divided by the constant 8 (a shift)"
)]
fn get_byte(state: &[u64], pos: usize) -> u8 {
    (state[pos / 8] >> (8 * (pos % 8))) as u8
}

impl<B: Backend, const RATE: usize> Shake<B, RATE> {
    /// An empty sponge whose state may hold a secret.
    pub fn new(backend: B) -> Self {
        Self::with_secrecy(backend, Secrecy::Secret)
    }

    /// An empty sponge, for a state that may hold a secret or not ([`Secrecy`]).
    pub fn with_secrecy(backend: B, secrecy: Secrecy) -> Self {
        Shake {
            state: [0; 25],
            pos: 0,
            squeezing: false,
            secrecy,
            backend,
        }
    }

    fn permute(&mut self) {
        match self.secrecy {
            Secrecy::Secret => Checked(self.backend).keccak_f1600(&mut self.state),
            Secrecy::Public => Checked(self.backend).keccak_f1600_public(&mut self.state),
        }
    }

    /// Absorbs more input.
    ///
    /// # Panics
    /// If called after squeezing started (a programming error).
    #[allow(
        clippy::integer_division_remainder_used,
        reason = "byte positions in the sponge state (public: they count the bytes absorbed and squeezed) and lengths, divided by the constant 8 (a shift)"
    )]
    pub fn absorb(&mut self, mut data: &[u8]) -> &mut Self {
        assert!(!self.squeezing, "absorb after squeeze");
        // Byte-wise up to a lane boundary, then whole lanes, then the tail. Each lane goes
        // from the input straight into the state: no local copy of (maybe secret) input is
        // left to wipe.
        while !data.is_empty() {
            if self.pos.is_multiple_of(8) && data.len() >= 8 && self.pos + 8 <= RATE {
                let lanes = ((RATE - self.pos) / 8).min(data.len() / 8);
                for (i, chunk) in data[..8 * lanes].chunks_exact(8).enumerate() {
                    let lane: [u8; 8] = chunk.try_into().expect("chunks of 8 bytes");
                    self.state[self.pos / 8 + i] ^= u64::from_le_bytes(lane);
                }
                self.pos += 8 * lanes;
                data = &data[8 * lanes..];
            } else {
                xor_byte(&mut self.state, self.pos, data[0]);
                self.pos += 1;
                data = &data[1..];
            }
            if self.pos == RATE {
                self.permute();
                self.pos = 0;
            }
        }
        self
    }

    fn finalize(&mut self) {
        // SHAKE domain separation 1111 then pad10*1.
        xor_byte(&mut self.state, self.pos, 0x1f);
        xor_byte(&mut self.state, RATE - 1, 0x80);
        self.permute();
        self.pos = 0;
        self.squeezing = true;
    }

    /// Squeezes `out.len()` more bytes of output.
    #[allow(
        clippy::integer_division_remainder_used,
        reason = "byte positions in the sponge state (public: they count the bytes absorbed and squeezed) and lengths, divided by the constant 8 (a shift)"
    )]
    pub fn squeeze(&mut self, out: &mut [u8]) {
        if !self.squeezing {
            self.finalize();
        }
        let mut out = out;
        while !out.is_empty() {
            if self.pos == RATE {
                self.permute();
                self.pos = 0;
            }
            if self.pos.is_multiple_of(8) && out.len() >= 8 {
                // Whole lanes while they last.
                let lanes = ((RATE - self.pos) / 8).min(out.len() / 8);
                let (head, rest) = out.split_at_mut(8 * lanes);
                for (i, chunk) in head.chunks_exact_mut(8).enumerate() {
                    chunk.copy_from_slice(&self.state[self.pos / 8 + i].to_le_bytes());
                }
                self.pos += 8 * lanes;
                out = rest;
            } else {
                out[0] = get_byte(&self.state, self.pos);
                self.pos += 1;
                out = &mut out[1..];
            }
        }
    }

    /// One-shot: SHAKE(input parts concatenated) truncated to `out.len()` bytes; the input
    /// may be secret.
    pub fn digest(backend: B, parts: &[&[u8]], out: &mut [u8]) {
        Self::digest_with(backend, Secrecy::Secret, parts, out);
    }

    /// [`Shake::digest`] of input that may be secret or not ([`Secrecy`]).
    pub fn digest_with(backend: B, secrecy: Secrecy, parts: &[&[u8]], out: &mut [u8]) {
        let mut s = Self::with_secrecy(backend, secrecy);
        for p in parts {
            s.absorb(p);
        }
        s.squeeze(out);
    }
}

impl<B, const RATE: usize> Drop for Shake<B, RATE> {
    fn drop(&mut self) {
        zeroize::Zeroize::zeroize(&mut self.state[..]);
    }
}

/// `4 S` SHAKE sponges of the same rate run in lock-step over `S` 4-way states (`S` = 1 or
/// 2; with two, each permutation is the backend's interleaved pair,
/// [`Backend::keccak_f1600_x4x2`]). All inputs have the same length, shorter than one block
/// (ML-DSA's seeds), and are absorbed at once.
/// Like [`Shake`], wiped on drop, `Debug` shows none of the state, and the state is 64-byte
/// aligned.
#[derive(Clone)]
#[repr(C, align(64))]
pub struct ShakeWide<B, const RATE: usize, const S: usize> {
    /// Per 4-way state, interleaved: lane `i` of sponge `4 s + j` is `state[s][4 * i + j]`.
    state: [[u64; 100]; S],
    backend: B,
    secrecy: Secrecy,
    /// The state holds an output block not yet squeezed (right after absorbing).
    ready: bool,
    /// The inputs have been absorbed (squeezing is allowed, absorbing is not).
    absorbed: bool,
}

impl<B: core::fmt::Debug, const RATE: usize, const S: usize> core::fmt::Debug
    for ShakeWide<B, RATE, S>
{
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("ShakeWide")
            .field("rate", &RATE)
            .field("sponges", &(4 * S))
            .field("state", &"<redacted>")
            .field("absorbed", &self.absorbed)
            .field("backend", &self.backend)
            .finish_non_exhaustive()
    }
}

/// Four sponges over one 4-way state.
pub type ShakeX4<B, const RATE: usize> = ShakeWide<B, RATE, 1>;
/// Eight sponges over two 4-way states permuted together.
pub type ShakeX8<B, const RATE: usize> = ShakeWide<B, RATE, 2>;

impl<B: Backend, const RATE: usize, const S: usize> ShakeWide<B, RATE, S> {
    /// `4 S` empty sponges whose states may hold secrets.
    pub fn new(backend: B) -> Self {
        Self::with_secrecy(backend, Secrecy::Secret)
    }

    /// `4 S` empty sponges, for states that may hold secrets or not ([`Secrecy`]).
    pub fn with_secrecy(backend: B, secrecy: Secrecy) -> Self {
        assert!(S == 1 || S == 2, "one or two 4-way states");
        ShakeWide {
            state: [[0; 100]; S],
            backend,
            secrecy,
            ready: false,
            absorbed: false,
        }
    }

    fn permute(&mut self) {
        let kb = Checked(self.backend);
        match (&mut self.state[..], self.secrecy) {
            ([s], Secrecy::Secret) => kb.keccak_f1600_x4(s),
            ([s], Secrecy::Public) => kb.keccak_f1600_x4_public(s),
            ([s0, s1], Secrecy::Secret) => kb.keccak_f1600_x4x2(s0, s1),
            ([s0, s1], Secrecy::Public) => kb.keccak_f1600_x4x2_public(s0, s1),
            _ => unreachable!("one or two 4-way states"),
        }
    }

    /// Absorbs `4 S` equal-length inputs, each shorter than one block, and pads them: the
    /// whole input of each sponge (made with [`ShakeWide::new`], nothing absorbed or squeezed
    /// yet). ML-DSA's wide sponges absorb seeds (34 and 66 bytes) and nothing longer.
    ///
    /// # Panics
    /// If there are not `4 S` inputs, they differ in length, one is `RATE` bytes or longer,
    /// or the sponges were used.
    #[allow(
        clippy::integer_division_remainder_used,
        reason = "byte positions in the sponge state (public: they count the bytes absorbed and squeezed) and lengths, divided by the constant 8 (a shift)"
    )]
    pub fn absorb_once(&mut self, inputs: &[&[u8]]) {
        let len = inputs[0].len();
        assert!(
            inputs.len() == 4 * S && inputs.iter().all(|x| x.len() == len),
            "ShakeWide takes 4 S inputs of equal length"
        );
        assert!(len < RATE, "ShakeWide takes inputs shorter than one block");
        assert!(!self.absorbed, "ShakeWide::absorb_once called twice");
        self.absorbed = true;
        self.ready = true;
        // Each input and its padding go straight into its sponge's lanes of the all-zero
        // state (lane i of sponge j is state[j / 4][4 i + j % 4]): no local copy of the
        // (maybe secret) input is left to wipe.
        for (j, input) in inputs.iter().enumerate() {
            let (st, k) = (&mut self.state[j / 4], j % 4);
            let mut words = input.chunks_exact(8);
            let full = words.len();
            for (i, w) in (&mut words).enumerate() {
                st[4 * i + k] = u64::from_le_bytes(w.try_into().expect("8 bytes"));
            }
            // The last lane: the input's last bytes (fewer than 8), then SHAKE's domain bits
            // and the first padding bit (0x1f); the rate's last bit (0x80) ends the block.
            let tail = words.remainder();
            let mut last = 0x1f << (8 * tail.len());
            for (p, &b) in tail.iter().enumerate() {
                last ^= u64::from(b) << (8 * p);
            }
            st[4 * full + k] = last;
            st[4 * (RATE / 8 - 1) + k] ^= 0x80 << 56;
        }
        self.permute();
    }

    /// Squeezes whole blocks into `4 S` outputs: each `outs[j].len()` must be the same
    /// multiple of `RATE`. The first call returns the first block of output.
    #[allow(
        clippy::integer_division_remainder_used,
        reason = "byte positions in the sponge state (public: they count the bytes absorbed and squeezed) and lengths, divided by the constant 8 (a shift)"
    )]
    pub fn squeeze_blocks(&mut self, outs: &mut [&mut [u8]]) {
        let len = outs[0].len();
        assert!(
            outs.len() == 4 * S && outs.iter().all(|o| o.len() == len),
            "ShakeWide squeezes whole blocks into 4 S outputs"
        );
        assert!(
            self.absorbed,
            "ShakeWide::squeeze_blocks before absorb_once"
        );
        let mut done = 0;
        while done < len {
            // Whole blocks, checked block by block rather than as `len % RATE` up front: at
            // opt-level z LLVM keeps that remainder (and a subtraction loop computing it) as
            // a divide instruction (scripts/ct-divides.sh; the length is public either way).
            assert!(
                len - done >= RATE,
                "ShakeWide squeezes whole blocks into 4 S outputs"
            );
            // Permute only for a block beyond the one absorbing left ready: no permutation
            // is spent on output nobody reads.
            if !self.ready {
                self.permute();
            }
            self.ready = false;
            // Both rates (168, 136) are whole lanes: copy 8 bytes at a time.
            for (j, out) in outs.iter_mut().enumerate() {
                let st = &self.state[j / 4];
                for (w, chunk) in out[done..done + RATE].chunks_exact_mut(8).enumerate() {
                    chunk.copy_from_slice(&st[4 * w + j % 4].to_le_bytes());
                }
            }
            done += RATE;
        }
    }
}

impl<B, const RATE: usize, const S: usize> Drop for ShakeWide<B, RATE, S> {
    fn drop(&mut self) {
        zeroize::Zeroize::zeroize(self.state.as_flattened_mut());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::Portable;
    use sha3::digest::{ExtendableOutput, Update, XofReader};

    fn reference(rate: usize, input: &[u8], n: usize) -> Vec<u8> {
        let mut out = vec![0u8; n];
        if rate == SHAKE128_RATE {
            let mut h = sha3::Shake128::default();
            h.update(input);
            h.finalize_xof().read(&mut out);
        } else {
            let mut h = sha3::Shake256::default();
            h.update(input);
            h.finalize_xof().read(&mut out);
        }
        out
    }

    #[test]
    fn matches_sha3_crate_across_block_boundaries() {
        let input: Vec<u8> = (0..700u32).map(|i| (i * 31 + 7) as u8).collect();
        for len in [0, 1, 7, 8, 9, 135, 136, 137, 167, 168, 169, 300, 700] {
            let mut out = vec![0u8; 600];
            let mut s = Shake128::new(Portable);
            // Absorb in uneven pieces to exercise the lane/byte paths.
            for piece in input[..len].chunks(13) {
                s.absorb(piece);
            }
            s.squeeze(&mut out[..5]);
            s.squeeze(&mut out[5..]);
            assert_eq!(
                out,
                reference(SHAKE128_RATE, &input[..len], 600),
                "shake128 len {len}"
            );
            // Squeezed in uneven pieces too (byte path, lane path, block boundaries).
            let mut s = Shake128::new(Portable);
            s.absorb(&input[..len]);
            for piece in out.chunks_mut(11) {
                s.squeeze(piece);
            }
            assert_eq!(
                out,
                reference(SHAKE128_RATE, &input[..len], 600),
                "shake128 len {len}, squeezed in 11-byte pieces"
            );
            Shake256::digest(Portable, &[&input[..len]], &mut out);
            assert_eq!(
                out,
                reference(SHAKE256_RATE, &input[..len], 600),
                "shake256 len {len}"
            );
        }
    }

    #[test]
    fn x4_matches_single_way() {
        // Every length up to a block (SHAKE256: 136 bytes) that ends a lane or not.
        for len in [0usize, 1, 7, 8, 9, 34, 66, 128, 135] {
            let inputs: Vec<Vec<u8>> = (0..4)
                .map(|j| (0..len).map(|i| (i * 7 + j * 101) as u8).collect())
                .collect();
            let mut x4 = ShakeX4::<_, SHAKE256_RATE>::new(Portable);
            x4.absorb_once(&[&inputs[0], &inputs[1], &inputs[2], &inputs[3]]);
            let mut outs = vec![vec![0u8; 3 * SHAKE256_RATE]; 4];
            {
                let [a, b, c, d] = &mut outs[..] else {
                    unreachable!()
                };
                x4.squeeze_blocks(&mut [
                    &mut a[..SHAKE256_RATE],
                    &mut b[..SHAKE256_RATE],
                    &mut c[..SHAKE256_RATE],
                    &mut d[..SHAKE256_RATE],
                ]);
                x4.squeeze_blocks(&mut [
                    &mut a[SHAKE256_RATE..],
                    &mut b[SHAKE256_RATE..],
                    &mut c[SHAKE256_RATE..],
                    &mut d[SHAKE256_RATE..],
                ]);
            }
            for j in 0..4 {
                assert_eq!(
                    outs[j],
                    reference(SHAKE256_RATE, &inputs[j], 3 * SHAKE256_RATE),
                    "len {len} lane {j}"
                );
            }
        }
    }

    #[test]
    #[should_panic(expected = "shorter than one block")]
    fn wide_inputs_of_a_block_are_refused() {
        let input = [0u8; SHAKE256_RATE];
        ShakeX4::<_, SHAKE256_RATE>::new(Portable).absorb_once(&[&input[..]; 4]);
    }

    #[test]
    fn x8_matches_single_way_on_every_backend() {
        for kind in crate::backend::BackendKind::available() {
            let any = crate::backend::AnyBackend::new(kind).unwrap();
            crate::with_backend!(any, |b| {
                // Up to a block of SHAKE128 (168 bytes).
                for len in [0usize, 1, 7, 8, 9, 34, 66, 135, 136, 160, 167] {
                    let inputs: Vec<Vec<u8>> = (0..8)
                        .map(|j| (0..len).map(|i| (i * 13 + j * 37 + 5) as u8).collect())
                        .collect();
                    let refs: Vec<&[u8]> = inputs.iter().map(|v| v.as_slice()).collect();
                    let mut x8 = ShakeX8::<_, SHAKE128_RATE>::new(b);
                    x8.absorb_once(&refs);
                    let mut outs = vec![vec![0u8; 3 * SHAKE128_RATE]; 8];
                    {
                        let (first, rest): (Vec<_>, Vec<_>) = outs
                            .iter_mut()
                            .map(|o| o.split_at_mut(SHAKE128_RATE))
                            .unzip();
                        let mut first = first;
                        x8.squeeze_blocks(&mut first);
                        let mut rest = rest;
                        x8.squeeze_blocks(&mut rest);
                    }
                    for (j, out) in outs.iter().enumerate() {
                        assert_eq!(
                            out,
                            &reference(SHAKE128_RATE, &inputs[j], 3 * SHAKE128_RATE),
                            "{kind} len {len} lane {j}"
                        );
                    }
                }
            });
        }
    }
}
