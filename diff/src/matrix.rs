//! The oracle matrix `mldsa-diff list` prints: which implementation answers which check on
//! this machine. Found by asking, not by assuming: each implementation is run on a check's
//! edge cases and a few generated inputs, and answers all of them, some (an interface it
//! lacks for some inputs, such as libcrux's external mu) or none.

use crate::check::Check;
use crate::oracle::Oracle;

/// How much of a check an implementation answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answers {
    /// Every sampled input.
    All,
    /// Some sampled inputs.
    Some,
    None,
}

impl Answers {
    fn mark(self) -> char {
        match self {
            Answers::All => '+',
            Answers::Some => '~',
            Answers::None => '.',
        }
    }
}

/// Generated inputs sampled per check, after its edge cases.
pub const SAMPLES: usize = 6;

/// What each of `oracles` answers of `check`.
pub fn answers(check: Check, oracles: &[Box<dyn Oracle>]) -> Vec<Answers> {
    let cases: Vec<_> = crate::check::cases(check, 1)
        .take(check.edge_cases() + SAMPLES)
        .collect();
    oracles
        .iter()
        .map(|o| {
            let n = cases
                .iter()
                .filter(|c| check.run(o.as_ref(), c).is_some())
                .count();
            match n {
                0 => Answers::None,
                n if n == cases.len() => Answers::All,
                _ => Answers::Some,
            }
        })
        .collect()
}

/// The matrix as text: a legend of numbered implementations, then one row per check.
pub fn render(checks: &[Check], oracles: &[Box<dyn Oracle>]) -> String {
    let mut s = String::from(
        "oracle matrix (answers on this machine: + every input, ~ some inputs, . none):\n",
    );
    for (i, o) in oracles.iter().enumerate() {
        s += &format!("  {:>2} {} ({})\n", i + 1, o.name(), o.origin().describe());
    }
    s += &format!("{:<26}", "");
    for i in 0..oracles.len() {
        s += &format!("{:>3}", i + 1);
    }
    s.push('\n');
    for &check in checks {
        s += &format!("{:<26}", check.name());
        for a in answers(check, oracles) {
            s += &format!("{:>3}", a.mark());
        }
        s.push('\n');
    }
    s
}
