//! The differential harness for `mldsa`: decides, for any input, whether every
//! implementation agrees — each backend of the crate and the PQClean C code that
//! `pqcrypto-mldsa` ships (clean everywhere, AVX2 on x86_64, aarch64 on aarch64) — and says
//! precisely where they do not.
//!
//! * [`check`]: the checks, one definition each in the table of its family (arithmetic,
//!   samplers, packing, Keccak, end to end): contracts, input generators, and one run each,
//!   written against the interface.
//! * [`model`]: inputs, outputs, typed verdicts and differences (a leaf).
//! * [`oracle`]: the one interface every implementation answers ([`oracle::Oracle`]: one
//!   method per kernel and end-to-end operation, "not offered" by default).
//! * [`impls`]: the implementations, one folder or file each (this crate's backends through
//!   one guarded adapter, PQClean, mldsa-native, libcrux, RustCrypto, fips204), and the
//!   registry of those available here.
//! * [`known`]: the stated differences of the other implementations, as data.
//! * [`judge`]: judging one answer against the contract, a stated difference or the reference.
//! * [`report`]: mismatch reports.
//! * [`runner`]: the seeded run with its table and mismatch reports, and replay.
//! * [`rng`]: the workspace's getrandom provider, scripting the C code's randomness.
//! * [`transcript`]: the cross-machine bit-identity digest.

pub mod check;
pub mod ci;
pub mod corpus;
pub mod craft;
pub mod impls;
pub mod judge;
pub mod known;
pub mod listing;
pub mod matrix;
pub mod model;
pub mod oracle;
pub mod replay;
pub mod report;
pub mod rng;
pub mod runner;
pub mod source;
pub mod transcript;
pub mod vectors;

pub use check::Check;
pub use model::{Case, Output, Verdict};
pub use oracle::Oracle;

/// Which implementations a fuzz target compares (`MLDSA_FUZZ_ORACLES`): `fast` (the default)
/// or `all`.
pub const FUZZ_ORACLES_ENV: &str = "MLDSA_FUZZ_ORACLES";

/// Implementations an end-to-end fuzz target leaves out under `fast`: the two slowest Rust
/// peers, and a foreign implementation's portable build where its SIMD build runs here.
/// `scripts/fuzz.sh` replays every target's whole corpus through every implementation after
/// fuzzing it, so no input is compared with fewer implementations than before.
pub const SLOW_FOR_FUZZING: &[(&str, Option<&[&str]>)] = &[
    ("rustcrypto", None),
    ("fips204", None),
    ("c-clean", Some(&["c-avx2", "c-aarch64"])),
    (
        "mldsa-native",
        Some(&["mldsa-native-avx2", "mldsa-native-aarch64"]),
    ),
    ("libcrux-portable", Some(&["libcrux-avx2", "libcrux-neon"])),
];

/// The implementations a fuzz target for `check` compares, after proving the C code's
/// randomness can be scripted (panics with instructions otherwise). Kernel checks: every
/// one available here. End-to-end checks: with `MLDSA_FUZZ_ORACLES=all` every one, by default
/// all but [`SLOW_FOR_FUZZING`] (so libFuzzer explores at several times the speed). Any
/// other value of the variable panics with the accepted ones. Call once per target.
pub fn fuzz_oracles(check: Check) -> Vec<Box<dyn Oracle>> {
    if let Err(e) = rng::require_scripting() {
        panic!("{e}");
    }
    let all = crate::impls::available();
    let fast = match std::env::var(FUZZ_ORACLES_ENV).as_deref() {
        Err(_) | Ok("fast") => true,
        Ok("all") => false,
        Ok(other) => panic!("{FUZZ_ORACLES_ENV}={other:?}: use `fast` (the default) or `all`"),
    };
    if !fast || !check.is_end_to_end() {
        return all;
    }
    let names: Vec<&str> = all.iter().map(|o| o.name()).collect();
    let slow = |n: &str| {
        SLOW_FOR_FUZZING.iter().any(|(s, faster)| {
            *s == n && faster.is_none_or(|f| f.iter().any(|x| names.contains(x)))
        })
    };
    all.into_iter().filter(|o| !slow(o.name())).collect()
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
