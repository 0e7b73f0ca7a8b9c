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
//! * [`transcript`]: the cross-machine bit-identity digest.

pub mod check;
pub mod corpus;
pub mod e2e;
pub mod oracle;
pub mod pqclean;
pub mod rng;
pub mod runner;
pub mod source;
pub mod transcript;

pub use check::{Case, Check};
pub use oracle::{Oracle, Output};

/// The implementations a fuzz target compares: every one available here, after proving the
/// C code's randomness can be scripted (panics with instructions otherwise). Call once.
pub fn fuzz_oracles() -> Vec<Box<dyn Oracle>> {
    if let Err(e) = rng::require_scripting() {
        panic!("{e}");
    }
    oracle::available()
}

/// What every fuzz target does with its bytes: decode them into an input for `check` (the
/// same decoding `mldsa-diff replay` applies to a fuzz artifact), run every implementation,
/// and panic with the details on any disagreement. Returns `false` for bytes too short to
/// decode, which the target rejects.
pub fn fuzz_one(check: Check, data: &[u8], oracles: &[Box<dyn Oracle>]) -> bool {
    let Ok(case) = check::generate(check, check::FUZZ, &mut source::ByteSource::new(data)) else {
        return false;
    };
    for r in runner::compare_all(check, &case, oracles) {
        if let Some(d) = &r.difference {
            panic!(
                "{}: {} disagrees at {} index {}: expected {} got {}\nreplay: mldsa-diff replay --check {} <this input>",
                check.name(),
                r.implementation,
                d.field,
                d.index,
                d.reference,
                d.other,
                check.name()
            );
        }
    }
    true
}
