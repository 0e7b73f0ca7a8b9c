//! Shared body of the fuzz targets: each target is one line naming its `mldsa-diff` check.
//! The bytes go to `mldsa_diff::fuzz_one`, the same decoding and comparison that
//! `mldsa-diff replay` applies to an artifact, so every crash replays without libFuzzer.

pub use libfuzzer_sys;
pub use mldsa_diff;

/// Defines the fuzz target for the check named `$name`.
#[macro_export]
macro_rules! target {
    ($name:literal) => {
        static STATE: std::sync::OnceLock<(
            $crate::mldsa_diff::Check,
            Vec<Box<dyn $crate::mldsa_diff::Oracle>>,
        )> = std::sync::OnceLock::new();

        $crate::libfuzzer_sys::fuzz_target!(|data: &[u8]| -> $crate::libfuzzer_sys::Corpus {
            let (check, oracles) = STATE.get_or_init(|| {
                let check = $crate::mldsa_diff::Check::from_name($name).expect("a check of mldsa-diff");
                (check, $crate::mldsa_diff::fuzz_oracles(check))
            });
            if $crate::mldsa_diff::fuzz_one(*check, data, oracles) {
                $crate::libfuzzer_sys::Corpus::Keep
            } else {
                $crate::libfuzzer_sys::Corpus::Reject
            }
        });
    };
}
