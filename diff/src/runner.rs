//! Runs checks over a seeded input stream, compares every implementation with the
//! reference (portable), tabulates, and writes a JSON report for each mismatch; replays a
//! report or a raw fuzz input through every implementation available here.

use crate::check::{Check, FUZZ, generate, validate};
use crate::judge::{Whose, judge};
use crate::model::{Case, Difference, Field, Output};
use crate::oracle::Oracle;
use crate::report::{Origin, Report};
use crate::source::{ByteSource, RngSource};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

/// Default time limit of one kernel case on one implementation.
pub const KERNEL_TIMEOUT: Duration = Duration::from_secs(10);
/// Default time limit of one end-to-end case on one implementation.
pub const E2E_TIMEOUT: Duration = Duration::from_secs(60);
/// Cases handed to an implementation's worker at a time.
const CHUNK: usize = 256;

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
    /// Time limit of one kernel case on one implementation ([`KERNEL_TIMEOUT`]): a call
    /// that takes longer is reported as a hang, and the run goes on without that
    /// implementation for the rest of that check.
    pub kernel_timeout: Duration,
    /// Time limit of one end-to-end case ([`E2E_TIMEOUT`]).
    pub e2e_timeout: Duration,
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
    /// Calls that did not return within the time limit: (check, implementation, case index).
    pub hangs: Vec<(String, String, usize)>,
}

impl Summary {
    /// Total mismatches.
    pub fn mismatches(&self) -> usize {
        self.rows.iter().map(|r| r.mismatches).sum()
    }
}

/// One implementation's answers to a chunk of cases, each with the time it took.
type Answers = Vec<(Option<Output>, Duration)>;

/// A persistent thread that runs one implementation's calls, so that a call that never
/// returns can be abandoned while the run goes on. The calls of a chunk of cases run back to
/// back; the thread publishes which case it is in and since when, and the run watches that
/// while it waits (one wake-up per chunk, not per call).
struct Worker {
    jobs: mpsc::Sender<(Check, Arc<Vec<Case>>)>,
    done: mpsc::Receiver<()>,
    answers: Arc<Mutex<Answers>>,
    /// (nanoseconds since `base` when the current call started) << 16 | case index within
    /// the chunk; 0 when idle.
    current: Arc<AtomicU64>,
    base: Instant,
}

/// How a worker's chunk ended.
enum Waited {
    /// Every case answered.
    Done(Answers),
    /// Case `.1` did not return in time; `.0` holds the answers before it.
    Hung(Answers, usize),
}

impl Worker {
    fn spawn(oracle: Arc<dyn Oracle>) -> Result<Worker, String> {
        let (jobs, job_rx) = mpsc::channel::<(Check, Arc<Vec<Case>>)>();
        let (done_tx, done) = mpsc::channel();
        let answers = Arc::new(Mutex::new(Vec::new()));
        let current = Arc::new(AtomicU64::new(0));
        let base = Instant::now();
        let (a, cur) = (answers.clone(), current.clone());
        std::thread::Builder::new()
            .name(format!("mldsa-diff {}", oracle.name()))
            .spawn(move || {
                for (check, cases) in job_rx {
                    for (i, case) in cases.iter().enumerate() {
                        let t = Instant::now();
                        let since = t.duration_since(base).as_nanos() as u64;
                        cur.store((since.max(1) << 16) | i as u64, Ordering::Release);
                        let out = run_caught(oracle.as_ref(), check, case);
                        let took = t.elapsed();
                        a.lock()
                            .unwrap_or_else(|e| e.into_inner())
                            .push((out, took));
                    }
                    cur.store(0, Ordering::Release);
                    if done_tx.send(()).is_err() {
                        break;
                    }
                }
            })
            .map_err(|e| format!("cannot start a worker thread: {e}"))?;
        Ok(Worker {
            jobs,
            done,
            answers,
            current,
            base,
        })
    }

    /// Runs `cases` and waits, giving each call at most `limit`.
    fn run(&self, check: Check, cases: Arc<Vec<Case>>, limit: Duration) -> Waited {
        let take = || std::mem::take(&mut *self.answers.lock().unwrap_or_else(|e| e.into_inner()));
        if self.jobs.send((check, cases)).is_err() {
            return Waited::Hung(take(), 0);
        }
        let poll = (limit / 4).clamp(Duration::from_millis(1), Duration::from_millis(250));
        loop {
            match self.done.recv_timeout(poll) {
                Ok(()) => return Waited::Done(take()),
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    let got = take();
                    let at = got.len();
                    return Waited::Hung(got, at);
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    let cur = self.current.load(Ordering::Acquire);
                    if cur == 0 {
                        continue;
                    }
                    let since = Duration::from_nanos(cur >> 16);
                    if self.base.elapsed().saturating_sub(since) > limit {
                        let at = (cur & 0xffff) as usize;
                        let mut got = take();
                        got.truncate(at);
                        return Waited::Hung(got, at);
                    }
                }
            }
        }
    }
}

/// `oracle.run`, with a panic turned into a harness error (reported as a mismatch with its
/// input, like any other wrong answer).
fn run_caught(oracle: &dyn Oracle, check: Check, case: &Case) -> Option<Output> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| oracle.run(check, case)))
        .unwrap_or_else(|e| {
            let msg = e
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "a panic".into());
            Some(Output {
                verdict: crate::model::Verdict::Error(format!("harness: panicked: {msg}")),
                ..Output::default()
            })
        })
}

/// Runs `config.checks` over `oracles` (the first is the reference). Each implementation
/// runs on a worker thread of its own; a call that exceeds the case time limit is written
/// as a hang report, counted as a mismatch, and that implementation sits out the rest of
/// that check (its stuck thread is abandoned; a new one serves the next check).
pub fn run(config: &Config, oracles: &[Arc<dyn Oracle>]) -> Result<Summary, String> {
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
    let mut workers: Vec<Option<Worker>> = oracles.iter().map(|_| None).collect();
    for &check in &config.checks {
        let (n, limit) = if check.is_end_to_end() {
            (config.e2e_cases, config.e2e_timeout)
        } else {
            (config.cases, config.kernel_timeout)
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
        // Implementations that hung on this check sit out the rest of it.
        let mut hung = vec![false; oracles.len()];
        // End-to-end cases take milliseconds: smaller chunks keep the progress line moving.
        let chunk = if check.is_end_to_end() { 8 } else { CHUNK };
        let mut first = 0;
        while first < n && !hung[0] {
            let mut cases = Vec::with_capacity(chunk.min(n - first));
            for index in first..(first + chunk).min(n) {
                cases.push(
                    generate(check, index, &mut src)
                        .map_err(|_| "the RNG source cannot run out".to_string())?,
                );
            }
            let mut cases = Arc::new(cases);
            let mut outputs: Vec<Vec<Option<Output>>> = Vec::with_capacity(oracles.len());
            for (i, o) in oracles.iter().enumerate() {
                if hung[i] {
                    outputs.push(vec![None; cases.len()]);
                    continue;
                }
                let w = match &mut workers[i] {
                    Some(w) => w,
                    slot => slot.insert(Worker::spawn(o.clone())?),
                };
                let answers = match w.run(check, cases.clone(), limit) {
                    Waited::Done(a) => a,
                    Waited::Hung(a, at) => {
                        // Abandon the stuck thread; the next check gets a new one.
                        workers[i] = None;
                        hung[i] = true;
                        let index = first + at;
                        rows[i].cases += 1;
                        rows[i].mismatches += 1;
                        let reference_out = outputs
                            .first()
                            .and_then(|r| r.get(at).cloned().flatten())
                            .unwrap_or_default();
                        let r = Report::hang(
                            check,
                            &cases[at],
                            (reference.name(), &reference_out),
                            o.name(),
                            limit,
                            &Origin::Run {
                                seed: config.seed,
                                index,
                                dir: &config.report_dir,
                            },
                        );
                        summary.first_mismatches.push((
                            check.name(),
                            o.name().to_string(),
                            r.first_difference.clone(),
                            index,
                        ));
                        summary
                            .hangs
                            .push((check.name(), o.name().to_string(), index));
                        summary.reports.push(r.write_into(&config.report_dir)?);
                        if i == 0 {
                            // Without the reference, only the cases before the hang compare.
                            cases = Arc::new(cases[..at].to_vec());
                        }
                        a
                    }
                };
                let mut outs = Vec::with_capacity(cases.len());
                for (out, took) in answers {
                    rows[i].time += took;
                    if out.is_some() {
                        rows[i].cases += 1;
                    }
                    outs.push(out);
                }
                outs.resize(cases.len(), None);
                outputs.push(outs);
            }
            for (k, case) in cases.iter().enumerate() {
                let index = first + k;
                let ref_out = outputs[0][k]
                    .clone()
                    .ok_or_else(|| format!("reference does not implement {}", check.name()))?;
                for (i, o) in oracles.iter().enumerate() {
                    let Some(out) = &outputs[i][k] else { continue };
                    let whose = Whose {
                        name: o.name(),
                        is_c: o.is_c(),
                        is_reference: i == 0,
                    };
                    let Some(j) = judge(check, whose, case, (reference.name(), &ref_out), out)
                    else {
                        continue;
                    };
                    rows[i].mismatches += 1;
                    if rows[i].mismatches == 1 {
                        summary.first_mismatches.push((
                            check.name(),
                            o.name().to_string(),
                            j.difference.clone(),
                            index,
                        ));
                    }
                    if reports_left[i] > 0 {
                        reports_left[i] -= 1;
                        let origin = Origin::Run {
                            seed: config.seed,
                            index,
                            dir: &config.report_dir,
                        };
                        let r = Report::new(
                            check,
                            case,
                            (&j.expected_from, &j.expected),
                            (o.name(), out),
                            &j.difference,
                            &origin,
                        );
                        summary.reports.push(r.write_into(&config.report_dir)?);
                    }
                }
            }
            done += cases.len();
            first += chunk;
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
    if oracles.iter().any(|o| o.as_ref().is_c()) {
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
        .map(|o| o.as_ref().run(check, case))
        .collect();
    let none = Output::default();
    let reference = outs.first().and_then(Option::as_ref).unwrap_or(&none);
    let differences: Vec<Option<Difference>> = oracles
        .iter()
        .zip(&outs)
        .enumerate()
        .map(|(i, (o, out))| {
            let o = o.as_ref();
            let out = out.as_ref()?;
            let whose = Whose {
                name: o.name(),
                is_c: o.is_c(),
                is_reference: i == 0,
            };
            judge(check, whose, case, ("reference", reference), out).map(|j| j.difference)
        })
        .collect();
    oracles
        .iter()
        .zip(outs)
        .zip(differences)
        .map(|((o, output), difference)| ReplayRow {
            implementation: o.as_ref().name(),
            output,
            difference,
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
