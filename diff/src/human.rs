//! The human-readable result of `mldsa-diff check`: the table, the totals, hangs,
//! mismatches with their witnesses, reports with their replay commands.

use crate::runner::{self, Config};

/// Prints the check's result for a person: `names` are the implementations compared, the
/// reference first.
pub fn print(config: &Config, summary: &runner::Summary, names: &[&str]) {
    println!(
        "mldsa-diff check: {} checks, {} cases per kernel, {} per end-to-end check, seed {}, {} ({})",
        config.checks.len(),
        config.cases,
        config.e2e_cases,
        config.seed,
        names.join(" vs "),
        std::env::consts::ARCH
    );
    print!("{}", runner::table(summary));
    let comparisons: usize = summary.compared("portable").map(|r| r.cases).sum();
    let seconds: f64 = summary.rows.iter().map(|r| r.time.as_secs_f64()).sum();
    println!(
        "\n{comparisons} comparisons against the reference in {seconds:.1}s; {} mismatches",
        summary.mismatches()
    );
    let mut sampled: Vec<(&str, usize)> = Vec::new();
    for r in summary.rows.iter().filter(|r| r.stride > 1) {
        match sampled.iter_mut().find(|(n, _)| *n == r.implementation) {
            Some((_, k)) => *k = (*k).max(r.stride),
            None => sampled.push((&r.implementation, r.stride)),
        }
    }
    for (name, k) in sampled {
        println!(
            "{name} is slow by its own statement: it ran each check's edge cases and every k-th \
             other case (k up to {k}; `cases` above)"
        );
    }
    for f in summary.findings.iter().filter(|f| f.hang) {
        let (check, imp) = (&f.check, &f.implementation);
        println!(
            "HANG {check} {imp} case {}: no answer within the time limit; {imp} sat out the rest of {check}",
            f.case
        );
    }
    for f in &summary.findings {
        println!(
            "MISMATCH {} {} case {}: {}",
            f.check, f.implementation, f.case, f.difference
        );
        if !f.hang {
            println!("    {}", f.witnesses.describe(&f.implementation));
        }
    }
    for r in &summary.reports {
        let replay = crate::report::replay_command(r);
        println!("report: {}  (replay: {replay})", r.display());
    }
    if !summary.uncompared.is_empty() {
        println!(
            "not compared here (no second implementation on {}): {}",
            std::env::consts::ARCH,
            summary.uncompared.join(", ")
        );
    }
    let compared: Vec<_> = summary.compared(names[0]).collect();
    println!(
        "mldsa-diff: {} passed, {} failed",
        compared.iter().filter(|r| r.mismatches == 0).count(),
        compared.iter().filter(|r| r.mismatches > 0).count()
    );
}
