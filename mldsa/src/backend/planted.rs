//! Test-only fault injection (feature `planted-bugs`, never on by default): with
//! `MLDSA_PLANTED_BUG=<kernel>` set, that portable kernel corrupts its output on the inputs
//! its `planted_bug!` site names (about one in 64 random inputs). The fuzz driver uses it to
//! show each target finds a wrong kernel, and to time how long that takes.

use std::string::String;
use std::sync::OnceLock;

/// Whether the planted bug of `kernel` is switched on in this process.
pub(crate) fn active(kernel: &str) -> bool {
    static WHICH: OnceLock<String> = OnceLock::new();
    WHICH.get_or_init(|| std::env::var("MLDSA_PLANTED_BUG").unwrap_or_default()) == kernel
}
