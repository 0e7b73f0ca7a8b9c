//! Judging one implementation's answer: against the contract's output bounds (Rust
//! backends), against its stated difference if [`crate::known`] lists one, else against the
//! reference, compared as the check's contract says.

use crate::check::{Check, def::Answer};
use crate::known::{self, Expected};
use crate::model::{Case, Difference, Fault, Field, Output, Provenance, Verdict, canonical};
use mldsa::backend::contract;
use std::slice::from_ref;

/// The first output coefficient outside the bounds the kernel's contract promises. Rust
/// backends must keep the contract; C code has its own (the comparison covers it).
pub fn contract_violation(check: Check, out: &Output) -> Option<Difference> {
    let c = check.contract()?;
    for (i, (poly, bounds)) in out.polys.iter().zip(c.output).enumerate() {
        if bounds == contract::ANY {
            continue;
        }
        if let Some((index, v)) = contract::first_violation(bounds, poly) {
            return Some(Difference {
                field: Field::PolyContract(i),
                index,
                reference: format!("[{}, {}]", bounds.lo, bounds.hi),
                other: v.to_string(),
            });
        }
    }
    None
}

/// The verdict of a judgement: where the answer differs, what was expected instead and
/// under which name ("contract", "expected", the reference's name).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Judged {
    pub difference: Difference,
    pub expected: Output,
    /// Whose answer that is.
    pub expected_from: String,
}

/// The implementation whose answer is judged.
#[derive(Clone, Copy, Debug)]
pub struct Whose<'a> {
    pub name: &'a str,
    pub origin: Provenance,
    pub is_reference: bool,
}

/// Judges `out`, the answer of `whose` to `check` on `case`, given the reference's answer
/// (named); `None` if it is right.
pub fn judge(
    check: Check,
    whose: Whose<'_>,
    case: &Case,
    (reference_name, reference): (&str, &Output),
    out: &Output,
) -> Option<Judged> {
    let expected =
        known::find(check, whose.name, whose.origin).map(|k| (k.expect)(check, case, reference));
    // A fault of the harness around an implementation (a kernel that wrote outside its
    // output buffer, a call that panicked, a process that failed to answer) is wrong
    // whoever made it, the reference included; but for a process whose exit on this input
    // is a stated bug of its own.
    if let Verdict::Fault(f) = &out.verdict {
        if let (Some(Expected::Exits(text)), Fault::Exited { stderr, .. }) = (&expected, f)
            && stderr.contains(text)
        {
            return None;
        }
        return Some(Judged {
            difference: Difference {
                field: Field::Verdict,
                index: 0,
                reference: "an answer (no fault of the harness around it)".into(),
                other: out.verdict.to_string(),
            },
            expected: Output::default(),
            expected_from: "the harness".into(),
        });
    }
    if whose.origin == Provenance::Ours
        && let Some(difference) = contract_violation(check, out)
    {
        return Some(Judged {
            difference,
            expected: Output::default(),
            expected_from: "contract".into(),
        });
    }
    let stated = |difference: Option<Difference>, want: Output| {
        difference.map(|difference| Judged {
            difference,
            expected: want,
            expected_from: format!("expected ({reference_name} + known difference)"),
        })
    };
    match expected {
        Some(Expected::Exits(text)) => Some(Judged {
            difference: Difference {
                field: Field::Verdict,
                index: 0,
                reference: format!(
                    "its process exits, saying {text:?} (a stated bug: FINDINGS.md)"
                ),
                other: out.verdict.to_string(),
            },
            expected: Output::default(),
            expected_from: "expected (known bug)".into(),
        }),
        Some(Expected::Verdict(want)) => {
            verdict_diff(&want, &out.verdict).map(|difference| Judged {
                difference,
                expected: Output {
                    verdict: want,
                    ..Output::default()
                },
                expected_from: "expected".into(),
            })
        }
        Some(Expected::Refusal) => {
            let refusal = Output {
                verdict: Verdict::Error(String::new()),
                ..Output::default()
            };
            let refused = Output {
                verdict: match &out.verdict {
                    Verdict::Error(_) => Verdict::Error(String::new()),
                    v => v.clone(),
                },
                ..out.clone()
            };
            exact(check, &refusal, &refused).map(|difference| Judged {
                difference,
                expected: refusal,
                expected_from: "expected (a refusal)".into(),
            })
        }
        Some(Expected::Output(want)) => stated(compare(check, &want, out), want),
        Some(Expected::Exactly(want)) => stated(exact(check, &want, out), want),
        None if whose.is_reference => None,
        None => compare(check, reference, out).map(|difference| Judged {
            difference,
            expected: reference.clone(),
            expected_from: reference_name.to_string(),
        }),
    }
}

fn first_diff<T: PartialEq + std::fmt::Display>(
    field: Field,
    a: &[T],
    b: &[T],
) -> Option<Difference> {
    if a == b {
        return None;
    }
    let index = a
        .iter()
        .zip(b)
        .position(|(x, y)| x != y)
        .unwrap_or(a.len().min(b.len()));
    let show = |v: &[T]| {
        v.get(index)
            .map_or_else(|| format!("<end, length {}>", v.len()), |x| x.to_string())
    };
    Some(Difference {
        field,
        index,
        reference: show(a),
        other: show(b),
    })
}

/// Compares `other` with `reference` as `check`'s contract says.
pub fn compare(check: Check, reference: &Output, other: &Output) -> Option<Difference> {
    if matches!(
        check.def.answer,
        Answer::Verdict | Answer::VerdictHashingOutput
    ) {
        // Accept/reject agreement; the reasons may be worded differently.
        return first_diff(Field::Accept, &[reference.scalar], &[other.scalar]);
    }
    let refusal = |o: &Output| matches!(o.verdict, Verdict::Error(_));
    if check.def.answer == Answer::SignatureOrRefusal && refusal(reference) && refusal(other) {
        // Two refusals agree however worded; everything else must still be equal.
        let unworded = |o: &Output| Output {
            verdict: Verdict::Error(String::new()),
            ..o.clone()
        };
        return exact(check, &unworded(reference), &unworded(other));
    }
    exact(check, reference, other)
}

/// Where `other` first differs from `reference` in any field (polynomials compared as the
/// check's contract says).
fn exact(check: Check, reference: &Output, other: &Output) -> Option<Difference> {
    let mod_q = check.mod_q();
    let norm = |x: i32| if mod_q { canonical(x) } else { x };
    if reference.polys.len() != other.polys.len() {
        return first_diff(
            Field::PolyCount,
            &[reference.polys.len()],
            &[other.polys.len()],
        );
    }
    for (i, (a, b)) in reference.polys.iter().zip(&other.polys).enumerate() {
        // Bit-identical outputs (the usual case) need no normalising: one slice comparison.
        if a == b {
            continue;
        }
        // Look for a difference without allocating (this runs once per fuzz execution).
        if a.len() != b.len() || a.iter().zip(b).any(|(&x, &y)| norm(x) != norm(y)) {
            let na: Vec<i32> = a.iter().map(|&x| norm(x)).collect();
            let nb: Vec<i32> = b.iter().map(|&x| norm(x)).collect();
            return first_diff(Field::Poly(i), &na, &nb);
        }
    }
    first_diff(Field::Bytes, &reference.bytes, &other.bytes)
        .or_else(|| first_diff(Field::Scalar, &[reference.scalar], &[other.scalar]))
        .or_else(|| verdict_diff(&reference.verdict, &other.verdict))
}

fn verdict_diff(a: &Verdict, b: &Verdict) -> Option<Difference> {
    first_diff(Field::Verdict, from_ref(a), from_ref(b))
}
