//! mldsa-ct-step: the native constant-time check (see `mldsa_diff::ctstep`). Every kernel
//! that handles secrets, on every backend this CPU has (or those named), single-stepped
//! under ptrace on several secret inputs: the instruction and address traces must be
//! identical. Then the controls (a secret-dependent branch and a secret-indexed load, plain,
//! AVX2 and AVX-512 where the CPU has them) must each be reported.
//!
//! Exit 0: every trace identical and every control reported; 1: a trace differs or a control
//! was not reported; 2: bad usage or a run that could not be traced.

use clap::Parser;
use std::process::ExitCode;

/// The most inputs a check may trace: the library's `ctstep::MAX_INPUTS` (which exists on
/// x86_64 Linux only; asserted equal there).
const MAX_INPUTS: u64 = 12;
#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
const _: () = assert!(MAX_INPUTS == mldsa_diff::ctstep::MAX_INPUTS);

#[derive(Parser)]
// Elsewhere than x86_64 Linux only parsed (to answer --help), never read.
#[cfg_attr(
    not(all(target_arch = "x86_64", target_os = "linux")),
    allow(dead_code)
)]
#[command(
    name = "mldsa-ct-step",
    about = "Constant time by single-stepping (x86_64 Linux)"
)]
struct Args {
    /// A backend to trace (repeatable; default: every backend this CPU has). One this CPU
    /// lacks is an error.
    #[arg(long = "backend")]
    backends: Vec<String>,
    /// A check to trace (repeatable; default: every check of a kernel that handles secrets).
    #[arg(long = "check")]
    checks: Vec<String>,
    /// Inputs per kernel: its check's first three edge cases (the first is the reference,
    /// which runs twice), then random ones.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u64).range(2..=MAX_INPUTS))]
    inputs: u64,
    /// Leave out the controls.
    #[arg(long)]
    no_controls: bool,
    /// Print the checks and controls, then exit.
    #[arg(long)]
    list: bool,
    /// The traced child (internal): TARGET BACKEND INPUT.
    #[arg(long, num_args = 3, hide = true)]
    child: Option<Vec<String>>,
}

#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
fn main() -> ExitCode {
    use mldsa_diff::ctstep;
    let args = Args::parse();
    if let Some(c) = &args.child {
        let input = match c[2].parse() {
            Ok(i) => i,
            Err(e) => {
                eprintln!("mldsa-ct-step --child: input {:?}: {e}", c[2]);
                return ExitCode::from(2);
            }
        };
        return match ctstep::child(&c[0], &c[1], input) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("{e}");
                ExitCode::from(2)
            }
        };
    }
    if args.list {
        println!("checks: {}", ctstep::SECRET_CHECKS.join(" "));
        println!("controls on this CPU: {}", ctstep::controls().join(" "));
        return ExitCode::SUCCESS;
    }
    let backends: Vec<String> = if args.backends.is_empty() {
        mldsa::BackendKind::available()
            .map(|k| k.name().to_string())
            .collect()
    } else {
        args.backends.clone()
    };
    for b in &backends {
        let ok = mldsa::BackendKind::parse(b).is_ok_and(|k| k.is_available());
        if !ok {
            eprintln!("mldsa-ct-step: --backend {b}: not a backend this build and CPU have");
            return ExitCode::from(2);
        }
    }
    let checks: Vec<String> = if args.checks.is_empty() {
        ctstep::SECRET_CHECKS
            .iter()
            .map(|s| s.to_string())
            .collect()
    } else {
        args.checks.clone()
    };
    for c in &checks {
        if !ctstep::SECRET_CHECKS.contains(&c.as_str()) {
            eprintln!("mldsa-ct-step: --check {c}: not one of the secret kernels' checks (--list)");
            return ExitCode::from(2);
        }
    }
    let exe = match std::env::current_exe() {
        Ok(e) => e,
        Err(e) => {
            eprintln!("mldsa-ct-step: its own path: {e}");
            return ExitCode::from(2);
        }
    };
    let (mut differ, mut errors) = (Vec::new(), Vec::new());
    // The reference twice (the harness's determinism), then the other inputs.
    let run = |target: &str, backend: &str| -> Result<Result<usize, String>, String> {
        let reference = ctstep::trace(&exe, target, backend, 0)?;
        if let Some(d) = ctstep::difference(&reference, &ctstep::trace(&exe, target, backend, 0)?) {
            return Err(format!("not deterministic: one input, two traces: {d}"));
        }
        for i in 1..args.inputs {
            if let Some(d) =
                ctstep::difference(&reference, &ctstep::trace(&exe, target, backend, i)?)
            {
                return Ok(Err(format!("input {i}: {d}")));
            }
        }
        Ok(Ok(reference.len()))
    };
    for b in &backends {
        println!("== {b}");
        for c in &checks {
            match run(c, b) {
                Ok(Ok(steps)) => {
                    println!(
                        "  {c} on {b}: identical on {} inputs ({steps} steps)",
                        args.inputs
                    )
                }
                Ok(Err(d)) => {
                    println!("  {c} on {b}: DIFFERS: {d}");
                    differ.push(format!("{c} on {b}"));
                }
                Err(e) => {
                    println!("  {c} on {b}: ERROR: {e}");
                    errors.push(format!("{c} on {b}"));
                }
            }
        }
    }
    let mut missed = Vec::new();
    if !args.no_controls {
        println!("== the controls (each must be reported)");
        for c in ctstep::controls() {
            match run(c, "portable") {
                Ok(Err(d)) => println!("  {c}: caught: {d}"),
                Ok(Ok(_)) => {
                    println!("  {c}: NOT REPORTED");
                    missed.push(c.to_string());
                }
                Err(e) => {
                    println!("  {c}: ERROR: {e}");
                    errors.push(c.to_string());
                }
            }
        }
    }
    if !errors.is_empty() {
        eprintln!("mldsa-ct-step: could not trace: {}", errors.join(", "));
        return ExitCode::from(2);
    }
    if !differ.is_empty() || !missed.is_empty() {
        eprintln!(
            "mldsa-ct-step: FAILED: traces differ: [{}]; controls not reported: [{}]",
            differ.join(", "),
            missed.join(", ")
        );
        return ExitCode::FAILURE;
    }
    println!(
        "mldsa-ct-step: {} checks on {} identical on every input; {}",
        checks.len(),
        backends.join(", "),
        if args.no_controls {
            "the controls not run (--no-controls)"
        } else {
            "every control caught"
        }
    );
    ExitCode::SUCCESS
}

#[cfg(not(all(target_arch = "x86_64", target_os = "linux")))]
fn main() -> ExitCode {
    let _ = Args::parse();
    eprintln!("mldsa-ct-step: x86_64 Linux only (ptrace, the x86 decoder)");
    ExitCode::from(2)
}
