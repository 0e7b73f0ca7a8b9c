//! `mldsa-diff exhaustive`: the rounding kernels over their whole domain, through every
//! implementation that offers them. Power2Round and Decompose over every r in [0, q),
//! UseHint over every r in [0, q) with both hint values, and MakeHint over every (a0, a1) its
//! contract admits (a0 in (-2 gamma2, 2 gamma2), a1 in [0, m)), for both gamma2 — about 92
//! million inputs, 256 to a call, which no random generator reaches (CCTV tests the same
//! functions this way).
//!
//! The reference (the portable backend) must equal FIPS 204 Alg. 35, 36, 39 and 40 written
//! plainly here ([`fips`]) on every input, and every other implementation is judged against
//! that answer (the reference's, on every input) exactly as every check judges it
//! ([`crate::judge`]: its stated differences in [`crate::known`] asserted exactly).

use crate::check::Check;
use crate::craft::spec;
use crate::judge::{self, Whose};
use crate::model::{Case, Output};
use crate::oracle::Oracle;
use mldsa::params::{Gamma2, ML_DSA_44, ML_DSA_65, Params, Q};
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// The kernels this runs, as check names.
pub const KERNELS: [&str; 7] = [
    "power2round",
    "decompose_88",
    "decompose_32",
    "make_hint_88",
    "make_hint_32",
    "use_hint_88",
    "use_hint_32",
];

/// Which rounding function a kernel of [`KERNELS`] is (same order).
const KINDS: [Kind; 7] = [
    Kind::Power2Round,
    Kind::Decompose,
    Kind::Decompose,
    Kind::MakeHint,
    Kind::MakeHint,
    Kind::UseHint,
    Kind::UseHint,
];

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Power2Round,
    Decompose,
    MakeHint,
    UseHint,
}

/// A (kernel, implementation) run gives up after this many mismatching calls (each is
/// counted; the first few are shown).
const GIVE_UP: usize = 64;
/// Calls per unit of work a thread takes at a time.
const SLICE: usize = 512;

/// FIPS 204's rounding functions written plainly (Alg. 35, 36, 39, 40), on integers.
pub mod fips {
    use super::{Params, spec};
    use spec::Q;

    /// Power2Round (Alg. 35): (r1, r0) with r0 = r mod+- 2^13 in (-2^12, 2^12].
    pub fn power2round(r: i64) -> (i64, i64) {
        let r = r.rem_euclid(Q);
        let mut r0 = r.rem_euclid(1 << 13);
        if r0 > 1 << 12 {
            r0 -= 1 << 13;
        }
        ((r - r0) >> 13, r0)
    }

    /// Decompose (Alg. 36).
    pub fn decompose(p: &Params, r: i64) -> (i64, i64) {
        spec::decompose(p, r)
    }

    /// MakeHint (Alg. 39) as the kernels take it: the hint for z = a0 added to r = a1 2 gamma2
    /// (whose HighBits is a1), i.e. whether HighBits(a1 2 gamma2 + a0) differs from a1.
    pub fn make_hint(p: &Params, a0: i64, a1: i64) -> bool {
        let g2 = i64::from(p.gamma2.value());
        let r = a1 * 2 * g2;
        spec::decompose(p, r).0 != spec::decompose(p, r + a0).0
    }

    /// UseHint (Alg. 40).
    pub fn use_hint(p: &Params, h: bool, r: i64) -> i64 {
        spec::use_hint(p, h, r, crate::craft::FIPS)
    }
}

/// One kernel over its domain: how many calls, each call's input and FIPS 204's answer.
#[derive(Clone, Copy)]
struct Domain {
    check: Check,
    kind: Kind,
    p: Params,
}

impl Domain {
    fn new(name: &str) -> Result<Domain, String> {
        let at = KERNELS
            .iter()
            .position(|k| *k == name)
            .ok_or_else(|| format!("{name} is not one of {}", KERNELS.join(", ")))?;
        let check = Check::from_name(name).ok_or_else(|| format!("no check {name}"))?;
        let p = match check.params().gamma2 {
            Gamma2::QMinus1Over88 => ML_DSA_44,
            Gamma2::QMinus1Over32 => ML_DSA_65,
        };
        Ok(Domain {
            check,
            kind: KINDS[at],
            p,
        })
    }

    /// The number of inputs: q for one input in [0, q), twice that for use_hint, every (a0,
    /// a1) for make_hint.
    fn inputs(&self) -> usize {
        let q = Q as usize;
        match self.kind {
            Kind::UseHint => 2 * q,
            Kind::MakeHint => self.a0_span() * self.p.gamma2.m() as usize,
            Kind::Power2Round | Kind::Decompose => q,
        }
    }

    /// a0's values for make_hint: (-2 gamma2, 2 gamma2).
    fn a0_span(&self) -> usize {
        4 * self.p.gamma2.value() as usize - 1
    }

    fn calls(&self) -> usize {
        self.inputs().div_ceil(256)
    }

    /// The inputs of call `call` (the last call repeats the last input to fill 256) as a
    /// case, and FIPS 204's answer to it.
    fn call(&self, call: usize) -> (Case, Output) {
        let p = &self.p;
        let index = |i: usize| (call * 256 + i).min(self.inputs() - 1);
        let q = Q as usize;
        let g2 = p.gamma2.value() as i64;
        let mut case = Case::default();
        let mut want = Output::default();
        match self.kind {
            Kind::Power2Round | Kind::Decompose => {
                let r: Vec<i32> = (0..256).map(|i| index(i) as i32).collect();
                let f = |x: i32| {
                    if self.kind == Kind::Decompose {
                        fips::decompose(p, x.into())
                    } else {
                        fips::power2round(x.into())
                    }
                };
                want.polys = vec![
                    r.iter().map(|&x| f(x).0 as i32).collect(),
                    r.iter().map(|&x| f(x).1 as i32).collect(),
                ];
                case.polys = vec![r];
            }
            Kind::UseHint => {
                let (r, h): (Vec<i32>, Vec<i32>) = (0..256)
                    .map(|i| ((index(i) % q) as i32, (index(i) / q) as i32))
                    .unzip();
                want.polys = vec![
                    r.iter()
                        .zip(&h)
                        .map(|(&r, &h)| fips::use_hint(p, h == 1, r.into()) as i32)
                        .collect(),
                ];
                case.polys = vec![r, h];
            }
            Kind::MakeHint => {
                let span = self.a0_span();
                let (a0, a1): (Vec<i32>, Vec<i32>) = (0..256)
                    .map(|i| {
                        let at = index(i);
                        ((at % span) as i32 - (2 * g2 - 1) as i32, (at / span) as i32)
                    })
                    .unzip();
                let h: Vec<i32> = a0
                    .iter()
                    .zip(&a1)
                    .map(|(&a0, &a1)| i32::from(fips::make_hint(p, a0.into(), a1.into())))
                    .collect();
                want.scalar = h.iter().map(|&x| i64::from(x)).sum();
                want.polys = vec![h];
                case.polys = vec![a0, a1];
            }
        }
        (case, want)
    }
}

/// One (kernel, implementation) row of the table.
#[derive(Clone, Debug)]
pub struct Row {
    pub kernel: String,
    pub implementation: String,
    /// Inputs answered (0: the implementation does not offer the kernel).
    pub inputs: usize,
    /// Calls whose answer was wrong.
    pub wrong_calls: usize,
    /// The first wrong answers, described.
    pub first: Vec<String>,
    /// Whether it stopped after [`GIVE_UP`] wrong calls.
    pub gave_up: bool,
    pub time: Duration,
}

struct Job {
    domain: Domain,
    oracle: usize,
    next: AtomicUsize,
    row: Mutex<Row>,
    offered: Mutex<Option<bool>>,
}

/// Runs `kernels` (names from [`KERNELS`]) through every implementation of `oracles` (the
/// reference first) on `threads` threads.
pub fn run(
    oracles: &[Arc<dyn Oracle>],
    kernels: &[&str],
    threads: usize,
) -> Result<Vec<Row>, String> {
    let reference = oracles.first().ok_or("no implementation")?;
    let mut jobs = Vec::new();
    for k in kernels {
        let domain = Domain::new(k)?;
        for (i, o) in oracles.iter().enumerate() {
            jobs.push(Job {
                domain,
                oracle: i,
                next: AtomicUsize::new(0),
                row: Mutex::new(Row {
                    kernel: k.to_string(),
                    implementation: o.name().to_string(),
                    inputs: 0,
                    wrong_calls: 0,
                    first: Vec::new(),
                    gave_up: false,
                    time: Duration::ZERO,
                }),
                offered: Mutex::new(None),
            });
        }
    }
    // The slowest implementations first, so that the threads finish together.
    jobs.sort_by_key(|j| std::cmp::Reverse(oracles[j.oracle].speed().kernel_us));
    std::thread::scope(|s| {
        for _ in 0..threads.max(1) {
            s.spawn(|| {
                for job in &jobs {
                    work(job, oracles, reference.name());
                }
            });
        }
    });
    Ok(jobs
        .into_iter()
        .map(|j| j.row.into_inner().unwrap_or_else(|e| e.into_inner()))
        .collect())
}

/// Takes slices of `job`'s calls until none is left.
fn work(job: &Job, oracles: &[Arc<dyn Oracle>], reference: &str) {
    let d = job.domain;
    let o = oracles[job.oracle].as_ref();
    let is_reference = job.oracle == 0;
    let whose = Whose {
        name: o.name(),
        origin: o.origin(),
        is_reference,
    };
    loop {
        if job.row.lock().map(|r| r.gave_up).unwrap_or(true) {
            return;
        }
        let start = job.next.fetch_add(SLICE, Ordering::Relaxed);
        if start >= d.calls() {
            return;
        }
        let t = Instant::now();
        let (mut answered, mut wrong, mut first) = (0, 0, Vec::new());
        for call in start..(start + SLICE).min(d.calls()) {
            let (case, fips_answer) = d.call(call);
            let Some(out) = d.check.run(o, &case) else {
                let mut offered = job.offered.lock().unwrap_or_else(|e| e.into_inner());
                if offered.is_none() {
                    *offered = Some(false);
                }
                if *offered == Some(false) {
                    return;
                }
                // It answered other calls of this kernel: not answering one is wrong.
                wrong += 1;
                first.push(format!("call {call}: not answered"));
                continue;
            };
            *job.offered.lock().unwrap_or_else(|e| e.into_inner()) = Some(true);
            answered += 256.min(d.inputs() - call * 256);
            // The reference's row holds it to FIPS 204 on every input, so the others are
            // judged against FIPS 204's answer as the reference's (not computing it twice).
            let verdict = if is_reference {
                crate::judge::compare(d.check, &fips_answer, &out).map(|diff| (diff, "FIPS 204"))
            } else {
                judge::judge(d.check, whose, &case, (reference, &fips_answer), &out)
                    .map(|j| (j.difference, "FIPS 204 (the reference's answer)"))
            };
            if let Some((diff, against)) = verdict {
                wrong += 1;
                if first.len() < 3 {
                    let input: Vec<String> = case
                        .polys
                        .iter()
                        .map(|p| p.get(diff.index).map_or("?".into(), i32::to_string))
                        .collect();
                    first.push(format!(
                        "input ({}): {} {:?}[{}]: {against} {} , got {}",
                        input.join(", "),
                        d.check.name(),
                        diff.field,
                        diff.index,
                        diff.reference,
                        diff.other
                    ));
                }
            }
        }
        let mut row = job.row.lock().unwrap_or_else(|e| e.into_inner());
        row.inputs += answered;
        row.wrong_calls += wrong;
        let room = 3usize.saturating_sub(row.first.len());
        row.first.extend(first.into_iter().take(room));
        row.gave_up |= row.wrong_calls >= GIVE_UP;
        row.time += t.elapsed();
    }
}

/// The table: kernel, implementation, inputs, wrong calls, time; then the first wrong
/// answers. `true` if every answer was right.
pub fn print(rows: &[Row]) -> bool {
    println!(
        "{:<14} {:<20} {:>12} {:>8} {:>9}",
        "kernel", "implementation", "inputs", "wrong", "time"
    );
    let mut ok = true;
    for r in rows.iter().filter(|r| r.inputs > 0 || r.wrong_calls > 0) {
        println!(
            "{:<14} {:<20} {:>12} {:>8} {:>8.2}s{}",
            r.kernel,
            r.implementation,
            r.inputs,
            r.wrong_calls,
            r.time.as_secs_f64(),
            if r.gave_up { "  (gave up)" } else { "" }
        );
        ok &= r.wrong_calls == 0;
    }
    for r in rows.iter().filter(|r| r.wrong_calls > 0) {
        for f in &r.first {
            println!("{} on {}: {f}", r.kernel, r.implementation);
        }
    }
    ok
}

/// `mldsa-diff exhaustive`: `only` (names from [`KERNELS`], all if empty) through `oracles`
/// (the reference first) on `threads` threads (default: every core), the table printed;
/// `true` if every answer was right.
pub fn command(
    oracles: &[Arc<dyn Oracle>],
    only: &[String],
    threads: Option<usize>,
) -> Result<bool, String> {
    if let Some(k) = only.iter().find(|k| !KERNELS.contains(&k.as_str())) {
        return Err(format!(
            "--only {k}: not one of the exhaustive kernels ({})",
            KERNELS.join(", ")
        ));
    }
    let kernels: Vec<&str> = if only.is_empty() {
        KERNELS.to_vec()
    } else {
        only.iter().map(String::as_str).collect()
    };
    let threads = threads.unwrap_or_else(|| {
        std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
    });
    let started = Instant::now();
    let rows = run(oracles, &kernels, threads)?;
    let ok = print(&rows);
    println!(
        "exhaustive: {} inputs in {:.1}s; {}",
        rows.iter().map(|r| r.inputs).sum::<usize>(),
        started.elapsed().as_secs_f64(),
        if ok {
            "every answer right"
        } else {
            "WRONG ANSWERS"
        }
    );
    Ok(ok)
}
