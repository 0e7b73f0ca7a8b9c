//! Mismatch reports: everything needed to reproduce a disagreement anywhere, built in one
//! place for `check` runs and for replays.

use crate::check::Check;
use crate::model::{Case, Difference, Output};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The version of the report format (bumped when a field changes meaning).
pub const SCHEMA_VERSION: u32 = 2;

/// What a report says about the machine and the build that produced it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BuildInfo {
    /// Git commit of the checkout mldsa-diff was built from (`-dirty` with local changes).
    pub git_commit: String,
    /// Target triple.
    pub target: String,
    /// `rustc --version`.
    pub rustc: String,
    /// Cargo profile (`release`, `debug`).
    pub profile: String,
    /// Whether debug assertions (the kernel contracts' checks) were compiled in.
    pub debug_assertions: bool,
    /// CPU features detected that select a backend or a PQClean variant.
    pub cpu_features: Vec<String>,
    /// The implementations available (the first is the reference).
    pub implementations: Vec<String>,
}

impl BuildInfo {
    /// This build on this machine.
    pub fn here() -> BuildInfo {
        BuildInfo {
            git_commit: env!("MLDSA_DIFF_GIT_COMMIT").to_string(),
            target: env!("MLDSA_DIFF_TARGET").to_string(),
            rustc: env!("MLDSA_DIFF_RUSTC").to_string(),
            profile: env!("MLDSA_DIFF_PROFILE").to_string(),
            debug_assertions: cfg!(debug_assertions),
            cpu_features: cpu_features(),
            implementations: crate::impls::available()
                .iter()
                .map(|o| o.name().to_string())
                .collect(),
        }
    }
}

/// The CPU features that matter to the backends and the C variants.
pub fn cpu_features() -> Vec<String> {
    #[cfg(target_arch = "x86_64")]
    let detected = [
        ("avx2", std::is_x86_feature_detected!("avx2")),
        ("bmi1", std::is_x86_feature_detected!("bmi1")),
        ("bmi2", std::is_x86_feature_detected!("bmi2")),
        ("popcnt", std::is_x86_feature_detected!("popcnt")),
        ("avx512f", std::is_x86_feature_detected!("avx512f")),
    ];
    #[cfg(target_arch = "aarch64")]
    let detected = [
        ("neon", std::arch::is_aarch64_feature_detected!("neon")),
        ("sha3", std::arch::is_aarch64_feature_detected!("sha3")),
    ];
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    let detected: [(&str, bool); 0] = [];
    detected
        .into_iter()
        .filter(|(_, on)| *on)
        .map(|(name, _)| name.to_string())
        .collect()
}

/// A mismatch report.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Report {
    /// [`SCHEMA_VERSION`] of the program that wrote it (1: before the field existed).
    #[serde(default = "schema_v1")]
    pub schema_version: u32,
    /// What kind of finding: "mismatch" (or "hang").
    #[serde(default = "mismatch")]
    pub kind: String,
    /// Check name.
    pub check: String,
    /// Parameter set whose values the check used.
    pub params: String,
    /// Architecture it was found on.
    pub arch: String,
    /// The reference (or "expected") and the implementation that disagreed.
    pub implementations: Vec<String>,
    /// The exact input.
    pub input: Case,
    /// Both outputs, by implementation name.
    pub outputs: Vec<(String, Output)>,
    /// Where they first differ.
    pub first_difference: Difference,
    /// mldsa-diff version.
    pub crate_version: String,
    /// The seed and case index of the run that found it (0 for replays of fuzz inputs).
    pub seed: u64,
    /// Case index.
    pub case_index: usize,
    /// The command that reproduces it.
    pub reproduce: String,
    /// The build and machine that found it.
    #[serde(default)]
    pub build: BuildInfo,
    /// Which other implementations gave the reference's answer and which gave this one's:
    /// with several independent implementations, whose bug it is.
    #[serde(default)]
    pub witnesses: Witnesses,
}

/// The other implementations' answers to a mismatching input, compared with both sides.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Witnesses {
    /// Implementations whose answer equals the reference's (as the check compares).
    pub same_as_reference: Vec<String>,
    /// Implementations whose answer equals the mismatching one's.
    pub same_as_it: Vec<String>,
}

impl Witnesses {
    /// Judges every other answer (`outputs`: implementation, provenance, answer) against the
    /// reference's, as the judge does (a stated difference counts as agreement), and
    /// compares the rest with `it`'s.
    pub fn of(
        check: Check,
        case: &Case,
        reference: (&str, &Output),
        it: (&str, &Output),
        outputs: &[(&str, crate::model::Provenance, &Output)],
    ) -> Witnesses {
        let mut w = Witnesses::default();
        for &(name, origin, out) in outputs {
            if name == reference.0 || name == it.0 {
                continue;
            }
            let whose = crate::judge::Whose {
                name,
                origin,
                is_reference: false,
            };
            if crate::judge::judge(check, whose, case, reference, out).is_none() {
                w.same_as_reference.push(name.to_string());
            } else if crate::judge::compare(check, it.1, out).is_none() {
                w.same_as_it.push(name.to_string());
            }
        }
        w
    }

    /// "same answer as the reference: a, b; as it: none".
    pub fn describe(&self, it: &str) -> String {
        let list = |v: &[String]| {
            if v.is_empty() {
                "none".to_string()
            } else {
                v.join(", ")
            }
        };
        format!(
            "the reference's answer also from: {}; {it}'s answer also from: {}",
            list(&self.same_as_reference),
            list(&self.same_as_it)
        )
    }
}

fn schema_v1() -> u32 {
    1
}
fn mismatch() -> String {
    "mismatch".into()
}

/// Where a report's input came from.
#[derive(Clone, Debug)]
pub enum Origin<'a> {
    /// Case `index` of a seeded `check` run; the report is written into `dir`.
    Run {
        /// The seed.
        seed: u64,
        /// The case index.
        index: usize,
        /// The report directory.
        dir: &'a Path,
    },
    /// A replayed file.
    Replay(&'a Path),
}

impl Report {
    /// The report of `other` (named) disagreeing with `expected` (named) on `case`.
    pub fn new(
        check: Check,
        case: &Case,
        expected: (&str, &Output),
        other: (&str, &Output),
        difference: &Difference,
        origin: &Origin<'_>,
    ) -> Report {
        let (seed, case_index, reproduce) = match origin {
            Origin::Run { seed, index, dir } => (
                *seed,
                *index,
                replay_command(&dir.join(file_name(&check.name(), other.0, *seed, *index))),
            ),
            Origin::Replay(file) => (
                0,
                0,
                format!(
                    "cargo run --release -p mldsa-diff -- replay --check {} {}",
                    check.name(),
                    file.display()
                ),
            ),
        };
        Report {
            schema_version: SCHEMA_VERSION,
            kind: mismatch(),
            build: BuildInfo::here(),
            check: check.name(),
            params: check.params().name.to_string(),
            arch: std::env::consts::ARCH.to_string(),
            implementations: vec![expected.0.to_string(), other.0.to_string()],
            input: case.clone(),
            outputs: vec![
                (expected.0.to_string(), expected.1.clone()),
                (other.0.to_string(), other.1.clone()),
            ],
            first_difference: difference.clone(),
            crate_version: env!("CARGO_PKG_VERSION").to_string(),
            seed,
            case_index,
            reproduce,
            witnesses: Witnesses::default(),
        }
    }

    /// The report of `implementation` not answering `case` within `limit` (kind "hang"):
    /// the reference's answer (if it gave one) and a harness error for the implementation.
    pub fn hang(
        check: Check,
        case: &Case,
        reference: (&str, &Output),
        implementation: &str,
        limit: std::time::Duration,
        origin: &Origin<'_>,
    ) -> Report {
        let other = crate::model::Fault::Hang {
            implementation: implementation.to_string(),
            millis: limit.as_millis() as u64,
        }
        .output();
        let difference = Difference {
            field: crate::model::Field::Verdict,
            index: 0,
            reference: "an answer".into(),
            other: format!("no answer within {} s", limit.as_secs_f64()),
        };
        Report {
            kind: "hang".into(),
            ..Report::new(
                check,
                case,
                reference,
                (implementation, &other),
                &difference,
                origin,
            )
        }
    }

    /// Writes the report as pretty JSON to `path`.
    pub fn write_to(&self, path: &Path) -> Result<(), String> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        }
        let text = serde_json::to_string_pretty(self).map_err(|e| e.to_string())?;
        std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Writes a run's report into `dir` under its standard name; returns the path.
    pub fn write_into(&self, dir: &Path) -> Result<PathBuf, String> {
        let name = file_name(
            &self.check,
            &self.implementations[1],
            self.seed,
            self.case_index,
        );
        let path = dir.join(name);
        self.write_to(&path)?;
        Ok(path)
    }
}

fn file_name(check: &str, implementation: &str, seed: u64, index: usize) -> String {
    format!("{check}-{implementation}-seed{seed}-case{index}.json")
}

/// The command that replays the report at `path`.
pub fn replay_command(path: &std::path::Path) -> String {
    format!(
        "cargo run --release -p mldsa-diff -- replay {}",
        path.display()
    )
}
