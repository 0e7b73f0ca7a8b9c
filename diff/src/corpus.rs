//! Fuzz seed corpora and regression files.

use crate::check::{Check, FUZZ, generate};
use crate::model::Case;
use crate::source::{ByteSource, Drawn, RecordingSource, RngSource, Source};
use std::path::{Path, PathBuf};

/// A source whose first integer choice is forced (to pick an edge case or the random branch).
struct Forced {
    first: Option<i64>,
    inner: RngSource,
}

impl Source for Forced {
    fn int_in(&mut self, lo: i64, hi: i64) -> Drawn<i64> {
        match self.first.take() {
            Some(v) => Ok(v.clamp(lo, hi)),
            None => self.inner.int_in(lo, hi),
        }
    }
    fn fill(&mut self, out: &mut [u8]) -> Drawn<()> {
        self.inner.fill(out)
    }
}

/// The seed inputs of `check`: every edge case, then `count` random valid inputs, each as the
/// bytes the fuzz target decodes back to that input.
pub fn seeds(check: Check, count: usize, seed: u64) -> Vec<Vec<u8>> {
    let edges = check.edge_cases();
    let mut rng = RngSource::for_check(seed, &format!("corpus/{}", check.name()));
    (0..edges + count)
        .map(|i| {
            // The first choice selects edge case i, or (for i >= edges) the random branch.
            let mut rec = RecordingSource::new(Forced {
                first: Some(i.min(edges) as i64),
                inner: rng.clone(),
            });
            generate(check, FUZZ, &mut rec).expect("an RNG source never runs out");
            let (forced, bytes) = rec.into_parts();
            rng = forced.inner;
            bytes
        })
        .collect()
}

/// Decodes fuzz bytes for `check` exactly as the fuzz target does.
pub fn decode(check: Check, bytes: &[u8]) -> Option<Case> {
    generate(check, FUZZ, &mut ByteSource::new(bytes)).ok()
}

/// Stores `bytes` as a regression input of `check` under `dir/<check>/`, named by a hash of
/// its content. Refuses bytes the target would reject.
pub fn promote(dir: &Path, check: Check, bytes: &[u8]) -> Result<PathBuf, String> {
    if decode(check, bytes).is_none() {
        return Err(format!(
            "these bytes are too short to be a {} input",
            check.name()
        ));
    }
    let mut h = [0u8; 8];
    crate::craft::spec::h256(&[bytes], &mut h);
    let d = dir.join(check.name());
    std::fs::create_dir_all(&d).map_err(|e| format!("{}: {e}", d.display()))?;
    let path = d.join(format!("regression-{}", hex::encode(h)));
    std::fs::write(&path, bytes).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::RngSource;

    /// Recorded seeds decode to exactly the case the generator made, for every check.
    #[test]
    fn seeds_decode_to_what_was_generated() {
        for check in Check::all() {
            let edges = check.edge_cases();
            let seeds = seeds(check, 3, 1);
            assert_eq!(seeds.len(), edges + 3);
            let mut rng = RngSource::for_check(1, &format!("corpus/{}", check.name()));
            for (i, bytes) in seeds.iter().enumerate() {
                let mut forced = Forced {
                    first: Some(i.min(edges) as i64),
                    inner: rng.clone(),
                };
                let want = generate(check, FUZZ, &mut forced).unwrap();
                rng = forced.inner;
                assert!(
                    decode(check, bytes).as_ref() == Some(&want),
                    "{} seed {i} does not decode to itself",
                    check.name()
                );
            }
        }
    }
}
