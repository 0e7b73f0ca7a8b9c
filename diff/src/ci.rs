//! What CI systems read: the run as JSON or JUnit XML, GitHub annotations and step summary,
//! and the required-implementations guard (a job that must exercise AVX2 fails when AVX2
//! detection is broken, instead of passing on portable and C alone).

use crate::runner::{Config, Summary};
use quick_junit::{NonSuccessKind, Report, TestCase, TestCaseStatus, TestSuite};
use serde_json::json;
use std::io::Write;

/// The environment variable naming implementations a run must have (comma separated):
/// `mldsa-diff check` and the test suites honour it.
pub const REQUIRE_ENV: &str = "MLDSA_REQUIRE_BACKENDS";

/// The names in `list` (comma separated), each the name of an implementation on some
/// machine: else a clear error naming the known ones.
pub fn known_names(list: &str) -> Result<Vec<&str>, String> {
    let known = crate::impls::all_names();
    let wanted: Vec<&str> = list
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect();
    match wanted.iter().find(|w| !known.contains(w)) {
        Some(w) => Err(format!(
            "unknown implementation {w:?}; known: {}",
            known.join(", ")
        )),
        None => Ok(wanted),
    }
}

/// Checks that every implementation in `list` (comma separated Rust backends or C
/// variants, e.g. `avx2,c-avx2`) is available here; a clear error naming the missing ones.
pub fn require(list: &str) -> Result<Vec<String>, String> {
    let available = crate::impls::available_checked()?;
    let here: Vec<&str> = available.iter().map(|o| o.name()).collect();
    let wanted = known_names(list)?;
    let missing: Vec<&str> = wanted
        .iter()
        .copied()
        .filter(|w| !here.contains(w))
        .collect();
    if !missing.is_empty() {
        return Err(format!(
            "required implementation(s) {} not available on this machine ({}; available: {})",
            missing.join(", "),
            std::env::consts::ARCH,
            here.join(", ")
        ));
    }
    Ok(wanted.into_iter().map(String::from).collect())
}

/// [`require`] on the value of [`REQUIRE_ENV`], if set.
pub fn require_from_env() -> Result<Vec<String>, String> {
    match std::env::var(REQUIRE_ENV) {
        Ok(v) => require(&v).map_err(|e| format!("{REQUIRE_ENV}: {e}")),
        Err(_) => Ok(Vec::new()),
    }
}

/// The run as JSON.
pub fn json(config: &Config, summary: &Summary, reference: &str) -> String {
    let rows: Vec<_> = summary
        .rows
        .iter()
        .map(|r| {
            json!({
                "check": r.check, "implementation": r.implementation, "cases": r.cases,
                "mismatches": r.mismatches, "seconds": r.time.as_secs_f64(),
                "reference": r.implementation == reference, "stride": r.stride,
            })
        })
        .collect();
    let mismatches: Vec<_> = summary
        .findings
        .iter()
        .map(|f| {
            let d = &f.difference;
            json!({
                "check": f.check, "implementation": f.implementation, "case": f.case,
                "field": d.field.to_string(), "index": d.index, "reference": d.reference,
                "other": d.other,
            })
        })
        .collect();
    let v = json!({
        "seed": config.seed, "cases": config.cases, "e2e_cases": config.e2e_cases,
        "arch": std::env::consts::ARCH,
        "build": crate::report::BuildInfo::here(),
        "rows": rows, "first_mismatches": mismatches,
        "reports": summary.reports.iter().map(|p| p.display().to_string()).collect::<Vec<_>>(),
        "uncompared": summary.uncompared,
        "passed": summary.compared(reference).filter(|r| r.mismatches == 0).count(),
        "failed": summary.compared(reference).filter(|r| r.mismatches > 0).count(),
    });
    serde_json::to_string_pretty(&v).expect("JSON values serialise")
}

/// The run as JUnit XML: one test case per check and implementation compared.
pub fn junit(config: &Config, summary: &Summary, reference: &str) -> Result<String, String> {
    let mut suite = TestSuite::new(format!(
        "mldsa-diff check ({}, seed {})",
        std::env::consts::ARCH,
        config.seed
    ));
    for r in summary.compared(reference) {
        let status = if r.mismatches == 0 {
            TestCaseStatus::success()
        } else {
            let mut s = TestCaseStatus::non_success(NonSuccessKind::Failure);
            let first = summary
                .findings
                .iter()
                .find(|f| f.check == r.check && f.implementation == r.implementation);
            let msg = match first {
                Some(f) => format!(
                    "{} of {} cases differ; first at case {}: {}",
                    r.mismatches, r.cases, f.case, f.difference
                ),
                None => format!("{} of {} cases differ", r.mismatches, r.cases),
            };
            s.set_message(msg);
            s.set_description(replay_hint(summary, &r.check, &r.implementation));
            s
        };
        let mut case = TestCase::new(format!("{}/{}", r.check, r.implementation), status);
        case.set_classname(r.check.clone());
        case.set_time(r.time);
        suite.add_test_case(case);
    }
    let mut report = Report::new("mldsa-diff");
    report.add_test_suite(suite);
    report.to_string().map_err(|e| e.to_string())
}

/// The replay commands of the reports written for `check` on `imp`.
fn replay_hint(summary: &Summary, check: &str, imp: &str) -> String {
    let prefix = format!("{check}-{imp}-");
    summary
        .reports
        .iter()
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with(&prefix))
        })
        .map(|p| crate::report::replay_command(p))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Under GitHub Actions: one `::error` annotation per mismatch kind, and a Markdown summary
/// (with the replay commands) appended to `$GITHUB_STEP_SUMMARY`.
pub fn github(summary: &Summary, reference: &str) -> Result<(), String> {
    if std::env::var("GITHUB_ACTIONS").as_deref() != Ok("true") {
        return Ok(());
    }
    for f in &summary.findings {
        // Annotation properties and messages must not carry raw newlines or '::'.
        println!(
            "::error title={}/{}::case {}: {}",
            f.check, f.implementation, f.case, f.difference
        );
    }
    let Ok(path) = std::env::var("GITHUB_STEP_SUMMARY") else {
        return Ok(());
    };
    let failed: Vec<_> = summary
        .compared(reference)
        .filter(|r| r.mismatches > 0)
        .collect();
    let passed = summary.compared(reference).count() - failed.len();
    let mut md = format!(
        "### mldsa-diff check on {}\n\n{passed} passed, {} failed\n\n",
        std::env::consts::ARCH,
        failed.len()
    );
    if !failed.is_empty() {
        md += "| check | implementation | cases | mismatches |\n|---|---|---|---|\n";
        for r in &failed {
            md += &format!(
                "| {} | {} | {} | {} |\n",
                r.check, r.implementation, r.cases, r.mismatches
            );
        }
        md += "\nReproduce (the reports are uploaded as an artifact):\n\n```sh\n";
        for r in &failed {
            md += &replay_hint(summary, &r.check, &r.implementation);
            md += "\n";
        }
        md += "```\n";
    }
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .and_then(|mut f| f.write_all(md.as_bytes()))
        .map_err(|e| format!("$GITHUB_STEP_SUMMARY ({path}): {e}"))
}
