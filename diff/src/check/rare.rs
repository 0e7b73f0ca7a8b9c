//! sign_rare_{set}: signing inputs that take the signing loop's rare branches (many rejected
//! attempts, exactly omega hints, ||z||, ||r0|| and ||c t0|| exactly at their bounds; the last
//! only for ML-DSA-44, the one set where it can happen), compared byte for
//! byte across every signer. Edge case i is the committed input of [`Target::ALL`]`[i]` for
//! the set ([`crate::craft::rare::FOUND`]); random cases derive an input of a random target
//! from a random index (not searched: most take the common path).

use super::def::{Check, Def};
use crate::craft::rare::{self, FOUND, Target};
use crate::model::Case;
use crate::source::{Drawn, Source};

/// The committed search index for (set, target), if the search found one.
pub fn found(set: &str, target: Target) -> Option<u64> {
    FOUND
        .iter()
        .find(|(s, t, _)| *s == set && *t == target)
        .map(|&(_, _, i)| i)
}

fn generate(check: Check, index: usize, edge: bool, src: &mut dyn Source) -> Drawn<Case> {
    let p = check.params();
    let (target, at, how) = if edge {
        let t = Target::ALL[index];
        match found(p.name, t) {
            Some(i) => (t, i, "committed"),
            // An honest key's input instead: a big-t0 key's input that was not searched may
            // loop for ever in a signer without an attempt limit.
            None if !t.possible(&p) => (
                Target::Attempts(10),
                0,
                "target unreachable for this set; index 0 of",
            ),
            None if !t.searched(&p) => (
                Target::Attempts(10),
                0,
                "target not searched for this set; index 0 of",
            ),
            None => (
                Target::Attempts(10),
                0,
                "target not found by the search; index 0 of",
            ),
        }
    } else {
        // Honest keys only (see above): the targets whose inputs keep the key's t0.
        let honest: Vec<Target> = Target::ALL.into_iter().filter(|t| !t.big_t0()).collect();
        let t = honest[src.int_in(0, honest.len() as i64 - 1)? as usize];
        let at = src.int_in(0, i64::from(u32::MAX))? as u64;
        (t, at, "random index")
    };
    let input = rare::input(&p, target, at);
    Ok(Case {
        sk: input.sk,
        msg: input.msg,
        rnd: input.rnd.to_vec(),
        note: format!("{} ({how} {at})", target.describe()),
        ..Case::default()
    })
}

pub static SIGN_RARE: Def = Def {
    edge_cases: Target::ALL.len(),
    generate,
    ..super::e2e::e2e(
        "sign_rare_{set}",
        |_| {
            "sk, msg, rnd found to take a rare branch of the signing loop (10/30/100+ attempts, \
             omega hints, ||z||, ||r0|| and ||c t0|| at their bounds) -> signature; byte-identical"
                .into()
        },
        "pack_z",
    )
};
