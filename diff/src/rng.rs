//! The one getrandom 0.3 provider of this workspace, and scripted randomness for the C code.
//!
//! Built with `--cfg getrandom_backend="custom"` (see `.cargo/config.toml`), getrandom 0.3
//! calls [`__getrandom_v03_custom`] below. While a script is active on the current thread
//! it hands out the scripted bytes; otherwise it reads the operating system's entropy.

use std::cell::RefCell;
use std::io::Read;
use std::mem::MaybeUninit;

struct Script {
    bytes: Vec<u8>,
    pos: usize,
    overrun: bool,
}

thread_local! {
    static SCRIPT: RefCell<Option<Script>> = const { RefCell::new(None) };
}

fn os_entropy(out: &mut [u8]) -> std::io::Result<()> {
    std::fs::File::open("/dev/urandom")?.read_exact(out)
}

/// Fills `out` (possibly uninitialised memory) from the active script if there is one,
/// else from the OS.
fn fill(out: &mut [MaybeUninit<u8>]) -> Result<(), getrandom::Error> {
    let mut bytes = vec![0u8; out.len()];
    let scripted = SCRIPT.with(|s| {
        let mut s = s.borrow_mut();
        let Some(script) = s.as_mut() else {
            return false;
        };
        let avail = script.bytes.len() - script.pos;
        let n = avail.min(bytes.len());
        bytes[..n].copy_from_slice(&script.bytes[script.pos..script.pos + n]);
        script.pos += n;
        if n < bytes.len() {
            // Never fail inside C: record the overrun (the rest stays zero) and report it
            // when the script ends.
            script.overrun = true;
        }
        true
    });
    if !scripted {
        os_entropy(&mut bytes).map_err(|_| getrandom::Error::UNSUPPORTED)?;
    }
    for (o, b) in out.iter_mut().zip(bytes) {
        o.write(b);
    }
    Ok(())
}

/// The getrandom 0.3 custom backend entry point.
///
/// # Safety
/// getrandom calls this with `dest` valid for writes of `len` bytes (which may be
/// uninitialised).
#[allow(unsafe_code)]
#[unsafe(no_mangle)]
pub unsafe extern "Rust" fn __getrandom_v03_custom(
    dest: *mut u8,
    len: usize,
) -> Result<(), getrandom::Error> {
    if len == 0 {
        return Ok(());
    }
    // SAFETY: getrandom guarantees `dest` is valid for `len` bytes of writes; the memory
    // may be uninitialised, so it is viewed as `MaybeUninit<u8>` and only written.
    let out = unsafe { std::slice::from_raw_parts_mut(dest.cast::<MaybeUninit<u8>>(), len) };
    fill(out)
}

/// Why a scripted call did not consume exactly its script.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ScriptError {
    /// The code asked for more random bytes than scripted.
    Overrun,
    /// The code used fewer bytes than scripted.
    Unused { left: usize },
}

/// Puts back the script active before (normally none) when dropped: after the scripted
/// call, and while unwinding from it, so a later call never reads a stale script.
struct Restore(Option<Script>);

impl Drop for Restore {
    fn drop(&mut self) {
        let previous = self.0.take();
        SCRIPT.with(|s| *s.borrow_mut() = previous);
    }
}

/// Runs `f` with getrandom returning exactly `bytes` on this thread; an error if `f` did
/// not consume exactly those bytes. The previous script (normally none) is restored
/// afterwards, also if `f` panics.
pub fn with_script<R>(bytes: &[u8], f: impl FnOnce() -> R) -> Result<R, ScriptError> {
    let script = Script {
        bytes: bytes.to_vec(),
        pos: 0,
        overrun: false,
    };
    let restore = Restore(SCRIPT.with(|s| s.borrow_mut().replace(script)));
    let r = f();
    let script = SCRIPT
        .with(|s| s.borrow_mut().take())
        .expect("script set above");
    drop(restore);
    if script.overrun {
        Err(ScriptError::Overrun)
    } else if script.pos != script.bytes.len() {
        Err(ScriptError::Unused {
            left: script.bytes.len() - script.pos,
        })
    } else {
        Ok(r)
    }
}

/// True iff getrandom (as the C code reaches it) returns scripted bytes in this build.
pub fn scripting_active() -> bool {
    let want: Vec<u8> = (1..=32).collect();
    let mut got = [0u8; 32];
    matches!(with_script(&want, || getrandom::fill(&mut got)), Ok(Ok(()))) && got[..] == want[..]
}

/// Fails with instructions unless scripting is active: call before any exact C comparison.
pub fn require_scripting() -> Result<(), String> {
    if scripting_active() {
        Ok(())
    } else {
        Err("scripted randomness for the PQClean C code is not active: this binary was built without \
             --cfg getrandom_backend=\"custom\". Build inside the workspace (its .cargo/config.toml sets it), \
             or add it to RUSTFLAGS when RUSTFLAGS is set (a RUSTFLAGS variable replaces the config)."
            .to_string())
    }
}
