//! Where a check's input choices come from. The same generator code draws from a seeded
//! RNG (`mldsa-diff check`) or from raw fuzz bytes (fuzz targets, `mldsa-diff replay` of an
//! artifact); running out of fuzz bytes rejects the input instead of inventing data.

use rand::{Rng, RngCore, SeedableRng};
use rand_chacha::ChaCha20Rng;

/// The input ran out of bytes: not a usable case.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Exhausted;

/// A value drawn from a [`Source`], or [`Exhausted`].
pub type Drawn<T> = Result<T, Exhausted>;

/// A source of choices for input generators.
pub trait Source {
    /// A uniform integer in `[lo, hi]` (inclusive).
    fn int_in(&mut self, lo: i64, hi: i64) -> Drawn<i64>;
    /// Fills `out` with bytes.
    fn fill(&mut self, out: &mut [u8]) -> Drawn<()>;

    /// True with probability about `num / den`.
    fn chance(&mut self, num: u32, den: u32) -> Drawn<bool> {
        Ok(self.int_in(0, i64::from(den) - 1)? < i64::from(num))
    }
    /// `n` bytes.
    fn bytes(&mut self, n: usize) -> Drawn<Vec<u8>> {
        let mut v = vec![0u8; n];
        self.fill(&mut v)?;
        Ok(v)
    }
}

/// A seeded ChaCha20 stream: never exhausted.
#[derive(Debug, Clone)]
pub struct RngSource(ChaCha20Rng);

impl RngSource {
    /// The stream for one check: SHAKE256("mldsa-diff" || seed || check name) keys it, so
    /// each check's inputs depend only on the seed and the check, not on what else runs.
    /// The `sha3` crate computes it, not the library under test: a broken Keccak there (a
    /// mutant) must fail the checks, not change or stall the inputs they draw.
    pub fn for_check(seed: u64, check: &str) -> Self {
        let mut key = [0u8; 32];
        crate::craft::spec::h256(
            &[b"mldsa-diff", &seed.to_le_bytes(), check.as_bytes()],
            &mut key,
        );
        RngSource(ChaCha20Rng::from_seed(key))
    }
}

impl Source for RngSource {
    fn int_in(&mut self, lo: i64, hi: i64) -> Drawn<i64> {
        Ok(self.0.gen_range(lo..=hi))
    }
    fn fill(&mut self, out: &mut [u8]) -> Drawn<()> {
        self.0.fill_bytes(out);
        Ok(())
    }
}

/// The bytes [`ByteSource`] reads for a choice among `span + 1` values.
fn width(span: u64) -> usize {
    ((64 - span.leading_zeros()) as usize).div_ceil(8).max(1)
}

/// Raw bytes (a fuzz input) read front to back.
#[derive(Debug)]
pub struct ByteSource<'a> {
    data: &'a [u8],
}

impl<'a> ByteSource<'a> {
    /// Reads choices from `data`.
    pub fn new(data: &'a [u8]) -> Self {
        ByteSource { data }
    }
    fn take(&mut self, n: usize) -> Drawn<&'a [u8]> {
        let (head, rest) = self.data.split_at_checked(n).ok_or(Exhausted)?;
        self.data = rest;
        Ok(head)
    }
}

impl Source for ByteSource<'_> {
    fn int_in(&mut self, lo: i64, hi: i64) -> Drawn<i64> {
        let span = (hi - lo) as u64;
        // As few bytes as the range needs, little-endian, reduced into the range.
        let n = width(span);
        let mut le = [0u8; 8];
        le[..n].copy_from_slice(self.take(n)?);
        let v = u64::from_le_bytes(le);
        Ok(if span == u64::MAX {
            v as i64
        } else {
            lo + (v % (span + 1)) as i64
        })
    }
    fn fill(&mut self, out: &mut [u8]) -> Drawn<()> {
        out.copy_from_slice(self.take(out.len())?);
        Ok(())
    }
}

/// Wraps a source and records every choice as the bytes [`ByteSource`] decodes back to the
/// same choice: how `mldsa-diff corpus` turns generated cases into fuzz seed inputs.
#[derive(Debug)]
pub struct RecordingSource<S> {
    inner: S,
    /// The bytes recorded so far.
    pub bytes: Vec<u8>,
}

impl<S: Source> RecordingSource<S> {
    /// Records the choices `inner` makes.
    pub fn new(inner: S) -> Self {
        RecordingSource {
            inner,
            bytes: Vec::new(),
        }
    }
    /// The wrapped source and the recorded bytes.
    pub fn into_parts(self) -> (S, Vec<u8>) {
        (self.inner, self.bytes)
    }
}

impl<S: Source> Source for RecordingSource<S> {
    fn int_in(&mut self, lo: i64, hi: i64) -> Drawn<i64> {
        let v = self.inner.int_in(lo, hi)?;
        let n = width((hi - lo) as u64);
        self.bytes
            .extend_from_slice(&((v - lo) as u64).to_le_bytes()[..n]);
        Ok(v)
    }
    fn fill(&mut self, out: &mut [u8]) -> Drawn<()> {
        self.inner.fill(out)?;
        self.bytes.extend_from_slice(out);
        Ok(())
    }
}
