//! The differential harness for `mldsa`: decides, for any input, whether every
//! implementation agrees — each backend of the crate and the PQClean C code that
//! `pqcrypto-mldsa` ships (clean everywhere, AVX2 on x86_64, aarch64 on aarch64) — and says
//! precisely where they do not.
//!
//! * [`check`]: the checks, one definition each in the table of its family (arithmetic,
//!   samplers, packing, Keccak, end to end): contracts, input generators, Rust and C runs.
//! * [`model`]: inputs, outputs, typed verdicts and differences (a leaf).
//! * [`kernels`]: an object-safe view of any `mldsa` backend, which the checks call.
//! * [`oracle`]: the [`oracle::Oracle`] trait and its Rust and C implementations.
//! * [`known`]: the stated differences of the C reference, as data.
//! * [`judge`]: judging one answer against the contract, a stated difference or the reference.
//! * [`report`]: mismatch reports.
//! * [`runner`]: the seeded run with its table and mismatch reports, and replay.
//! * [`rng`]: the workspace's getrandom provider, scripting the C code's randomness.
//! * [`transcript`]: the cross-machine bit-identity digest.
//! * [`api_fuzz`]: differential fuzzing of the public API (typed, raw, PQClean).

pub mod api_fuzz;
pub mod check;
pub mod ci;
pub mod corpus;
pub mod craft;
pub mod judge;
pub mod kernels;
pub mod known;
pub mod listing;
pub mod matrix;
pub mod mldsa_native;
pub mod model;
pub mod oracle;
pub mod peers;
pub mod pqclean;
pub mod replay;
pub mod report;
pub mod rng;
pub mod runner;
pub mod source;
pub mod transcript;

pub use check::Check;
pub use model::{Case, Output, Verdict};
pub use oracle::Oracle;

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
