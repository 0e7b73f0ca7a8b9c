//! `mldsa-diff`: the differential check of every ML-DSA implementation on this machine.

use clap::{Parser, Subcommand};
use mldsa_diff::check::{Check, parse_params};
use mldsa_diff::impls;
use mldsa_diff::oracle::Oracle;
use mldsa_diff::runner::{self, Config};
use std::io::IsTerminal;
use std::path::Path;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "mldsa-diff",
    version,
    about = "Differential testing of ML-DSA: every backend of mldsa and the PQClean C code, kernel by kernel and end to end"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Also compare an implementation in another process, in any language, that speaks the
    /// oracle protocol (diff/oracles/PROTOCOL.md): NAME=COMMAND (a shell command). Repeatable.
    #[arg(long = "oracle", global = true, value_name = "NAME=COMMAND")]
    oracles: Vec<mldsa_diff::impls::process::Spec>,
    /// Also compare the implementations of this file's NAME=COMMAND lines (as --oracle).
    /// The MLDSA_DIFF_ORACLES environment variable names one for every command and fuzz target.
    #[arg(long = "oracles", global = true, value_name = "FILE")]
    oracle_files: Vec<PathBuf>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    Human,
    Json,
    Junit,
}

// No doc comment: the `Check` variant's is the command's help.
#[derive(clap::Args)]
struct CheckArgs {
    /// Cases per kernel check.
    #[arg(long, default_value_t = 10_000)]
    cases: usize,
    /// Cases per end-to-end check (keygen/sign/verify per parameter set).
    #[arg(long, default_value_t = 200)]
    e2e_cases: usize,
    /// Seed of the input stream (the same seed gives the same inputs everywhere).
    #[arg(long, default_value_t = 20_260_101)]
    seed: u64,
    /// Parameter sets, comma separated: checks that no listed set uses are skipped.
    #[arg(long, default_value = "44,65,87")]
    params: String,
    /// Run only these checks (a name, or a prefix such as `decompose` or `sign`).
    #[arg(long, num_args = 1..)]
    only: Vec<String>,
    /// Compare only these implementations (the reference, portable, always runs). Asking
    /// for one this machine lacks is an error.
    #[arg(long = "impl", num_args = 1..)]
    implementations: Vec<String>,
    /// Where mismatch reports go.
    #[arg(long, default_value = "mldsa-diff-reports")]
    report_dir: PathBuf,
    /// Without the published verify vectors (Wycheproof's, from MLDSA_VECTORS, default
    /// ../shared/vectors), which the run otherwise adds for every set whose verify check runs
    /// and requires.
    #[arg(long)]
    no_published: bool,
    /// No progress bar.
    #[arg(long)]
    no_progress: bool,
    /// What to print: the human table, JSON, or JUnit XML.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
    /// Also write JUnit XML to this file.
    #[arg(long)]
    junit_out: Option<PathBuf>,
    /// Implementations that must be available, comma separated (e.g. `avx2,c-avx2`): an
    /// error if one is missing. Default: the MLDSA_REQUIRE_BACKENDS environment variable.
    #[arg(long)]
    require_backends: Option<String>,
    /// Time limit of one case on one implementation, in seconds (default: 10 for kernel
    /// checks, 60 for end-to-end checks). A call that takes longer is written as a hang
    /// report and counted as a mismatch; the run goes on without that implementation for
    /// the rest of that check.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    case_timeout_secs: Option<u64>,
    /// Stop after the first check with a mismatch; the checks after it and the published
    /// vectors are not run, and the run fails (for mutation testing: scripts/mutants.sh).
    #[arg(long)]
    fail_fast: bool,
}

#[derive(Subcommand)]
enum Command {
    /// Run every check over a seeded input stream; exit 1 on any mismatch.
    Check(CheckArgs),
    /// Run reports or raw fuzz inputs through every implementation available here.
    Replay {
        /// Report files (JSON) or raw fuzz artifacts.
        files: Vec<PathBuf>,
        /// The check a raw fuzz input belongs to (default: a directory name in its path).
        #[arg(long)]
        check: Option<String>,
        /// Also write a mismatch report (JSON) for the first difference found.
        #[arg(long)]
        report_out: Option<PathBuf>,
    },
    /// Search the signing inputs that take the signing loop's rare branches (with the model
    /// signer) and print them as `craft::rare::FOUND` entries, each with what it reaches.
    RareSearch {
        /// Parameter sets, comma separated.
        #[arg(long, default_value = "44,65,87")]
        params: String,
        /// Indices to try per (set, target) before giving up.
        #[arg(long, default_value_t = 20_000)]
        limit: u64,
    },
    /// Run every published vector (ACVP keyGen/sigGen/sigVer, every Wycheproof file, from
    /// MLDSA_VECTORS, default ../shared/vectors) through every implementation here and print
    /// the table of who passes which file. Exit 1 on any wrong answer not stated in known.rs.
    Vectors,
    /// Run the rounding kernels (Power2Round, Decompose, MakeHint, UseHint; both gamma2) over
    /// every input of their domain through every implementation here that offers them, judged
    /// against FIPS 204 written plainly and against the reference. Exit 1 on any wrong answer.
    Exhaustive {
        /// Only these kernels (power2round, decompose_88, decompose_32, make_hint_88,
        /// make_hint_32, use_hint_88, use_hint_32).
        #[arg(long, num_args = 1..)]
        only: Vec<String>,
        /// Only these implementations (besides the reference).
        #[arg(long = "impl", num_args = 1..)]
        implementations: Vec<String>,
        /// Threads (default: the machine's cores).
        #[arg(long)]
        threads: Option<usize>,
        /// Implementations that must take part (fail if one is missing here), comma
        /// separated; also MLDSA_REQUIRE_BACKENDS.
        #[arg(long)]
        require_backends: Option<String>,
    },
    /// Name every check with its contract, and the implementations available here.
    List {
        /// Print only the check names, one per line.
        #[arg(long)]
        names: bool,
        /// Print the table of which implementation passes which published-vector file (runs
        /// them all, as `mldsa-diff vectors` does; needs MLDSA_VECTORS).
        #[arg(long, conflicts_with = "names")]
        vectors: bool,
    },
    /// Write fuzz seed corpora: each check's edge cases and COUNT random valid inputs, as the
    /// bytes the fuzz targets decode, into OUT/<check>/.
    Corpus {
        /// Output directory (fuzz/corpus for cargo fuzz).
        #[arg(long, default_value = "fuzz/corpus")]
        out: PathBuf,
        /// Random inputs per check, besides the edge cases.
        #[arg(long, default_value_t = 300)]
        count: usize,
        /// Seed of the random inputs.
        #[arg(long, default_value_t = 20_260_101)]
        seed: u64,
        /// Only these checks (names or prefixes).
        #[arg(long, num_args = 1..)]
        only: Vec<String>,
    },
    /// Turn a (minimised) failing fuzz input into a regression file under
    /// DIR/<check>/, which `cargo test` then replays on every architecture.
    Promote {
        /// The fuzz artifact.
        artifact: PathBuf,
        /// Its check (default: a directory name in its path).
        #[arg(long)]
        check: Option<String>,
        /// The regressions directory.
        #[arg(long, default_value = "fuzz/regressions")]
        dir: PathBuf,
    },
    /// Hash a fixed, seeded stream of inputs through every check on one Rust backend and
    /// compare the digest with the committed one (diff/transcript.expected): every backend on
    /// every architecture must give the same digest. Exit 1 if it differs.
    Transcript {
        /// Seed of the input stream; only the default seed has a committed digest, so another
        /// seed needs --write (without it: an error, exit 2).
        #[arg(long, default_value_t = mldsa_diff::transcript::DEFAULT_SEED)]
        seed: u64,
        /// The backend to run (default: MLDSA_BACKEND, else the best on this machine). Naming
        /// one this machine lacks is an error.
        #[arg(long)]
        backend: Option<String>,
        /// Write the transcript's text form to this file (to bless a deliberate change:
        /// `--write diff/transcript.expected`).
        #[arg(long)]
        write: Option<PathBuf>,
    },
    /// Speak the oracle protocol (diff/oracles/PROTOCOL.md) on stdin and stdout with one
    /// implementation here, so that another harness can ask it as this one asks an adapter.
    Serve {
        /// The implementation (see `mldsa-diff list`).
        implementation: String,
    },
    /// Print the planted bug a check's fuzz target is measured against (see scripts/fuzz.sh).
    #[command(hide = true)]
    PlantedBug {
        /// Check name.
        check: String,
    },
}

fn select_oracles(names: &[String]) -> Result<Vec<Box<dyn Oracle>>, String> {
    let all = impls::available_checked()?;
    if names.is_empty() {
        return Ok(all);
    }
    let list = names.join(",");
    let wanted = mldsa_diff::ci::known_names(&list)?;
    if let Some(w) = wanted.iter().find(|w| !all.iter().any(|o| o.name() == **w)) {
        return Err(format!(
            "implementation {w} is not available on this machine ({})",
            std::env::consts::ARCH
        ));
    }
    Ok(all
        .into_iter()
        .enumerate()
        .filter(|(i, o)| *i == 0 || wanted.contains(&o.name()))
        .map(|(_, o)| o)
        .collect())
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("mldsa-diff: error: {e}");
            ExitCode::from(2)
        }
    }
}

fn run(cli: Cli) -> Result<ExitCode, String> {
    let mut specs = cli.oracles;
    for f in &cli.oracle_files {
        specs.extend(
            mldsa_diff::impls::process::read_specs(f).map_err(|e| format!("--oracles {e}"))?,
        );
    }
    mldsa_diff::impls::process::add(specs)?;
    // `serve` offers built-in implementations only, never planted (the harness asking it
    // plants its own).
    let serving = matches!(cli.command, Command::Serve { .. });
    let planted = std::env::var(mldsa_diff::impls::PLANTED_ENV).ok();
    if let Some(name) = planted.filter(|_| !serving) {
        // An unknown name is an error here, before any subcommand runs.
        impls::available_checked()?;
        eprintln!(
            "mldsa-diff: PLANTED FAULT in {name} ({} is set): its every answer is off by one bit",
            mldsa_diff::impls::PLANTED_ENV
        );
    }
    match cli.command {
        Command::List { vectors: true, .. } => vectors(),
        Command::List { names, .. } => list(names),
        Command::Check(args) => check(args),
        Command::Transcript {
            seed,
            backend,
            write,
        } => transcript(seed, backend.as_deref(), write.as_deref()),
        Command::PlantedBug { check } => {
            let c =
                Check::from_name(&check).ok_or_else(|| format!("no check is named {check:?}"))?;
            println!("{}", c.def.planted);
            Ok(ExitCode::SUCCESS)
        }
        Command::Corpus {
            out,
            count,
            seed,
            only,
        } => corpus(&out, count, seed, &only),
        Command::Promote {
            artifact,
            check,
            dir,
        } => promote(&artifact, check.as_deref(), &dir),
        Command::Replay {
            files,
            check,
            report_out,
        } => {
            // A replay that must compare an implementation (MLDSA_REQUIRE_BACKENDS: the
            // nightly's corpus replay) fails if it is missing here.
            mldsa_diff::ci::require_from_env()?;
            mldsa_diff::replay::replay_files(&files, check.as_deref(), report_out.as_deref())
                .map(failure_if)
        }
        Command::RareSearch { params, limit } => rare_search(&params, limit),
        Command::Serve { implementation } => serve(&implementation),
        Command::Vectors => vectors(),
        Command::Exhaustive {
            only,
            implementations,
            threads,
            require_backends,
        } => {
            let oracles = required_oracles(&implementations, require_backends.as_deref())?;
            let ok = mldsa_diff::exhaustive::command(&oracles, &only, threads)?;
            Ok(failure_if(!ok))
        }
    }
}

/// The implementations `names` selects (all if empty; the reference always), after the
/// required ones (`require`, else MLDSA_REQUIRE_BACKENDS) are found here and among them.
fn required_oracles(
    names: &[String],
    require: Option<&str>,
) -> Result<Vec<std::sync::Arc<dyn Oracle>>, String> {
    let required = match require {
        Some(list) => {
            mldsa_diff::ci::require(list).map_err(|e| format!("--require-backends: {e}"))?
        }
        None => mldsa_diff::ci::require_from_env()?,
    };
    let oracles = select_oracles(names)?;
    let here: Vec<&str> = oracles.iter().map(|o| o.name()).collect();
    if let Some(r) = required.iter().find(|r| !here.contains(&r.as_str())) {
        return Err(format!("{r} is required but --impl leaves it out"));
    }
    Ok(oracles.into_iter().map(std::sync::Arc::from).collect())
}

fn serve(name: &str) -> Result<ExitCode, String> {
    let all = impls::built_in();
    let o = all.iter().find(|o| o.name() == name).ok_or_else(|| {
        let names: Vec<&str> = all.iter().map(|o| o.name()).collect();
        format!(
            "no implementation {name:?} here (available: {})",
            names.join(", ")
        )
    })?;
    let stdin = std::io::stdin().lock();
    mldsa_diff::serve::serve(o.as_ref(), stdin, std::io::stdout().lock())?;
    Ok(ExitCode::SUCCESS)
}

fn vectors() -> Result<ExitCode, String> {
    let dir = mldsa_kat::require_vectors_dir()?;
    let oracles = impls::available_checked()?;
    let r = mldsa_diff::vectors::run_all(&dir, &oracles)?;
    print!("{}", r.render());
    let findings = r.findings();
    if findings.is_empty() {
        println!("vectors: every answer is FIPS 204's or a stated deviation");
    } else {
        println!("vectors: wrong answers:\n{}", findings.join("\n"));
    }
    Ok(failure_if(!findings.is_empty()))
}

/// Exit status 1 if `failed`, else 0.
fn failure_if(failed: bool) -> ExitCode {
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

fn rare_search(params: &str, limit: u64) -> Result<ExitCode, String> {
    for p in mldsa_diff::check::parse_params(params)? {
        print!("{}", mldsa_diff::craft::rare::search_listing(&p, limit));
    }
    Ok(ExitCode::SUCCESS)
}

fn list(names_only: bool) -> Result<ExitCode, String> {
    if names_only {
        Check::all().iter().for_each(|c| println!("{}", c.name()));
    } else {
        print!("{}", mldsa_diff::listing::render()?);
        println!(
            "\nWho passes which published-vector file: `mldsa-diff list --vectors` (runs every \
             ACVP and Wycheproof vector through every implementation here)."
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// The checks `--params` and `--only` select.
fn select_checks(params: &str, only: &[String]) -> Result<Vec<Check>, String> {
    let sets = parse_params(params)?;
    let checks = Check::all()
        .into_iter()
        .filter(|c| c.used_by(&sets))
        .collect();
    select_only(checks, only)
}

/// Of `checks`, those `--only` names (names or prefixes, comma separated; none: all). A name
/// no check has is an error.
fn select_only(mut checks: Vec<Check>, only: &[String]) -> Result<Vec<Check>, String> {
    if !only.is_empty() {
        let pats: Vec<&str> = only.iter().flat_map(|n| n.split(',')).collect();
        for p in &pats {
            if !Check::all().iter().any(|c| c.name().starts_with(p)) {
                return Err(format!("no check is named {p:?} (see `mldsa-diff list`)"));
            }
        }
        checks.retain(|c| pats.iter().any(|p| c.name().starts_with(p)));
    }
    Ok(checks)
}

fn check(args: CheckArgs) -> Result<ExitCode, String> {
    let limit = |default| {
        args.case_timeout_secs
            .map_or(default, std::time::Duration::from_secs)
    };
    let config = Config {
        cases: args.cases,
        e2e_cases: args.e2e_cases,
        seed: args.seed,
        checks: select_checks(&args.params, &args.only)?,
        report_dir: args.report_dir,
        max_reports: 3,
        progress: !args.no_progress && std::io::stderr().is_terminal(),
        kernel_timeout: limit(runner::KERNEL_TIMEOUT),
        e2e_timeout: limit(runner::E2E_TIMEOUT),
        fail_fast: args.fail_fast,
    };
    let oracles = required_oracles(&args.implementations, args.require_backends.as_deref())?;
    let names: Vec<&str> = oracles.iter().map(|o| o.name()).collect();
    // The published verify vectors of every set whose verify check runs (they reach what no
    // generated input does: README "Verify at the extremes of the arithmetic"); looked for
    // before the run, so that their absence is an error at once.
    let sets = mldsa_diff::vectors::verify_sets(&config.checks);
    let dir = (!sets.is_empty() && !args.no_published)
        .then(|| {
            mldsa_kat::require_vectors_dir()
                .map_err(|e| format!("{e}\n(or run without them: --no-published)"))
        })
        .transpose()?;
    let summary = runner::run(&config, &oracles)?;
    let stopped = args.fail_fast && summary.mismatches() > 0;
    let published = dir
        .filter(|_| !stopped)
        .map(|d| mldsa_diff::vectors::published_after(&d, &oracles, &sets, &summary))
        .transpose()?;
    mldsa_diff::ci::github(&summary, names[0])?;
    if let Some(path) = &args.junit_out {
        let xml = mldsa_diff::ci::junit(&config, &summary, names[0])?;
        std::fs::write(path, xml).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    match args.format {
        Format::Human => mldsa_diff::human::print(&config, &summary, &names),
        Format::Json => println!("{}", mldsa_diff::ci::json(&config, &summary, names[0])),
        Format::Junit => println!("{}", mldsa_diff::ci::junit(&config, &summary, names[0])?),
    }
    let mut wrong = Vec::new();
    if let Some((r, text)) = &published {
        wrong = r.findings();
        // On stderr for the machine-readable formats, whose stdout is one document.
        match args.format {
            Format::Human => print!("{text}"),
            Format::Json | Format::Junit => eprint!("{text}"),
        }
    }
    if !wrong.is_empty() {
        eprintln!("mldsa-diff check: FAILED: wrong verdicts on the published verify vectors");
    }
    if stopped {
        let ran = |c: &Check| summary.rows.iter().any(|r| r.check == c.name());
        let left = config.checks.iter().filter(|c| !ran(c)).count();
        eprintln!(
            "mldsa-diff check: FAILED; --fail-fast: stopped after the first failing check \
             (not run: {left} of the selected checks, and the published vectors)"
        );
    }
    Ok(failure_if(summary.mismatches() > 0 || !wrong.is_empty()))
}

fn corpus(out: &Path, count: usize, seed: u64, only: &[String]) -> Result<ExitCode, String> {
    let mut total = 0;
    for c in select_only(Check::all(), only)? {
        let dir = out.join(c.name());
        std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        for (i, bytes) in mldsa_diff::corpus::seeds(c, count, seed)
            .into_iter()
            .enumerate()
        {
            let path = dir.join(format!("seed-{i:04}"));
            std::fs::write(&path, bytes).map_err(|e| format!("{}: {e}", path.display()))?;
            total += 1;
        }
    }
    println!("wrote {total} seed inputs under {}", out.display());
    Ok(ExitCode::SUCCESS)
}

fn promote(artifact: &Path, check: Option<&str>, dir: &Path) -> Result<ExitCode, String> {
    let (c, _) = runner::load_replay(artifact, check)?;
    let bytes = std::fs::read(artifact).map_err(|e| format!("{}: {e}", artifact.display()))?;
    let path = mldsa_diff::corpus::promote(dir, c, &bytes)?;
    println!(
        "regression {} (check {}): `cargo test -p mldsa-diff --test regressions` replays it",
        path.display(),
        c.name()
    );
    Ok(ExitCode::SUCCESS)
}

fn transcript(seed: u64, backend: Option<&str>, write: Option<&Path>) -> Result<ExitCode, String> {
    use mldsa_diff::transcript::{self, Transcript};
    let kind = match backend {
        Some(name) => {
            let k =
                mldsa::BackendKind::parse(name).map_err(|e| format!("--backend {name}: {e}"))?;
            mldsa::backend::AnyBackend::new(k).map_err(|e| format!("--backend {name}: {e}"))?;
            k
        }
        None => mldsa::BackendKind::from_env()
            .map_err(|e| format!("MLDSA_BACKEND: {e}"))?
            .unwrap_or_else(mldsa::BackendKind::best),
    };
    // What the run is for: writing its transcript (never reading the committed one, so
    // `--write` can replace a file that no longer parses), or comparing with the committed
    // one. A seed with nothing to compare with and nothing written is refused before the
    // run, never a pass.
    enum Goal<'a> {
        Write(&'a Path),
        Compare(Transcript),
    }
    let goal = match write {
        Some(path) => Goal::Write(path),
        None => {
            let e = Transcript::parse(transcript::EXPECTED)
                .map_err(|e| format!("diff/transcript.expected: {e}"))?;
            if e.seed != seed {
                return Err(format!(
                    "--seed {seed}: no committed digest to compare with \
                     (diff/transcript.expected is for seed {}); --write FILE records this \
                     seed's transcript",
                    e.seed
                ));
            }
            Goal::Compare(e)
        }
    };
    let t = transcript::run(seed, kind)?;
    let cases: usize = t.checks.iter().map(|c| c.cases).sum();
    println!(
        "transcript: backend {kind} on {}, seed {seed}, {} checks ({} kernel cases each, {} end-to-end), {cases} cases",
        std::env::consts::ARCH,
        t.checks.len(),
        transcript::KERNEL_CASES,
        transcript::E2E_CASES,
    );
    println!("digest (SHA3-256): {}", t.total);
    let expected = match goal {
        Goal::Write(path) => {
            std::fs::write(path, t.to_text()).map_err(|e| format!("{}: {e}", path.display()))?;
            println!("written to {}", path.display());
            return Ok(ExitCode::SUCCESS);
        }
        Goal::Compare(expected) => expected,
    };
    match t.first_moved(&expected) {
        None if t.total == expected.total => {
            println!("transcript: matches the committed digest");
            println!("transcript: 1 passed, 0 failed");
            Ok(ExitCode::SUCCESS)
        }
        moved => {
            println!("transcript: MISMATCH: committed digest {}", expected.total);
            if let Some(name) = moved {
                let count = match mldsa_diff::Check::from_name(name) {
                    Some(c) if c.is_end_to_end() => {
                        format!("--e2e-cases {}", transcript::cases_for(c))
                    }
                    Some(c) => format!("--cases {}", transcript::cases_for(c)),
                    None => String::new(),
                };
                println!(
                    "first check whose outputs moved: {name}\n\
                     compare every implementation on exactly these inputs:\n  \
                     mldsa-diff check --seed {seed} --only {name} {count}"
                );
            }
            println!("transcript: 0 passed, 1 failed");
            Ok(ExitCode::FAILURE)
        }
    }
}
