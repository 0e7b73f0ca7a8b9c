//! Implementations in other processes, in any language, spoken to over the oracle protocol
//! (`diff/oracles/PROTOCOL.md`): [`hello`] what an adapter offers, [`child`] one running
//! adapter, [`remote`] an adapter as an [`Oracle`].
//!
//! Which ones run: the adapters this project ships (`diff/oracles/ADAPTERS`, one name per
//! line, each installed by `scripts/install-oracles.sh` as `<dir>/bin/<name>`, `<dir>` being
//! [`install_dir`]) wherever they are installed, and every `NAME=COMMAND` given with
//! `mldsa-diff --oracle`/`--oracles FILE` ([`add`]) or in the file named by [`ORACLES_ENV`]
//! (read by the fuzz targets and every subcommand too). Each is started once per process, when
//! the registry is first read: a command that cannot start or says no valid hello is an
//! error then, never a silent skip.

mod child;
pub mod hello;
mod remote;
mod signals;

pub use remote::Remote;

use crate::oracle::Oracle;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

/// The adapters this project ships, one name per line (`#` comments); each is the folder
/// `diff/oracles/<name>/`.
const SHIPPED: &str = include_str!("../../../oracles/ADAPTERS");

/// The file of `NAME=COMMAND` lines every `mldsa-diff` command and fuzz target also runs.
pub const ORACLES_ENV: &str = "MLDSA_DIFF_ORACLES";
/// Where the shipped adapters are installed, if not the default ([`install_dir`]).
pub const DIR_ENV: &str = "MLDSA_ORACLES_DIR";

/// The shipped adapters' names.
pub fn shipped() -> Vec<&'static str> {
    SHIPPED
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect()
}

/// Where `scripts/install-oracles.sh` installs the shipped adapters for this architecture:
/// [`DIR_ENV`], else `target/oracles/<arch>` in the workspace (so an aarch64 build under
/// QEMU does not find the x86_64 ones).
pub fn install_dir() -> PathBuf {
    match std::env::var_os(DIR_ENV) {
        Some(d) => PathBuf::from(d),
        None => {
            let diff = Path::new(env!("CARGO_MANIFEST_DIR"));
            let root = diff.parent().unwrap_or(diff);
            root.join("target/oracles").join(std::env::consts::ARCH)
        }
    }
}

/// A shipped adapter's installed executable, if it is installed here.
pub fn installed(name: &str) -> Option<PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    let exe = install_dir().join("bin").join(name);
    let meta = std::fs::metadata(&exe).ok()?;
    (meta.is_file() && meta.permissions().mode() & 0o111 != 0).then_some(exe)
}

/// One implementation to start: its name in tables and reports, and its shell command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spec {
    pub name: String,
    pub command: String,
}

impl std::str::FromStr for Spec {
    type Err = String;

    /// `NAME=COMMAND`; a name of letters, digits, `.`, `_` and `-`.
    fn from_str(s: &str) -> Result<Spec, String> {
        let (name, command) = s
            .split_once('=')
            .ok_or_else(|| format!("{s:?}: an oracle is NAME=COMMAND"))?;
        let (name, command) = (name.trim(), command.trim());
        let valid = |c: char| c.is_ascii_alphanumeric() || "._-".contains(c);
        if name.is_empty() || !name.chars().all(valid) {
            return Err(format!(
                "{s:?}: an oracle's name is letters, digits, '.', '_' and '-'"
            ));
        }
        if command.is_empty() {
            return Err(format!("{s:?}: no command"));
        }
        Ok(Spec {
            name: name.into(),
            command: command.into(),
        })
    }
}

/// The `NAME=COMMAND` lines of `path` (blank lines and `#` comments left out).
pub fn read_specs(path: &Path) -> Result<Vec<Spec>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    text.lines()
        .enumerate()
        .map(|(i, l)| (i, l.trim()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
        .map(|(i, l)| {
            l.parse()
                .map_err(|e| format!("{}:{}: {e}", path.display(), i + 1))
        })
        .collect()
}

/// The oracles added by the command line, before the registry is first read.
static EXTRA: Mutex<Vec<Spec>> = Mutex::new(Vec::new());
/// The adapters started, once per process.
static STARTED: OnceLock<Result<Vec<Remote>, String>> = OnceLock::new();

/// Adds implementations to start (`mldsa-diff --oracle`); an error once they have started.
pub fn add(specs: Vec<Spec>) -> Result<(), String> {
    if STARTED.get().is_some() {
        return Err("oracles must be added before the implementations are first listed".into());
    }
    EXTRA
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .extend(specs);
    Ok(())
}

/// Every implementation to start here: the shipped adapters installed here, then those of
/// [`ORACLES_ENV`] and [`add`]; a name given twice is an error.
pub fn specs() -> Result<Vec<Spec>, String> {
    let mut v: Vec<Spec> = shipped()
        .into_iter()
        .filter_map(|n| {
            installed(n).map(|exe| Spec {
                name: n.into(),
                command: shell_quote(&exe.to_string_lossy()),
            })
        })
        .collect();
    if let Some(path) = std::env::var_os(ORACLES_ENV) {
        v.extend(read_specs(Path::new(&path)).map_err(|e| format!("{ORACLES_ENV}: {e}"))?);
    }
    v.extend(
        EXTRA
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .cloned(),
    );
    let mut seen = BTreeMap::new();
    for s in &v {
        if let Some(first) = seen.insert(s.name.clone(), s.command.clone()) {
            return Err(format!(
                "two oracles are named {:?} (`{first}` and `{}`)",
                s.name, s.command
            ));
        }
    }
    Ok(v)
}

fn shell_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

/// `name` as a `&'static str`, one allocation per distinct name for the whole process.
fn intern(name: &str) -> &'static str {
    static NAMES: Mutex<Vec<&'static str>> = Mutex::new(Vec::new());
    let mut names = NAMES.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(n) = names.iter().find(|n| **n == name) {
        return n;
    }
    let n: &'static str = Box::leak(name.to_string().into_boxed_str());
    names.push(n);
    n
}

/// Every name these implementations have, whether or not they are installed here.
pub fn names() -> Vec<&'static str> {
    let mut v = shipped();
    if let Ok(specs) = specs() {
        v.extend(specs.iter().map(|s| intern(&s.name)));
    }
    v.sort_unstable();
    v.dedup();
    v
}

/// The adapters running in this process (started on the first call).
pub fn started() -> Result<Vec<Remote>, String> {
    STARTED
        .get_or_init(|| {
            specs()?
                .iter()
                .map(|s| Remote::start(intern(&s.name), &s.command))
                .collect()
        })
        .clone()
}

/// The adapters, as the registry lists them.
pub fn oracles() -> Result<Vec<Box<dyn Oracle>>, String> {
    Ok(started()?
        .into_iter()
        .map(|r| Box::new(r) as Box<dyn Oracle>)
        .collect())
}

/// The shipped adapters not installed here, for `mldsa-diff list`.
pub fn not_installed() -> Vec<&'static str> {
    shipped()
        .into_iter()
        .filter(|n| installed(n).is_none())
        .collect()
}

/// The case time limits of the run, in milliseconds (kernel, end to end): an adapter is
/// given nine tenths of its case's, so that it is killed (and its answer is a hang fault)
/// before the runner's watchdog gives up on the whole call.
static LIMITS: [AtomicU64; 2] = [AtomicU64::new(10_000), AtomicU64::new(60_000)];

/// Sets the case time limits (the runner does, from its configuration).
pub fn set_time_limits(kernel: Duration, end_to_end: Duration) {
    let ms = |d: Duration| u64::try_from(d.as_millis()).unwrap_or(u64::MAX);
    LIMITS[0].store(ms(kernel), Ordering::Relaxed);
    LIMITS[1].store(ms(end_to_end), Ordering::Relaxed);
}

/// The time an adapter has for one answer.
fn time_limit(end_to_end: bool) -> Duration {
    Duration::from_millis(LIMITS[usize::from(end_to_end)].load(Ordering::Relaxed) / 10 * 9)
}
