//! Every published vector through every implementation: NIST ACVP (keyGen, sigGen, sigGen
//! tr1, sigVer) and C2SP Wycheproof (sign with seed, sign with expanded key, verify), each
//! case turned into the input of the end-to-end check that asks the same question
//! (`keygen`, `sign`, `sign_malformed_sk`, `sign_variants`, `verify`, `verify_variants`),
//! run on every implementation that answers it, and judged against the vector's expected
//! result. An implementation whose answer differs is either covered by a stated deviation
//! (`known`: then its answer must be exactly the one the entry computes) or a finding.
//! `mldsa-diff vectors` prints the table of who passes which file; `diff/tests/vectors.rs`
//! asserts it.

mod boundary;
mod input;
mod published;

pub use boundary::boundary_vectors;
pub use input::{NotRun, Vector, Want};
pub use published::{acvp_vectors, wycheproof_vectors};

use crate::known::{self, Expected};
use crate::model::{Output, Verdict};
use crate::oracle::Oracle;
use std::collections::BTreeMap;
use std::path::Path;

/// How one implementation answered one vector.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// What FIPS 204 demands.
    Right,
    /// Other than FIPS 204, exactly as the implementation's stated deviation computes.
    Known,
    /// Other than FIPS 204 and not predicted: a finding.
    Wrong,
    /// It has no interface for this input.
    Unanswered,
}

fn meets(want: &Want, out: &Output) -> bool {
    match want {
        Want::Bytes(b) => out.bytes == *b && !matches!(out.verdict, Verdict::Error(_)),
        Want::Accept(a) => out.scalar == i64::from(*a),
        Want::Refuse => matches!(out.verdict, Verdict::Error(_)),
    }
}

pub fn judge(o: &dyn Oracle, v: &Vector) -> Outcome {
    let Some(out) = v.check.run(o, &v.case) else {
        return Outcome::Unanswered;
    };
    if meets(&v.want, &out) {
        return Outcome::Right;
    }
    let stated = known::find(v.check, o.name(), o.origin())
        .filter(|k| k.deviation)
        .map(|k| {
            let portable = crate::impls::ours::Ours::new(mldsa::backend::Portable);
            let reference = v.check.run(&portable, &v.case).unwrap_or_default();
            match (k.expect)(v.check, &v.case, &reference) {
                Expected::Output(want) => crate::judge::compare(v.check, &want, &out).is_none(),
                Expected::Exactly(want) => want == out,
                Expected::Verdict(want) => want.kind() == out.verdict.kind(),
                Expected::Refusal => meets(&Want::Refuse, &out),
                Expected::Exits(text) => {
                    matches!(
                        &out.verdict,
                        Verdict::Fault(crate::model::Fault::Exited { stderr, .. })
                            if stderr.contains(text)
                    )
                }
            }
        });
    if stated == Some(true) {
        Outcome::Known
    } else {
        Outcome::Wrong
    }
}

/// One cell of the table.
#[derive(Clone, Debug, Default)]
pub struct Row {
    pub right: usize,
    pub known: usize,
    /// Findings (vector ids).
    pub wrong: Vec<String>,
    /// Inputs it has no interface for.
    pub unanswered: usize,
}

/// The table: (file, implementation) -> row.
pub type Table = BTreeMap<(String, &'static str), Row>;

/// Runs every vector through every oracle, on every core: each thread takes the next vector
/// not yet taken, so the slow ones (a pure-Python signer's, grouped in a few files) do not
/// all fall to one thread, as they did when the vectors were split in fixed chunks (142 s
/// against 81 s for the other thread, here).
pub fn run<O: AsRef<dyn Oracle> + Sync>(vectors: &[Vector], oracles: &[O]) -> Table {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let next = std::sync::atomic::AtomicUsize::new(0);
    let parts: Vec<Vec<(usize, usize, Outcome)>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads.min(vectors.len().max(1)))
            .map(|_| {
                s.spawn(|| {
                    let mut out = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(v) = vectors.get(i) else { break };
                        for (j, o) in oracles.iter().enumerate() {
                            out.push((i, j, judge(o.as_ref(), v)));
                        }
                    }
                    out
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a vector run panicked"))
            .collect()
    });
    // In vector order, whichever thread ran each: the rows' lists come out the same every run.
    let mut results: Vec<(usize, usize, Outcome)> = parts.into_iter().flatten().collect();
    results.sort_by_key(|&(i, j, _)| (i, j));
    let mut t = Table::new();
    for (i, j, outcome) in results {
        let v = &vectors[i];
        let row = t
            .entry((v.file.clone(), oracles[j].as_ref().name()))
            .or_default();
        match outcome {
            Outcome::Right => row.right += 1,
            Outcome::Known => row.known += 1,
            Outcome::Wrong => row.wrong.push(v.id.clone()),
            Outcome::Unanswered => row.unanswered += 1,
        }
    }
    t
}

/// Every vector's results.
#[derive(Debug)]
pub struct Results {
    pub table: Table,
    /// The implementations, in column order.
    pub names: Vec<&'static str>,
    /// Vectors no check can take.
    pub not_run: Vec<NotRun>,
    /// Vectors run.
    pub vectors: usize,
}

impl Results {
    /// The table as text: one line per file, one column per implementation, each cell
    /// `right[+known][!wrong]` or `-` where it answered nothing; `n/a` lines for vectors no
    /// check can take.
    pub fn render(&self) -> String {
        let (t, names) = (&self.table, &self.names);
        let mut files: Vec<&String> = t.keys().map(|(f, _)| f).collect();
        files.dedup();
        let w = files.iter().map(|f| f.len()).max().unwrap_or(4).max(4);
        let mut s = format!("{:<w$} {:>5}", "file", "cases");
        for n in names {
            s += &format!(" {n:>17}");
        }
        s.push('\n');
        for f in files {
            let total = t
                .iter()
                .find(|((ff, _), _)| ff == f)
                .map(|(_, r)| r.right + r.known + r.wrong.len() + r.unanswered)
                .unwrap_or(0);
            s += &format!("{f:<w$} {total:>5}");
            for n in names {
                let cell = match t.get(&(f.clone(), *n)) {
                    None => "?".to_string(),
                    Some(r) if r.unanswered == total => "-".to_string(),
                    Some(r) => {
                        let mut c = r.right.to_string();
                        if r.known > 0 {
                            c += &format!("+{}k", r.known);
                        }
                        if !r.wrong.is_empty() {
                            c += &format!("!{}", r.wrong.len());
                        }
                        if r.unanswered > 0 {
                            c += &format!("/{}", total - r.unanswered);
                        }
                        c
                    }
                };
                s += &format!(" {cell:>17}");
            }
            s.push('\n');
        }
        s += "cell: right answers; +Nk: stated deviations (known.rs), asserted exactly; !N: wrong \
              (a finding); /N: of N it answered; -: no interface for these inputs\n";
        for n in &self.not_run {
            s += &format!("n/a: {} {}: {}\n", n.file, n.id, n.why);
        }
        s
    }
    /// Every wrong answer, one line per (file, implementation).
    pub fn findings(&self) -> Vec<String> {
        self.table
            .iter()
            .filter(|(_, r)| !r.wrong.is_empty())
            .map(|((f, n), r)| format!("{n} on {f}: {}", r.wrong.join(", ")))
            .collect()
    }
}

/// The published verify vectors of the parameter sets `sets` (Wycheproof's verify files:
/// among them the two whose verdict a verifier that skips the reduction before its inverse
/// NTT gets wrong, which no generated input reaches) through every oracle: the part of the
/// published vectors `mldsa-diff check` runs.
pub fn run_published_verify<O: AsRef<dyn Oracle> + Sync>(
    dir: &Path,
    oracles: &[O],
    sets: &[mldsa::Params],
) -> Result<Results, String> {
    let verify: Vec<crate::check::Check> = sets
        .iter()
        .map(|p| input::check("verify", p))
        .collect::<Result<_, _>>()?;
    let (w, _) = wycheproof_vectors(dir)?;
    let vectors: Vec<Vector> = w
        .into_iter()
        .filter(|v| verify.contains(&v.check))
        .collect();
    Ok(Results {
        table: run(&vectors, oracles),
        names: oracles.iter().map(|o| o.as_ref().name()).collect(),
        not_run: Vec::new(),
        vectors: vectors.len(),
    })
}

/// The parameter sets whose `verify_{set}` check is among `checks`.
pub fn verify_sets(checks: &[crate::check::Check]) -> Vec<mldsa::Params> {
    mldsa::params::ALL_PARAMS
        .into_iter()
        .filter(|p| input::check("verify", p).is_ok_and(|c| checks.contains(&c)))
        .collect()
}

/// The published verify vectors `mldsa-diff check` runs after `summary`'s run: every oracle
/// but those that hung there (named in the text), and the text to print.
pub fn published_after(
    dir: &Path,
    oracles: &[std::sync::Arc<dyn Oracle>],
    sets: &[mldsa::Params],
    summary: &crate::runner::Summary,
) -> Result<(Results, String), String> {
    let hung: Vec<&str> = summary
        .findings
        .iter()
        .filter(|f| f.hang)
        .map(|f| f.implementation.as_str())
        .collect();
    let asked: Vec<&std::sync::Arc<dyn Oracle>> = oracles
        .iter()
        .filter(|o| !hung.contains(&o.name()))
        .collect();
    let r = run_published_verify(dir, &asked, sets)?;
    let wrong = r.findings();
    let text = format!(
        "\npublished verify vectors ({} Wycheproof cases{}):\n{}published: {}\n",
        r.vectors,
        if hung.is_empty() {
            String::new()
        } else {
            format!("; not asked, having hung above: {}", hung.join(", "))
        },
        r.render(),
        if wrong.is_empty() {
            "every verdict FIPS 204's or a stated deviation".to_string()
        } else {
            format!("WRONG VERDICTS:\n{}", wrong.join("\n"))
        }
    );
    Ok((r, text))
}

pub fn run_all(dir: &Path, oracles: &[Box<dyn Oracle>]) -> Result<Results, String> {
    let mut vectors = acvp_vectors(dir)?;
    let (w, not_run) = wycheproof_vectors(dir)?;
    vectors.extend(w);
    vectors.extend(boundary_vectors()?);
    Ok(Results {
        table: run(&vectors, oracles),
        names: oracles.iter().map(|o| o.name()).collect(),
        not_run,
        vectors: vectors.len(),
    })
}
