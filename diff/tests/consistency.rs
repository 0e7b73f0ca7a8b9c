//! Every kernel of the `Backend` trait has a written contract, a contract-checking wrapper
//! in `Checked` and a `mldsa-diff` check — or is listed below as deliberately without one,
//! with the reason. Read from the library's sources, so a new trait method that misses one
//! of the three fails here.

use mldsa_diff::Check;
use std::collections::BTreeSet;

fn source(path: &str) -> String {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../mldsa/src/backend")
        .join(path);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// Names of the functions declared in `text` by lines starting with `prefix`.
fn declared(text: &str, prefix: &str) -> BTreeSet<String> {
    text.lines()
        .filter_map(|l| l.strip_prefix(prefix))
        .filter_map(|rest| {
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            (!name.is_empty()).then_some(name)
        })
        .collect()
}

/// Trait methods without a contract-checking wrapper, and why.
const NOT_CHECKED: &[(&str, &str)] = &[
    ("run", "not a kernel: the context a whole operation runs in"),
    (
        "ntt_order_from_canonical",
        "a permutation the backend owns; any input is valid",
    ),
    (
        "ntt_order_to_canonical",
        "a permutation the backend owns; any input is valid",
    ),
];

/// Trait methods without a mldsa-diff check of their own, and why.
const NO_CHECK: &[(&str, &str)] = &[("run", "not a kernel: every end-to-end check runs inside it")];

/// Kernels whose contract is not a coefficient-bounds `Contract` in contract.rs, and why.
const NO_BOUNDS_CONTRACT: &[(&str, &str)] = &[
    ("run", "not a kernel"),
    ("ntt_order_from_canonical", "a permutation: any input"),
    ("ntt_order_to_canonical", "a permutation: any input"),
    ("keccak_f1600", "any 1600-bit state; compared bit-exactly"),
    ("keccak_f1600_x4", "any states; compared bit-exactly"),
    ("keccak_f1600_x4x2", "any states; compared bit-exactly"),
    ("keccak_f1600_public", "keccak_f1600's, for a public state"),
    (
        "keccak_f1600_x4_public",
        "keccak_f1600_x4's, for public states",
    ),
    (
        "keccak_f1600_x4x2_public",
        "keccak_f1600_x4x2's, for public states",
    ),
    (
        "unpack_eta",
        "any bytes; its verdict is pack_eta's input contract (Checked asserts it)",
    ),
    (
        "pack_hint",
        "0/1 coefficients, at most omega ones (contract::HINT_BITS, asserted by Checked)",
    ),
    (
        "unpack_hint",
        "any bytes; FIPS 204 Alg. 21's rejection rules, compared exactly",
    ),
];

#[test]
fn every_kernel_has_a_contract_a_checked_wrapper_and_a_check() {
    let methods = declared(&source("traits.rs"), "    fn ");
    let checked = declared(&source("checked.rs"), "    pub(crate) fn ");
    assert!(methods.len() > 30, "parsed the Backend trait: {methods:?}");
    let listed = |l: &[(&str, &str)], m: &str| l.iter().any(|(n, _)| *n == m);
    for (list, what) in [
        (NOT_CHECKED, "NOT_CHECKED"),
        (NO_CHECK, "NO_CHECK"),
        (NO_BOUNDS_CONTRACT, "NO_BOUNDS_CONTRACT"),
    ] {
        for (name, reason) in list {
            assert!(
                methods.contains(*name),
                "{what} lists {name}, not a trait method"
            );
            assert!(!reason.is_empty());
        }
    }
    let checks = Check::all();
    let mut problems = Vec::new();
    for m in &methods {
        if !checked.contains(m) && !listed(NOT_CHECKED, m) {
            problems.push(format!("{m}: no Checked wrapper"));
        }
        let exercising: Vec<&Check> = checks
            .iter()
            .filter(|c| c.def.kernels.contains(&m.as_str()))
            .collect();
        if exercising.is_empty() && !listed(NO_CHECK, m) {
            problems.push(format!("{m}: no mldsa-diff check exercises it"));
        }
        let bounded = exercising.iter().any(|c| c.contract().is_some());
        if !bounded && !listed(NO_BOUNDS_CONTRACT, m) {
            problems.push(format!(
                "{m}: no check draws it from a contract in contract.rs"
            ));
        }
    }
    for c in &checks {
        for k in c.def.kernels {
            if !methods.contains(*k) {
                problems.push(format!(
                    "check {} names {k}, not a Backend method",
                    c.name()
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
