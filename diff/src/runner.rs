//! Runs checks over a seeded input stream, compares every implementation with the
//! reference (portable), tabulates, and writes a JSON report for each mismatch; replays a
//! report or a raw fuzz input through every implementation available here.

use crate::check::{Case, Check, generate};
use crate::oracle::{Oracle, Output, canonical};
use crate::source::{ByteSource, RngSource};
use mldsa::backend::contract::Compare;
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Where two outputs first differ.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Difference {
    /// "polys[1]", "bytes", "scalar" or "verdict".
    pub field: String,
    /// First differing coefficient or byte within the field.
    pub index: usize,
    /// The reference's value there.
    pub reference: String,
    /// The other implementation's value there.
    pub other: String,
}

/// A place where a PQClean C variant knowingly differs from FIPS 204 (and so from the
/// reference). Each is listed once with its reason, and the harness asserts exactly that
/// difference: the implementation must produce precisely the deviant answer computed by
/// [`expected_output`], so any other disagreement is still a mismatch.
#[derive(Clone, Copy, Debug)]
pub struct KnownDifference {
    /// Checks whose name starts with this.
    pub check_prefix: &'static str,
    /// Implementations whose name starts with this.
    pub implementation: &'static str,
    /// Why.
    pub reason: &'static str,
}

/// Every known difference.
pub const KNOWN_DIFFERENCES: [KnownDifference; 2] = [
    KnownDifference {
        check_prefix: "sign_malformed_sk",
        implementation: "c-",
        reason: "PQClean does not range-check s1/s2 when it decodes an expanded secret key, so it signs \
                 with a key whose coefficients lie outside [-eta, eta]; mldsa rejects such a key with \
                 SecretKeyOutOfRange. Asserted: every C variant signs, every Rust backend returns that error.",
    },
    KnownDifference {
        check_prefix: "use_hint",
        implementation: "c-avx2",
        reason: "PQClean's AVX2 use_hint_avx selects r1 - 1 only when r0 < 0 (blendv on the sign bit), \
                 so for h = 1 and r0 = 0 it returns r1 + 1; FIPS 204 Alg. 40 returns r1 - 1 for r0 <= 0 \
                 (the same bug was fixed in libcrux, PR 1398). Asserted: c-avx2 equals the reference \
                 except exactly at coefficients with h = 1 and r0 = 0, where it is (r1 + 1) mod m.",
    },
];

/// What an implementation must answer instead of agreeing with the reference.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expected {
    /// Only this verdict is compared.
    Verdict(String),
    /// Exactly this output, compared as the check's contract says.
    Output(Output),
}

/// The answer `oracle` must give where it knowingly differs ([`KNOWN_DIFFERENCES`]).
pub fn expected_output(
    check: Check,
    oracle: &dyn Oracle,
    case: &Case,
    reference: &Output,
) -> Option<Expected> {
    match check {
        Check::SignMalformedKey(_) if oracle.is_c() => Some(Expected::Verdict("signed".into())),
        Check::SignMalformedKey(_) => Some(Expected::Verdict(format!(
            "error: {}",
            mldsa::Error::SecretKeyOutOfRange
        ))),
        Check::UseHint(g) if oracle.name() == "c-avx2" => {
            let mut out = reference.clone();
            for (i, r1) in out.polys[0].iter_mut().enumerate() {
                let (a, h) = (case.polys[0][i], case.polys[1][i]);
                if h == 1 && mldsa::backend::portable::decompose(g, a).1 == 0 {
                    *r1 = (mldsa::backend::portable::decompose(g, a).0 + 1) % g.m();
                }
            }
            Some(Expected::Output(out))
        }
        _ => None,
    }
}

/// The first output coefficient outside the bounds the kernel's contract promises. Rust
/// backends must keep the contract; C code has its own (the comparison covers it).
pub fn contract_violation(check: Check, out: &Output) -> Option<Difference> {
    let c = check.contract()?;
    for (i, (poly, bounds)) in out.polys.iter().zip(c.output).enumerate() {
        if bounds == mldsa::backend::contract::ANY {
            continue;
        }
        if let Some((index, v)) = mldsa::backend::contract::first_violation(bounds, poly) {
            return Some(Difference {
                field: format!("polys[{i}] (contract output bound)"),
                index,
                reference: format!("[{}, {}]", bounds.lo, bounds.hi),
                other: v.to_string(),
            });
        }
    }
    None
}

/// Judges one implementation's output: against its known difference if it has one, else
/// against the reference. Returns the difference and what was expected, named.
pub fn judge(
    check: Check,
    oracle: &dyn Oracle,
    is_reference: bool,
    case: &Case,
    reference: &Output,
    reference_name: &str,
    out: &Output,
) -> Option<(Difference, Output, String)> {
    if !oracle.is_c() {
        if let Some(d) = contract_violation(check, out) {
            return Some((d, Output::default(), "contract".to_string()));
        }
    }
    match expected_output(check, oracle, case, reference) {
        Some(Expected::Verdict(want)) => first_diff(
            "verdict",
            std::slice::from_ref(&want),
            std::slice::from_ref(&out.verdict),
        )
        .map(|d| {
            (
                d,
                Output {
                    verdict: want,
                    ..Output::default()
                },
                "expected".to_string(),
            )
        }),
        Some(Expected::Output(want)) => compare(check, &want, out).map(|d| {
            (
                d,
                want,
                format!("expected ({reference_name} + known difference)"),
            )
        }),
        None if is_reference => None,
        None => compare(check, reference, out)
            .map(|d| (d, reference.clone(), reference_name.to_string())),
    }
}

fn first_diff<T: PartialEq + std::fmt::Display>(
    field: &str,
    a: &[T],
    b: &[T],
) -> Option<Difference> {
    if a == b {
        return None;
    }
    let index = a
        .iter()
        .zip(b)
        .position(|(x, y)| x != y)
        .unwrap_or(a.len().min(b.len()));
    let show = |v: &[T]| {
        v.get(index)
            .map_or_else(|| format!("<end, length {}>", v.len()), |x| x.to_string())
    };
    Some(Difference {
        field: field.to_string(),
        index,
        reference: show(a),
        other: show(b),
    })
}

/// Compares `other` with `reference` as `check`'s contract says.
pub fn compare(check: Check, reference: &Output, other: &Output) -> Option<Difference> {
    if let Check::Verify(_) = check {
        // Accept/reject agreement; the reasons may be worded differently.
        return first_diff("accept", &[reference.scalar], &[other.scalar]);
    }
    let mod_q = matches!(check.compare(), Compare::ModQ | Compare::ModQNttOrder);
    let norm = |x: i32| if mod_q { canonical(x) } else { x };
    if reference.polys.len() != other.polys.len() {
        return first_diff(
            "polys (count)",
            &[reference.polys.len()],
            &[other.polys.len()],
        );
    }
    for (i, (a, b)) in reference.polys.iter().zip(&other.polys).enumerate() {
        // Bit-identical outputs (the usual case) need no normalising: one slice comparison.
        if a == b {
            continue;
        }
        // Look for a difference without allocating (this runs once per fuzz execution).
        if a.len() != b.len() || a.iter().zip(b).any(|(&x, &y)| norm(x) != norm(y)) {
            let na: Vec<i32> = a.iter().map(|&x| norm(x)).collect();
            let nb: Vec<i32> = b.iter().map(|&x| norm(x)).collect();
            return first_diff(&format!("polys[{i}]"), &na, &nb);
        }
    }
    first_diff("bytes", &reference.bytes, &other.bytes)
        .or_else(|| first_diff("scalar", &[reference.scalar], &[other.scalar]))
        .or_else(|| {
            first_diff(
                "verdict",
                std::slice::from_ref(&reference.verdict),
                std::slice::from_ref(&other.verdict),
            )
        })
}

/// A mismatch report: everything needed to reproduce it anywhere.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Report {
    /// Check name.
    pub check: String,
    /// Parameter set whose values the check used.
    pub params: String,
    /// Architecture it was found on.
    pub arch: String,
    /// The reference and the implementation that disagreed (or "expected").
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
}

/// Settings of one `check` run.
#[derive(Clone, Debug)]
pub struct Config {
    /// Cases per kernel check.
    pub cases: usize,
    /// Cases per end-to-end check.
    pub e2e_cases: usize,
    /// Seed of the input stream.
    pub seed: u64,
    /// Checks to run.
    pub checks: Vec<Check>,
    /// Directory for mismatch reports.
    pub report_dir: PathBuf,
    /// Reports written per (check, implementation) at most.
    pub max_reports: usize,
    /// Draw a progress line on stderr.
    pub progress: bool,
}

/// One row of the result table.
#[derive(Clone, Debug)]
pub struct Row {
    /// Check name.
    pub check: String,
    /// Implementation name.
    pub implementation: String,
    /// Cases this implementation ran.
    pub cases: usize,
    /// Cases whose output differed.
    pub mismatches: usize,
    /// Time spent in this implementation.
    pub time: Duration,
}

/// The outcome of a run.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    /// Table rows, in run order.
    pub rows: Vec<Row>,
    /// The reports written.
    pub reports: Vec<PathBuf>,
    /// First difference of every mismatch kind found: (check, implementation, difference, case index).
    pub first_mismatches: Vec<(String, String, Difference, usize)>,
    /// Checks that no implementation besides the reference ran on this machine: nothing was
    /// compared for them (only the reference's contract bounds were checked).
    pub uncompared: Vec<String>,
}

impl Summary {
    /// Total mismatches.
    pub fn mismatches(&self) -> usize {
        self.rows.iter().map(|r| r.mismatches).sum()
    }
}

fn write_report(dir: &Path, report: &Report) -> std::io::Result<PathBuf> {
    std::fs::create_dir_all(dir)?;
    let name = format!(
        "{}-{}-seed{}-case{}.json",
        report.check, report.implementations[1], report.seed, report.case_index
    );
    let path = dir.join(name);
    std::fs::write(
        &path,
        serde_json::to_string_pretty(report).map_err(std::io::Error::other)?,
    )?;
    Ok(path)
}

fn report_for(
    check: Check,
    seed: u64,
    index: usize,
    case: &Case,
    outs: Vec<(String, Output)>,
    d: Difference,
) -> Report {
    Report {
        check: check.name(),
        params: check.params().name.to_string(),
        arch: std::env::consts::ARCH.to_string(),
        implementations: outs.iter().map(|(n, _)| n.clone()).collect(),
        input: case.clone(),
        outputs: outs,
        first_difference: d,
        crate_version: env!("CARGO_PKG_VERSION").to_string(),
        seed,
        case_index: index,
        reproduce: String::new(),
    }
}

/// Runs `config.checks` over `oracles` (the first is the reference).
pub fn run(config: &Config, oracles: &[Box<dyn Oracle>]) -> Result<Summary, String> {
    let reference = oracles.first().ok_or("no implementations")?;
    if oracles.iter().any(|o| o.is_c()) {
        crate::rng::require_scripting()?;
    }
    let mut summary = Summary::default();
    let total: usize = config
        .checks
        .iter()
        .map(|c| {
            if c.is_end_to_end() {
                config.e2e_cases
            } else {
                config.cases
            }
        })
        .sum();
    let mut done = 0usize;
    let started = Instant::now();
    let mut last_draw = Instant::now();
    for &check in &config.checks {
        let n = if check.is_end_to_end() {
            config.e2e_cases
        } else {
            config.cases
        };
        let mut src = RngSource::for_check(config.seed, &check.name());
        let mut rows: Vec<Row> = oracles
            .iter()
            .map(|o| Row {
                check: check.name(),
                implementation: o.name().to_string(),
                cases: 0,
                mismatches: 0,
                time: Duration::ZERO,
            })
            .collect();
        let mut reports_left = vec![config.max_reports; oracles.len()];
        for index in 0..n {
            let case = generate(check, index, &mut src)
                .map_err(|_| "the RNG source cannot run out".to_string())?;
            let mut outputs: Vec<Option<Output>> = Vec::with_capacity(oracles.len());
            for (o, row) in oracles.iter().zip(rows.iter_mut()) {
                let t = Instant::now();
                let out = o.run(check, &case);
                row.time += t.elapsed();
                if out.is_some() {
                    row.cases += 1;
                }
                outputs.push(out);
            }
            let ref_out = outputs[0]
                .clone()
                .ok_or_else(|| format!("reference does not implement {}", check.name()))?;
            for (i, o) in oracles.iter().enumerate() {
                let Some(out) = &outputs[i] else { continue };
                let diff = judge(
                    check,
                    o.as_ref(),
                    i == 0,
                    &case,
                    &ref_out,
                    reference.name(),
                    out,
                );
                let Some((d, base, base_name)) = diff else {
                    continue;
                };
                rows[i].mismatches += 1;
                if rows[i].mismatches == 1 {
                    summary.first_mismatches.push((
                        check.name(),
                        o.name().to_string(),
                        d.clone(),
                        index,
                    ));
                }
                if reports_left[i] > 0 {
                    reports_left[i] -= 1;
                    let outs = vec![(base_name, base), (o.name().to_string(), out.clone())];
                    let mut r = report_for(check, config.seed, index, &case, outs, d);
                    let path = config.report_dir.join(format!(
                        "{}-{}-seed{}-case{}.json",
                        r.check,
                        o.name(),
                        config.seed,
                        index
                    ));
                    r.reproduce = format!(
                        "cargo run --release -p mldsa-diff -- replay {}",
                        path.display()
                    );
                    let path = write_report(&config.report_dir, &r)
                        .map_err(|e| format!("writing report: {e}"))?;
                    summary.reports.push(path);
                }
            }
            done += 1;
            if config.progress && last_draw.elapsed() > Duration::from_millis(200) {
                last_draw = Instant::now();
                let pct = done * 100 / total.max(1);
                let bar = "#".repeat(pct / 4) + &".".repeat(25 - pct / 4);
                eprint!(
                    "\r[{bar}] {pct:>3}% {:<28} {:>6.1}s",
                    check.name(),
                    started.elapsed().as_secs_f64()
                );
                let _ = std::io::stderr().flush();
            }
        }
        if rows.iter().skip(1).all(|r| r.cases == 0) {
            summary.uncompared.push(check.name());
        }
        summary
            .rows
            .extend(rows.into_iter().filter(|r| r.cases > 0));
    }
    if config.progress {
        eprint!("\r{:<80}\r", "");
    }
    Ok(summary)
}

/// Formats the result table: check x implementation -> cases, mismatches, time.
pub fn table(summary: &Summary) -> String {
    let mut s = format!(
        "{:<26} {:<10} {:>8} {:>10} {:>10}\n",
        "check", "impl", "cases", "mismatches", "time"
    );
    for r in &summary.rows {
        s += &format!(
            "{:<26} {:<10} {:>8} {:>10} {:>9.3}s\n",
            r.check,
            r.implementation,
            r.cases,
            r.mismatches,
            r.time.as_secs_f64()
        );
    }
    s
}

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

/// Loads a replay input: a JSON report, or a raw fuzz input for `check` (from
/// `check_hint`, or else the name of a directory in `path`, as in
/// `fuzz/artifacts/<check>/crash-...`).
pub fn load_replay(path: &Path, check_hint: Option<&str>) -> Result<(Check, Case), String> {
    let data = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    if let Ok(report) = serde_json::from_slice::<Report>(&data) {
        let check = Check::from_name(&report.check)
            .ok_or_else(|| format!("unknown check {}", report.check))?;
        return Ok((check, report.input));
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
    let case = generate(check, crate::check::FUZZ, &mut ByteSource::new(&data)).map_err(|_| {
        format!(
            "{}: too short to be a {name} input (the fuzz target rejects it too)",
            path.display()
        )
    })?;
    Ok((check, case))
}

/// Runs one input through every implementation (after checking C scripting works).
pub fn replay(
    check: Check,
    case: &Case,
    oracles: &[Box<dyn Oracle>],
) -> Result<Vec<ReplayRow>, String> {
    if oracles.iter().any(|o| o.is_c()) {
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
pub fn compare_all(check: Check, case: &Case, oracles: &[Box<dyn Oracle>]) -> Vec<ReplayRow> {
    let outs: Vec<Option<Output>> = oracles.iter().map(|o| o.run(check, case)).collect();
    let none = Output::default();
    let differences: Vec<Option<Difference>> = {
        let reference = outs.first().and_then(Option::as_ref).unwrap_or(&none);
        oracles
            .iter()
            .zip(&outs)
            .enumerate()
            .map(|(i, (o, out))| {
                let out = out.as_ref()?;
                judge(check, o.as_ref(), i == 0, case, reference, "reference", out).map(|d| d.0)
            })
            .collect()
    };
    oracles
        .iter()
        .zip(outs)
        .zip(differences)
        .map(|((o, output), difference)| ReplayRow {
            implementation: o.name(),
            output,
            difference,
        })
        .collect()
}

/// A few values either side of a difference, for both outputs.
pub fn window(reference: &Output, other: &Output, d: &Difference) -> String {
    let pick = |o: &Output| -> Vec<String> {
        if let Some(i) = d
            .field
            .strip_prefix("polys[")
            .and_then(|r| r.strip_suffix(']'))
            .and_then(|r| r.parse::<usize>().ok())
        {
            o.polys
                .get(i)
                .map(|p| p.iter().map(|x| x.to_string()).collect())
                .unwrap_or_default()
        } else if d.field == "bytes" {
            o.bytes.iter().map(|b| format!("{b:02x}")).collect()
        } else {
            vec![]
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
