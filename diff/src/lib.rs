//! The differential harness for `mldsa`: decides, for any input, whether every
//! implementation agrees — each backend of the crate and the PQClean C code that
//! `pqcrypto-mldsa` ships (clean everywhere, AVX2 on x86_64, aarch64 on aarch64) — and says
//! precisely where they do not.
//!
//! * [`check`]: the checks (one per kernel variant, one per end-to-end operation and
//!   parameter set), their contracts and input generators.
//! * [`oracle`]: the [`oracle::Oracle`] trait and its Rust and C implementations.
//! * [`runner`]: the seeded run with its table and mismatch reports, and replay.
//! * [`rng`]: the workspace's getrandom provider, scripting the C code's randomness.

pub mod check;
pub mod e2e;
pub mod oracle;
pub mod pqclean;
pub mod rng;
pub mod runner;
pub mod source;

pub use check::{Case, Check};
pub use oracle::{Oracle, Output};

/// Replays raw fuzz bytes for `check` through every available implementation and panics
/// (with the report) on any disagreement. What each fuzz target calls. Inputs too short to
/// decode return `false` (reject them).
pub fn fuzz_one(check: Check, data: &[u8], oracles: &[Box<dyn Oracle>]) -> bool {
    let Ok(case) = check::generate(check, usize::MAX, &mut source::ByteSource::new(data)) else {
        return false;
    };
    let rows = runner::replay(check, &case, oracles).unwrap_or_else(|e| panic!("{e}"));
    for r in &rows {
        if let Some(d) = &r.difference {
            panic!(
                "{}: {} disagrees with the reference at {} index {}: {} vs {}\ninput: {}",
                check.name(),
                r.implementation,
                d.field,
                d.index,
                d.reference,
                d.other,
                serde_json::to_string(&case).unwrap_or_default()
            );
        }
    }
    true
}
