//! Runs checks over a seeded input stream, compares every implementation with the
//! reference (portable), tabulates, and writes a JSON report for each mismatch. Replaying a
//! report or a raw fuzz input is in [`crate::replay`] (re-exported here).

pub use crate::replay::{ReplayRow, compare_all, load_replay, replay, window};

use crate::check::Check;
use crate::judge::{Whose, judge};
use crate::model::Provenance;
use crate::model::{Case, Difference, Output};
use crate::oracle::Oracle;
use crate::report::{Origin, Report, Witnesses};
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

/// Default time limit of one kernel case on one implementation.
pub const KERNEL_TIMEOUT: Duration = Duration::from_secs(10);
/// Default time limit of one end-to-end case on one implementation.
pub const E2E_TIMEOUT: Duration = Duration::from_secs(60);

/// An implementation slower than this by its own statement ([`crate::oracle::Speed`]: one
/// ML-DSA-44 signature) is sampled in the end-to-end checks: it runs a check's edge cases
/// and every k-th of the others, k the smallest that keeps it within [`END_TO_END_BUDGET`]
/// (the table's `cases` column shows how many it ran). Every implementation built in, and
/// the compiled adapters, are faster and run every case at any count; an interpreted one
/// (dilithium-py, 45 ms per signature) runs a sample.
pub const SLOW_SIGN_US: u32 = 5_000;
/// [`SLOW_SIGN_US`] for one kernel call (an adapter's pipe round trip alone is about 60 us).
pub const SLOW_KERNEL_US: u32 = 200;
/// The time a slow implementation is given per end-to-end check.
pub const END_TO_END_BUDGET: Duration = Duration::from_millis(500);
/// [`END_TO_END_BUDGET`] for a kernel check.
pub const KERNEL_BUDGET: Duration = Duration::from_millis(250);

/// Every how many of `check`'s cases after its edge cases an implementation of speed `s`
/// runs, out of `n` (1: all; always 1 for one that is not slow).
pub fn stride(check: Check, n: usize, s: crate::oracle::Speed) -> usize {
    let (us, slow, budget) = if check.is_end_to_end() {
        (s.sign_us, SLOW_SIGN_US, END_TO_END_BUDGET)
    } else {
        (s.kernel_us, SLOW_KERNEL_US, KERNEL_BUDGET)
    };
    if us <= slow {
        return 1;
    }
    let fit = (budget.as_micros() as usize / us as usize).max(1);
    n.saturating_sub(check.edge_cases()).div_ceil(fit).max(1)
}

/// Whether case `index` of `check` is one an implementation with `stride` runs.
fn sampled(check: Check, index: usize, stride: usize) -> bool {
    index < check.edge_cases() || (index - check.edge_cases()).is_multiple_of(stride)
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
    /// Time limit of one kernel case on one implementation ([`KERNEL_TIMEOUT`]): a call
    /// that takes longer is reported as a hang, and the run goes on without that
    /// implementation for the rest of that check.
    pub kernel_timeout: Duration,
    /// Time limit of one end-to-end case ([`E2E_TIMEOUT`]).
    pub e2e_timeout: Duration,
    /// Stop after the first check that has a mismatch: the checks after it are not run and
    /// have no rows (mutation testing, where any mismatch decides).
    pub fail_fast: bool,
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
    /// It ran the edge cases and every `stride`-th other case ([`stride`]; 1: every case).
    pub stride: usize,
}

/// The outcome of a run.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    /// Table rows, in run order.
    pub rows: Vec<Row>,
    /// The reports written.
    pub reports: Vec<PathBuf>,
    /// The first mismatch of each (check, implementation), and every hang.
    pub findings: Vec<Finding>,
    /// Checks that no implementation besides the reference ran on this machine: nothing was
    /// compared for them (only the reference's contract bounds were checked).
    pub uncompared: Vec<String>,
}

/// The first mismatch of one implementation on one check, or a call that did not return
/// within the time limit.
#[derive(Clone, Debug)]
pub struct Finding {
    pub check: String,
    pub implementation: String,
    /// The case index.
    pub case: usize,
    pub difference: Difference,
    /// Who else gave which answer (empty for a hang).
    pub witnesses: Witnesses,
    pub hang: bool,
}

impl Summary {
    /// Total mismatches.
    pub fn mismatches(&self) -> usize {
        self.rows.iter().map(|r| r.mismatches).sum()
    }

    /// The rows that compared something (not the reference's own).
    pub fn compared<'a>(&'a self, reference: &'a str) -> impl Iterator<Item = &'a Row> {
        self.rows
            .iter()
            .filter(move |r| r.implementation != reference)
    }
}

/// `check.run(oracle, case)`, with a panic turned into a harness fault (reported as a
/// mismatch with its input, like any other wrong answer).
fn run_caught(oracle: &dyn Oracle, check: Check, case: &Case) -> Option<Output> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| check.run(oracle, case)))
        .unwrap_or_else(|e| {
            let msg = e
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "a panic".into());
            Some(crate::model::Fault::Panic(msg).output())
        })
}

/// What the run thread and the watchdog share: the results so far.
#[derive(Default)]
struct Shared {
    summary: Summary,
    /// Rows of the check in progress.
    rows: Vec<Row>,
    reports_left: Vec<usize>,
    done: usize,
}

/// What the watchdog reads of the run thread: which call is in progress since when, and on
/// which case.
struct Watch {
    /// (nanoseconds since `base` when the call started) << 16 | (implementation index + 1);
    /// 0 between calls.
    current: AtomicU64,
    base: Instant,
    /// (position of the check in `config.checks`, case index, the case) in progress.
    case: Mutex<Option<(usize, usize, Arc<Case>)>>,
    /// Set when the watchdog gives up on this run thread: it must not touch the results
    /// again, even if its call does return.
    abandoned: AtomicBool,
}

/// Where a run thread starts: a check, its first case, and the implementations that sit
/// that check out (they hung on it).
#[derive(Clone)]
struct Start {
    check: usize,
    case: usize,
    excluded: Vec<bool>,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Config {
    /// Cases of `check` in this run.
    fn cases_of(&self, check: Check) -> usize {
        if check.is_end_to_end() {
            self.e2e_cases
        } else {
            self.cases
        }
    }
}

/// Moves the rows of the check in progress into the summary.
fn finish_check(sh: &mut Shared, check: Check) {
    let rows = std::mem::take(&mut sh.rows);
    if rows.iter().skip(1).all(|r| r.cases == 0) {
        sh.summary.uncompared.push(check.name());
    }
    sh.summary
        .rows
        .extend(rows.into_iter().filter(|r| r.cases > 0));
}

/// The run itself, on a thread the watchdog ([`run`]) can abandon: every check from
/// `start` on, every case, every implementation in turn, judged as it comes.
fn run_from(
    config: &Config,
    oracles: &[Arc<dyn Oracle>],
    shared: &Mutex<Shared>,
    watch: &Watch,
    start: Start,
    (started, judge_reference): (Instant, bool),
) -> Result<(), String> {
    let reference = &oracles[0];
    let total: usize = config.checks.iter().map(|&c| config.cases_of(c)).sum();
    let mut last_draw = Instant::now();
    for (pos, &check) in config.checks.iter().enumerate().skip(start.check) {
        let n = config.cases_of(check);
        let (first, excluded) = if pos == start.check {
            (start.case, start.excluded.clone())
        } else {
            (0, vec![false; oracles.len()])
        };
        // A run thread that resumes a check (after a hang) keeps its rows.
        if !excluded.contains(&true) {
            let mut sh = lock(shared);
            sh.rows = oracles
                .iter()
                .map(|o| Row {
                    check: check.name(),
                    implementation: o.name().to_string(),
                    cases: 0,
                    mismatches: 0,
                    time: Duration::ZERO,
                    stride: 1,
                })
                .collect();
            sh.reports_left = vec![config.max_reports; oracles.len()];
        }
        // The reference runs every case: every other answer is judged against its.
        let strides: Vec<usize> = oracles
            .iter()
            .enumerate()
            .map(|(i, o)| {
                if i == 0 {
                    1
                } else {
                    stride(check, n, o.speed())
                }
            })
            .collect();
        for (row, &k) in lock(shared).rows.iter_mut().zip(&strides) {
            row.stride = k;
        }
        let cases = crate::check::cases(check, config.seed).enumerate();
        for (index, case) in cases.take(n).skip(first) {
            let case = Arc::new(case);
            *lock(&watch.case) = Some((pos, index, case.clone()));
            let mut outputs: Vec<(Option<Output>, Duration)> = Vec::with_capacity(oracles.len());
            for (i, o) in oracles.iter().enumerate() {
                if excluded[i] || !sampled(check, index, strides[i]) {
                    outputs.push((None, Duration::ZERO));
                    continue;
                }
                let t = Instant::now();
                let since = t.duration_since(watch.base).as_nanos() as u64;
                watch
                    .current
                    .store((since.max(1) << 16) | (i as u64 + 1), Ordering::Release);
                let out = run_caught(o.as_ref(), check, &case);
                let took = t.elapsed();
                watch.current.store(0, Ordering::Release);
                outputs.push((out, took));
            }
            let mut sh = lock(shared);
            if watch.abandoned.load(Ordering::Acquire) {
                return Ok(());
            }
            let sh = &mut *sh;
            for (row, (out, took)) in sh.rows.iter_mut().zip(&outputs) {
                row.time += *took;
                if out.is_some() {
                    row.cases += 1;
                }
            }
            let ref_out = outputs[0]
                .0
                .clone()
                .ok_or_else(|| format!("reference does not implement {}", check.name()))?;
            for (i, o) in oracles.iter().enumerate() {
                let Some(out) = &outputs[i].0 else { continue };
                if i == 0 && !judge_reference {
                    continue;
                }
                let whose = Whose {
                    name: o.name(),
                    origin: o.origin(),
                    is_reference: i == 0,
                };
                let Some(j) = judge(check, whose, &case, (reference.name(), &ref_out), out) else {
                    continue;
                };
                sh.rows[i].mismatches += 1;
                let answered: Vec<_> = oracles
                    .iter()
                    .zip(&outputs)
                    .filter_map(|(o, (out, _))| Some((o.name(), o.origin(), out.as_ref()?)))
                    .collect();
                let witnesses = Witnesses::of(
                    check,
                    &case,
                    (reference.name(), &ref_out),
                    (o.name(), out),
                    &answered,
                );
                if sh.rows[i].mismatches == 1 {
                    sh.summary.findings.push(Finding {
                        check: check.name(),
                        implementation: o.name().to_string(),
                        case: index,
                        difference: j.difference.clone(),
                        witnesses: witnesses.clone(),
                        hang: false,
                    });
                }
                if sh.reports_left[i] > 0 {
                    sh.reports_left[i] -= 1;
                    let origin = Origin::Run {
                        seed: config.seed,
                        index,
                        dir: &config.report_dir,
                    };
                    let mut r = Report::new(
                        check,
                        &case,
                        (&j.expected_from, &j.expected),
                        (o.name(), out),
                        &j.difference,
                        &origin,
                    );
                    r.witnesses = witnesses;
                    sh.summary.reports.push(r.write_into(&config.report_dir)?);
                }
            }
            sh.done += 1;
            if config.progress && last_draw.elapsed() > Duration::from_millis(200) {
                last_draw = Instant::now();
                let pct = sh.done * 100 / total.max(1);
                let bar = "#".repeat(pct / 4) + &".".repeat(25 - pct / 4);
                eprint!(
                    "\r[{bar}] {pct:>3}% {:<28} {:>6.1}s",
                    check.name(),
                    started.elapsed().as_secs_f64()
                );
                let _ = std::io::stderr().flush();
            }
        }
        let mut sh = lock(shared);
        if watch.abandoned.load(Ordering::Acquire) {
            return Ok(());
        }
        finish_check(&mut sh, check);
        if config.fail_fast && sh.summary.mismatches() > 0 {
            break;
        }
    }
    Ok(())
}

/// Runs `config.checks` over `oracles` (the first is the reference). The implementations in
/// other processes ([`Provenance::Process`]: their work is done on another core while this
/// process waits for their answers) run in a second run of their own, with the reference,
/// beside the run of the others, and the two summaries are merged: the run takes about as
/// long as the longer of the two instead of their sum. A mismatch's witnesses are then the
/// implementations of its own run.
pub fn run(config: &Config, oracles: &[Arc<dyn Oracle>]) -> Result<Summary, String> {
    let Some(reference) = oracles.first() else {
        return Err("no implementations".into());
    };
    let (apart, here): (Vec<_>, Vec<_>) = oracles[1..]
        .iter()
        .cloned()
        .partition(|o| o.origin() == Provenance::Process);
    if apart.is_empty() {
        return run_one(config, oracles, true);
    }
    let with_reference = |v: Vec<Arc<dyn Oracle>>| [vec![reference.clone()], v].concat();
    let (here, apart) = (with_reference(here), with_reference(apart));
    let quiet = Config {
        progress: false,
        ..config.clone()
    };
    let (a, b) = std::thread::scope(|s| {
        let b = s.spawn(|| run_one(&quiet, &apart, false));
        let a = run_one(config, &here, true);
        let b = b
            .join()
            .unwrap_or_else(|_| Err("the run of the other processes panicked".into()));
        (a, b)
    });
    let merged = merge(config, a?, b?);
    Ok(if config.fail_fast {
        up_to_first_failure(config, merged)
    } else {
        merged
    })
}

/// With `--fail-fast`, the merged summary of the two runs up to the first check (in run
/// order) with a mismatch: each run stopped after its own first failing check, so both ran
/// every check up to the earlier of the two. The other run's reports past it are removed.
fn up_to_first_failure(config: &Config, mut s: Summary) -> Summary {
    let failed = |name: &str| s.rows.iter().any(|r| r.check == name && r.mismatches > 0);
    let Some(pos) = config.checks.iter().position(|c| failed(&c.name())) else {
        return s;
    };
    let kept: Vec<String> = config.checks[..=pos].iter().map(|c| c.name()).collect();
    let keep = |check: &str| kept.iter().any(|k| k == check);
    s.rows.retain(|r| keep(&r.check));
    s.findings.retain(|f| keep(&f.check));
    s.uncompared.retain(|c| keep(c));
    s.reports.retain(|path| {
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        let ours = kept.iter().any(|k| name.starts_with(&format!("{k}-")));
        if !ours {
            let _ = std::fs::remove_file(path);
        }
        ours
    });
    s
}

/// One summary of two runs over the same checks, each with the reference first: every check's
/// rows of the first, then the second's but its reference row, whose only mismatches (the
/// second run does not judge the reference) are hangs: they are added to the first's.
fn merge(config: &Config, a: Summary, b: Summary) -> Summary {
    let mut rows = Vec::with_capacity(a.rows.len() + b.rows.len());
    for check in &config.checks {
        let name = check.name();
        let mut b_rows = b.rows.iter().filter(|r| r.check == name);
        let b_hangs = b_rows.next().map_or(0, |r| r.mismatches);
        let first = rows.len();
        rows.extend(a.rows.iter().filter(|r| r.check == name).cloned());
        if let Some(reference) = rows.get_mut(first) {
            reference.mismatches += b_hangs;
        }
        rows.extend(b_rows.cloned());
    }
    Summary {
        rows,
        reports: [a.reports, b.reports].concat(),
        findings: [a.findings, b.findings].concat(),
        uncompared: a
            .uncompared
            .into_iter()
            .filter(|c| b.uncompared.contains(c))
            .collect(),
    }
}

/// [`run`] over one group of implementations. The run goes on a
/// thread of its own while this one watches it: a call that exceeds the case time limit is
/// written as a hang report (kind "hang", with its input) and counted as a mismatch; the
/// stuck thread is abandoned and a new one goes on from that case, without that
/// implementation for the rest of that check (with the next check, if the reference hung). The
/// normal path costs two atomic stores per call.
/// `judge_reference`: whether the reference's own answers are judged here (not in the run of
/// the other processes: the first run judges them, and reports them once).
fn run_one(
    config: &Config,
    oracles: &[Arc<dyn Oracle>],
    judge_reference: bool,
) -> Result<Summary, String> {
    if oracles.is_empty() {
        return Err("no implementations".into());
    }
    if oracles.iter().any(|o| o.origin() == Provenance::PqClean) {
        crate::rng::require_scripting()?;
    }
    crate::impls::process::set_time_limits(config.kernel_timeout, config.e2e_timeout);
    let shared = Arc::new(Mutex::new(Shared::default()));
    let started = Instant::now();
    let mut start = Start {
        check: 0,
        case: 0,
        excluded: vec![false; oracles.len()],
    };
    loop {
        let watch = Arc::new(Watch {
            current: AtomicU64::new(0),
            base: Instant::now(),
            case: Mutex::new(None),
            abandoned: AtomicBool::new(false),
        });
        let (tx, rx) = mpsc::channel();
        {
            let (config, oracles, shared, watch, start) = (
                config.clone(),
                oracles.to_vec(),
                shared.clone(),
                watch.clone(),
                start.clone(),
            );
            std::thread::Builder::new()
                .name("mldsa-diff run".into())
                .spawn(move || {
                    let r = run_from(
                        &config,
                        &oracles,
                        &shared,
                        &watch,
                        start,
                        (started, judge_reference),
                    );
                    let _ = tx.send(r);
                })
                .map_err(|e| format!("cannot start the run thread: {e}"))?;
        }
        let (mut sh, hung_impl, limit) = loop {
            match rx.recv_timeout(Duration::from_millis(100)) {
                Ok(r) => {
                    r?;
                    if config.progress {
                        eprint!("\r{:<80}\r", "");
                    }
                    return Ok(std::mem::take(&mut lock(&shared).summary));
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    return Err("the run thread ended without a result".into());
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    let cur = watch.current.load(Ordering::Acquire);
                    if cur == 0 {
                        continue;
                    }
                    let Some((pos, ..)) = *lock(&watch.case) else {
                        continue;
                    };
                    let limit = if config.checks[pos].is_end_to_end() {
                        config.e2e_timeout
                    } else {
                        config.kernel_timeout
                    };
                    let since = Duration::from_nanos(cur >> 16);
                    if watch.base.elapsed().saturating_sub(since) > limit {
                        // Decided under the results lock: if the call is still the one
                        // seen, the run thread has not yet judged its case (it clears
                        // `current` before it takes this lock), so `watch.case` still
                        // names the case that hung. A call that returned in the meantime
                        // is not a hang.
                        let sh = lock(&shared);
                        if watch.current.load(Ordering::Acquire) == cur {
                            break (sh, ((cur & 0xffff) - 1) as usize, limit);
                        }
                    }
                }
            }
        };
        // A hang: abandon the thread (it may never return), report, go on without it.
        watch.abandoned.store(true, Ordering::Release);
        let (pos, index, case) = lock(&watch.case).clone().expect("a case is in progress");
        let check = config.checks[pos];
        let name = oracles[hung_impl].name();
        if let Some(row) = sh.rows.get_mut(hung_impl) {
            row.cases += 1;
            row.mismatches += 1;
        }
        let r = Report::hang(
            check,
            &case,
            (oracles[0].name(), &Output::default()),
            name,
            limit,
            &Origin::Run {
                seed: config.seed,
                index,
                dir: &config.report_dir,
            },
        );
        sh.summary.findings.push(Finding {
            check: check.name(),
            implementation: name.to_string(),
            case: index,
            difference: r.first_difference.clone(),
            witnesses: Witnesses::default(),
            hang: true,
        });
        sh.summary.reports.push(r.write_into(&config.report_dir)?);
        sh.done += config.cases_of(check).saturating_sub(index + 1) * usize::from(hung_impl == 0);
        start = if hung_impl == 0 {
            // Without the reference nothing more of this check compares.
            finish_check(&mut sh, check);
            Start {
                check: pos + 1,
                case: 0,
                excluded: vec![false; oracles.len()],
            }
        } else {
            let mut excluded = if start.check == pos {
                start.excluded.clone()
            } else {
                vec![false; oracles.len()]
            };
            excluded[hung_impl] = true;
            // The others run the case it hung on again, so they compare every case.
            Start {
                check: pos,
                case: index,
                excluded,
            }
        };
    }
}

/// Formats the result table: check x implementation -> cases, mismatches, time.
pub fn table(summary: &Summary) -> String {
    let mut s = format!(
        "{:<26} {:<20} {:>8} {:>10} {:>10}\n",
        "check", "impl", "cases", "mismatches", "time"
    );
    for r in &summary.rows {
        s += &format!(
            "{:<26} {:<20} {:>8} {:>10} {:>9.3}s\n",
            r.check,
            r.implementation,
            r.cases,
            r.mismatches,
            r.time.as_secs_f64()
        );
    }
    s
}
