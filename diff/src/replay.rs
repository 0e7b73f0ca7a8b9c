//! Replays a report or a raw fuzz input through every implementation available here: loads
//! and validates the input, runs it, and shows where each answer first differs.

use crate::check::{Check, FUZZ, generate, validate};
use crate::judge::{Whose, judge};
use crate::model::Provenance;
use crate::model::{Case, Difference, Field, Output, Verdict};
use crate::oracle::Oracle;
use crate::report::{Origin, Report};
use crate::source::ByteSource;
use std::path::Path;

/// What a replay found for one implementation.
#[derive(Clone, Debug)]
pub struct ReplayRow {
    /// Implementation name.
    pub implementation: &'static str,
    /// Its output, if it implements the check.
    pub output: Option<Output>,
    /// Its first difference from the reference (or from the required verdict).
    pub difference: Option<Difference>,
}

/// The implementations a report's machine ran that `here` lacks (empty for a raw fuzz input
/// or a report without its build section): the replay cannot run them, and says so.
pub fn missing_here(path: &Path, here: &[&str]) -> Vec<String> {
    let Some(report) = std::fs::read(path)
        .ok()
        .and_then(|data| serde_json::from_slice::<Report>(&data).ok())
    else {
        return Vec::new();
    };
    let mut names = report.build.implementations;
    // The two sides of the mismatch, whatever the build section says.
    names.extend(report.implementations);
    names.sort();
    names.dedup();
    // Only implementations (a report also names where its expected answer came from).
    let known = crate::impls::all_names();
    names.retain(|n| known.contains(&n.as_str()) && !here.contains(&n.as_str()));
    names
}

/// Loads a replay input: a JSON report, or a raw fuzz input for `check` (from
/// `check_hint`, or else the name of a directory in `path`, as in
/// `fuzz/artifacts/<check>/crash-...`). A file named `*.json` must be a report; a report's
/// input must have its check's shape (and, for kernels, lie within the contract): anything
/// else is a clear error before any implementation sees it.
pub fn load_replay(path: &Path, check_hint: Option<&str>) -> Result<(Check, Case), String> {
    let data = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let is_json_name = path.extension().is_some_and(|e| e == "json");
    match serde_json::from_slice::<Report>(&data) {
        Ok(report) => {
            let check = Check::from_name(&report.check)
                .ok_or_else(|| format!("{}: unknown check {:?}", path.display(), report.check))?;
            if let Some(hint) = check_hint.filter(|h| *h != report.check) {
                return Err(format!(
                    "{}: the report is for {}, not {hint}",
                    path.display(),
                    report.check
                ));
            }
            validate(check, &report.input)
                .map_err(|e| format!("{}: malformed report: {e}", path.display()))?;
            return Ok((check, report.input));
        }
        Err(e) if is_json_name || looks_like_json(&data) => {
            return Err(format!(
                "{}: not a valid mismatch report: {e} (a file that is JSON text is read as a \
                 report, never as a raw fuzz input)",
                path.display()
            ));
        }
        Err(_) => {}
    }
    let name = match check_hint {
        Some(n) => n.to_string(),
        None => path
            .ancestors()
            .filter_map(|a| a.file_name()?.to_str())
            .find(|n| Check::from_name(n).is_some())
            .ok_or_else(|| {
                format!(
                    "{}: not a report; name the check with --check",
                    path.display()
                )
            })?
            .to_string(),
    };
    let check = Check::from_name(&name).ok_or_else(|| format!("unknown check {name}"))?;
    let case = generate(check, FUZZ, &mut ByteSource::new(&data)).map_err(|_| {
        format!(
            "{}: too short to be a {name} input (the fuzz target rejects it too)",
            path.display()
        )
    })?;
    Ok((check, case))
}

/// Whether `data` is text that starts like a JSON object (a report, perhaps truncated),
/// rather than raw fuzz bytes (which are almost never valid UTF-8 for long).
fn looks_like_json(data: &[u8]) -> bool {
    std::str::from_utf8(data).is_ok_and(|t| t.trim_start().starts_with('{'))
}

/// Runs one input through every implementation (after checking C scripting works).
pub fn replay<O: AsRef<dyn Oracle>>(
    check: Check,
    case: &Case,
    oracles: &[O],
) -> Result<Vec<ReplayRow>, String> {
    if oracles
        .iter()
        .any(|o| o.as_ref().origin() == Provenance::PqClean)
    {
        crate::rng::require_scripting()?;
    }
    let rows = compare_all(check, case, oracles);
    if rows.first().is_none_or(|r| r.output.is_none()) {
        return Err("the reference does not implement this check".into());
    }
    Ok(rows)
}

/// Runs one input through every implementation and judges each output against the
/// reference (the first oracle); the caller has checked that C scripting works.
pub fn compare_all<O: AsRef<dyn Oracle>>(
    check: Check,
    case: &Case,
    oracles: &[O],
) -> Vec<ReplayRow> {
    let outs: Vec<Option<Output>> = oracles
        .iter()
        .map(|o| check.run(o.as_ref(), case))
        .collect();
    let none = Output::default();
    let reference = outs.first().and_then(Option::as_ref).unwrap_or(&none);
    oracles
        .iter()
        .zip(&outs)
        .enumerate()
        .map(|(i, (o, output))| {
            let o = o.as_ref();
            let whose = Whose {
                name: o.name(),
                origin: o.origin(),
                is_reference: i == 0,
            };
            ReplayRow {
                implementation: o.name(),
                difference: output.as_ref().and_then(|out| {
                    judge(check, whose, case, ("reference", reference), out).map(|j| j.difference)
                }),
                output: output.clone(),
            }
        })
        .collect()
}

/// A few values either side of a difference, for both outputs.
pub fn window(reference: &Output, other: &Output, d: &Difference) -> String {
    let pick = |o: &Output| -> Vec<String> {
        match d.field {
            Field::Poly(i) => o
                .polys
                .get(i)
                .map(|p| p.iter().map(|x| x.to_string()).collect())
                .unwrap_or_default(),
            Field::Bytes => o.bytes.iter().map(|b| format!("{b:02x}")).collect(),
            _ => vec![],
        }
    };
    let (a, b) = (pick(reference), pick(other));
    if a.is_empty() && b.is_empty() {
        return String::new();
    }
    let lo = d.index.saturating_sub(4);
    let hi = (d.index + 5).min(a.len().max(b.len()));
    let show = |v: &[String]| {
        (lo..hi)
            .map(|i| v.get(i).cloned().unwrap_or_else(|| "-".into()))
            .collect::<Vec<_>>()
            .join(" ")
    };
    format!(
        "    [{lo}..{hi}) reference: {}\n    [{lo}..{hi}) other:     {}",
        show(&a),
        show(&b)
    )
}

/// `mldsa-diff replay`: replays each report or fuzz input on every implementation here and
/// prints, per implementation, whether it agrees (writing the first difference as a report
/// to `report_out`); `true` if any differs.
pub fn replay_files(
    files: &[std::path::PathBuf],
    check: Option<&str>,
    report_out: Option<&Path>,
) -> Result<bool, String> {
    if files.is_empty() {
        return Err("name at least one report or fuzz input".into());
    }
    let oracles = crate::impls::available_checked()?;
    let mut any_diff = false;
    for f in files {
        let (c, case) = load_replay(f, check)?;
        println!(
            "{}: check {} on {}",
            f.display(),
            c.name(),
            std::env::consts::ARCH
        );
        let here: Vec<&str> = oracles.iter().map(|o| o.name()).collect();
        let missing = missing_here(f, &here);
        if !missing.is_empty() {
            println!(
                "  not available here (the report's machine ran them): {}",
                missing.join(", ")
            );
        }
        let rows = replay(c, &case, &oracles)?;
        let reference = rows[0].output.clone().unwrap_or_default();
        for (r, o) in rows.iter().zip(&oracles) {
            match (&r.output, &r.difference) {
                (None, _) => {
                    println!("  {:<20} does not implement this check", r.implementation)
                }
                // Right by a stated difference, not by agreement: say which, and what it gave.
                (Some(out), None)
                    if crate::judge::compare(c, &reference, out).is_some()
                        && crate::known::find(c, o.name(), o.origin()).is_some() =>
                {
                    let gave = match &out.verdict {
                        Verdict::None | Verdict::Signed => "its own answer".to_string(),
                        v => v.to_string(),
                    };
                    println!(
                        "  {:<20} gives its stated difference (known.rs; `mldsa-diff list`): {gave:.300}",
                        r.implementation
                    );
                }
                (Some(_), None) => println!("  {:<20} agrees", r.implementation),
                (Some(out), Some(d)) => {
                    if let (Some(path), false) = (report_out, any_diff) {
                        Report::new(
                            c,
                            &case,
                            ("reference", &reference),
                            (r.implementation, out),
                            d,
                            &Origin::Replay(f),
                        )
                        .write_to(path)?;
                        println!("  report written to {}", path.display());
                    }
                    any_diff = true;
                    println!("  {:<20} DIFFERS at {d}", r.implementation);
                    let w = window(&reference, out, d);
                    if !w.is_empty() {
                        println!("{w}");
                    }
                }
            }
        }
    }
    Ok(any_diff)
}
