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
//! * [`serve`]: one implementation here spoken to over the oracle protocol.

pub mod check;
pub mod ci;
pub mod corpus;
pub mod craft;
#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
pub mod ctstep;
pub mod exhaustive;
pub mod human;
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
pub mod serve;
pub mod source;
pub mod transcript;
pub mod vectors;

pub use check::Check;
pub use model::{Case, Output, Verdict};
pub use oracle::Oracle;

/// Which implementations a fuzz target compares (`MLDSA_FUZZ_ORACLES`): `fast` (the default)
/// or `all`.
pub const FUZZ_ORACLES_ENV: &str = "MLDSA_FUZZ_ORACLES";

/// The stated time of one ML-DSA-44 signature above which an implementation is too slow for
/// libFuzzer's per-input comparison of an end-to-end check (an interpreted one:
/// dilithium-py states 45 ms).
pub const FUZZ_SLOW_SIGN_US: u32 = 5_000;
/// The same for one kernel call (an implementation in another process pays a pipe round trip
/// per call, a thousand times a kernel's own time here).
pub const FUZZ_SLOW_KERNEL_US: u32 = 20;

/// The implementations `fast` fuzzing compares on `check`, by what each states of its own
/// speed ([`oracle::Speed`]): for a kernel check, every one at most [`FUZZ_SLOW_KERNEL_US`]
/// per call; for an end-to-end check, every one of this crate and, of each other origin (each
/// other process its own), its fastest one here if that is at most [`FUZZ_SLOW_SIGN_US`] (a
/// foreign implementation's portable build is left out where its SIMD build runs, and of the
/// Rust peers only the fastest runs). `scripts/fuzz.sh` replays every target's whole corpus
/// through every implementation after fuzzing it, so no input is compared with fewer of them.
pub fn fast_subset(check: Check, all: Vec<Box<dyn Oracle>>) -> Vec<Box<dyn Oracle>> {
    use model::Provenance;
    if !check.is_end_to_end() {
        return all
            .into_iter()
            .filter(|o| o.speed().kernel_us <= FUZZ_SLOW_KERNEL_US)
            .collect();
    }
    let group = |o: &dyn Oracle| match o.origin() {
        Provenance::Process => o.name().to_string(),
        p => p.describe().to_string(),
    };
    // The fastest of its group: none faster, none as fast listed before it.
    let fastest = |i: usize, o: &dyn Oracle| {
        let us = o.speed().sign_us;
        !all.iter().enumerate().any(|(j, x)| {
            let x_us = x.speed().sign_us;
            group(x.as_ref()) == group(o) && (x_us < us || (x_us == us && j < i))
        })
    };
    let keep: Vec<bool> = all
        .iter()
        .enumerate()
        .map(|(i, o)| {
            o.origin() == Provenance::Ours
                || (o.speed().sign_us <= FUZZ_SLOW_SIGN_US && fastest(i, o.as_ref()))
        })
        .collect();
    all.into_iter()
        .zip(keep)
        .filter_map(|(o, k)| k.then_some(o))
        .collect()
}

/// The implementations a fuzz target for `check` compares, after proving the C code's
/// randomness can be scripted (panics with instructions otherwise): with
/// `MLDSA_FUZZ_ORACLES=all` every one, by default the [`fast_subset`] (so libFuzzer explores
/// at several times the speed). Any other value of the variable panics with the accepted
/// ones. Call once per target.
pub fn fuzz_oracles(check: Check) -> Vec<Box<dyn Oracle>> {
    if let Err(e) = rng::require_scripting() {
        panic!("{e}");
    }
    let all = crate::impls::available();
    match std::env::var(FUZZ_ORACLES_ENV).as_deref() {
        Err(_) | Ok("fast") => fast_subset(check, all),
        Ok("all") => all,
        Ok(other) => panic!("{FUZZ_ORACLES_ENV}={other:?}: use `fast` (the default) or `all`"),
    }
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
