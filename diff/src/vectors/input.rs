//! A published or boundary vector as a check's input, with the answer it demands (a leaf:
//! the loaders and the judge take these types from here).

use crate::check::Check;
use crate::model::Case;

/// What FIPS 204 (the vector) demands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Want {
    /// Exactly these bytes (pk || sk, or a signature).
    Bytes(Vec<u8>),
    /// Accept (true) or reject.
    Accept(bool),
    /// The signer must refuse (any error).
    Refuse,
}

/// One vector as a check's input.
#[derive(Clone, Debug)]
pub struct Vector {
    /// The file and interface it belongs to ("acvp sigGen: pre-hash", a Wycheproof file).
    pub file: String,
    /// Its id in the file (tgId/tcId).
    pub id: String,
    /// The check that asks the same question.
    pub check: Check,
    pub case: Case,
    pub want: Want,
}

/// A vector no check can take, with why (counted and printed, never passed).
#[derive(Clone, Debug)]
pub struct NotRun {
    pub file: String,
    pub id: String,
    pub why: String,
}

/// The check `name` (with `{set}` filled in) for parameter set `p`.
pub(super) fn check(name: &str, p: &mldsa::Params) -> Result<Check, String> {
    let n = format!("{name}_{}", &p.name[7..]);
    Check::from_name(&n).ok_or_else(|| format!("no check {n}"))
}
