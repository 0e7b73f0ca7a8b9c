//! Signing inputs that make the rejection loop take its rare branches, found by a
//! deterministic search with the model signer ([`super::sign`]) and committed as data
//! ([`FOUND`]): each entry names what it reaches and the search index that reaches it, and
//! `mldsa-diff rare-search` re-finds every entry from index 0.
//!
//! An input is derived from (set, target, index) alone: xi, the message and rnd by SHAKE256,
//! and for the targets that need them, a secret key whose t0 is replaced by a pattern of
//! large coefficients (t0 is only decoded, never checked against the public key, so the key
//! still decodes; larger |c t0| means more hints). s1 and s2 stay those of the key, in range.

use super::sign::{self, Attempt, Rejection};
use super::spec::{h256, pack_bits, signed};
use mldsa::Params;

/// A rare branch of the signing loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    /// Between n and 3n attempts before the signature.
    Attempts(usize),
    /// Exactly omega hints in the accepted attempt.
    HintsOmega,
    /// A rejected attempt whose ||z|| is exactly gamma1 - beta (the first rejected value).
    ZAtBound,
    /// The accepted attempt's ||z|| is exactly gamma1 - beta - 1 (the last accepted value).
    ZJustInside,
    /// A rejected attempt whose z passed and whose ||r0|| is exactly gamma2 - beta.
    R0AtBound,
    /// The accepted attempt's ||r0|| is exactly gamma2 - beta - 1.
    R0JustInside,
    /// A rejected attempt whose z and r0 passed and whose ||c t0|| is exactly gamma2 (the
    /// first rejected value). Only ML-DSA-44 can reach it: ||c t0|| <= tau 2^12, which is
    /// below gamma2 for ML-DSA-65 (200,704 < 261,888) and ML-DSA-87 (245,760 < 261,888).
    Ct0AtBound,
    /// Between 576 and 813 attempts: past a cap of 575 (Zig's std.crypto ML-DSA panics
    /// there: FINDINGS.md), within the 814 that FIPS 204 Appendix C lets a cap be at least.
    /// Searched for ML-DSA-44 only (one input shows a cap; an attempt of the model is
    /// cheapest there).
    Attempts576,
}

impl Target {
    /// What it is, for listings and notes.
    pub fn describe(self) -> String {
        match self {
            Target::Attempts(n) => format!("{n} to {} attempts", 3 * n),
            Target::HintsOmega => "exactly omega hints at acceptance".into(),
            Target::ZAtBound => "a rejected attempt with ||z|| = gamma1 - beta".into(),
            Target::ZJustInside => "accepted with ||z|| = gamma1 - beta - 1".into(),
            Target::R0AtBound => "a rejected attempt with ||r0|| = gamma2 - beta".into(),
            Target::R0JustInside => "accepted with ||r0|| = gamma2 - beta - 1".into(),
            Target::Ct0AtBound => "a rejected attempt with ||c t0|| = gamma2".into(),
            Target::Attempts576 => "576 to 813 attempts (past a 575-attempt cap)".into(),
        }
    }

    /// Every target the search looks for.
    pub const ALL: [Target; 10] = [
        Target::Attempts(10),
        Target::Attempts(30),
        Target::Attempts(100),
        Target::HintsOmega,
        Target::ZAtBound,
        Target::ZJustInside,
        Target::R0AtBound,
        Target::R0JustInside,
        Target::Ct0AtBound,
        Target::Attempts576,
    ];

    fn tag(self) -> u8 {
        Target::ALL.iter().position(|t| *t == self).expect("listed") as u8
    }

    /// Whether the key's t0 is replaced by a pattern (more hints, so more rejections; or,
    /// for [`Target::Ct0AtBound`], one polynomial of t0 at [`CT0_T`]).
    pub fn big_t0(self) -> bool {
        matches!(
            self,
            Target::Attempts(100) | Target::HintsOmega | Target::Ct0AtBound | Target::Attempts576
        )
    }

    /// Whether set `p` can reach this target at all (see [`Target::Ct0AtBound`]).
    pub fn possible(self, p: &Params) -> bool {
        match self {
            Target::Ct0AtBound => p.tau as i64 * 4096 >= i64::from(p.gamma2.value()),
            _ => true,
        }
    }

    /// Whether the search looks for it in set `p` (see [`Target::Attempts576`]).
    pub fn searched(self, p: &Params) -> bool {
        self.possible(p) && (self != Target::Attempts576 || p.k == 4)
    }

    /// Whether `attempts` (the model's record of one signing) reaches this target.
    pub fn reached(self, p: &Params, attempts: &[Attempt]) -> bool {
        let Some(last) = attempts.last().filter(|a| a.rejected.is_none()) else {
            return false;
        };
        let zb = i64::from(p.gamma1.value() - p.beta);
        let rb = i64::from(p.gamma2.value() - p.beta);
        let rejected = &attempts[..attempts.len() - 1];
        match self {
            // At most 3n: every signer runs each attempt, so the case stays cheap.
            Target::Attempts(n) => (n..=3 * n).contains(&attempts.len()),
            Target::HintsOmega => last.hints == Some(p.omega),
            Target::ZAtBound => rejected.iter().any(|a| a.z == zb),
            Target::ZJustInside => last.z == zb - 1,
            Target::R0AtBound => rejected
                .iter()
                .any(|a| a.rejected == Some(Rejection::R0) && a.r0 == Some(rb)),
            Target::R0JustInside => last.r0 == Some(rb - 1),
            Target::Ct0AtBound => rejected.iter().any(|a| {
                a.rejected == Some(Rejection::Ct0) && a.ct0 == Some(i64::from(p.gamma2.value()))
            }),
            Target::Attempts576 => (576..814).contains(&attempts.len()),
        }
    }
}

/// One signing input: secret key, message (pure, empty context) and rnd.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Input {
    /// The expanded secret key.
    pub sk: Vec<u8>,
    pub msg: Vec<u8>,
    pub rnd: [u8; 32],
}

/// The t0 coefficient of [`Target::Ct0AtBound`]'s pattern: 31 * 3,072 = 95,232, ML-DSA-44's
/// gamma2.
pub const CT0_T: i64 = 3072;

pub fn input(p: &Params, target: Target, index: u64) -> Input {
    let label = [
        b"mldsa-diff rare".as_slice(),
        p.name.as_bytes(),
        &[target.tag()],
        &index.to_le_bytes(),
    ];
    let mut seed = [0u8; 32 + 32 + 16];
    h256(&label, &mut seed);
    let (_, sk) = crate::check::e2e::keygen(p, &seed[..32]);
    let mut input = Input {
        sk,
        msg: seed[64..].to_vec(),
        rnd: seed[32..64].try_into().expect("32 bytes"),
    };
    let t0: Option<Vec<i64>> = if target == Target::Ct0AtBound {
        // t0's first polynomial := a pattern made for the challenge c of the honest key's
        // first attempt that passes the z and r0 checks (t0 does not change w, c~ or z, so
        // the attempts up to that one are the same): CT0_T c_j at position 255 - j for the
        // first 31 nonzero c_j, 0 elsewhere. Then coefficient 255 of c t0 is 31 CT0_T =
        // gamma2 exactly (no wrap-around at 255), that attempt is rejected at the c t0 check,
        // and a later attempt, whose challenge is unrelated to the pattern, signs.
        record(p, &input)
            .iter()
            .find(|a| !matches!(a.rejected, Some(Rejection::Z | Rejection::R0)))
            .map(|a| {
                let mut t0 = vec![0i64; 256];
                for j in (0..256).filter(|&j| a.c.0[j] != 0).take(31) {
                    t0[255 - j] = CT0_T * i64::from(a.c.0[j]);
                }
                t0
            })
    } else if target.big_t0() {
        // t0 := +-T in every coefficient, signs from the seed, T in [2048, 4095] by index
        // (for Attempts576 in [3850, 4025]: at T = 3800 the search saw up to about 340
        // attempts, at 4092 none signed within 1000).
        let t = match target {
            Target::Attempts576 => 3850 + (index % 8) as i64 * 25,
            _ => 2048 + (index % 8) as i64 * 292,
        };
        let mut signs = vec![0u8; p.k * 32];
        h256(&[&seed, b"t0"], &mut signs);
        Some((0..p.k * 256).map(|i| signed(&signs, i, t)).collect())
    } else {
        None
    };
    if let Some(t0) = t0 {
        // t0 (each coefficient in [-(2^12 - 1), 2^12]) as skEncode packs it: 13 bits of
        // 2^12 - t0 each (FIPS 204 Alg. 24, through BitPack), from its first polynomial on.
        let mut packed = Vec::new();
        pack_bits(t0.iter().map(|&v| (4096 - v) as u32), 13, &mut packed);
        let start = 128 + (p.l + p.k) * p.eta.poly_eta_bytes();
        input.sk[start..start + packed.len()].copy_from_slice(&packed);
    }
    input
}

/// The model signer's record of signing `input` (pure, empty context), up to the library's
/// attempt limit.
pub fn record(p: &Params, input: &Input) -> Vec<Attempt> {
    let m_prime = [&[0u8, 0][..], &input.msg].concat();
    sign::attempts(
        p,
        &input.sk,
        &m_prime,
        &input.rnd,
        usize::from(mldsa::MAX_SIGNING_ATTEMPTS),
    )
    .expect("a key of the set's length")
}

/// The first index from `from` on whose input reaches `target`, searching at most `limit`.
pub fn search(p: &Params, target: Target, from: u64, limit: u64) -> Option<u64> {
    (from..from + limit).find(|&i| target.reached(p, &record(p, &input(p, target, i))))
}

/// What `mldsa-diff rare-search` prints for set `p`: one [`FOUND`] line per target, with
/// what the model recorded for it and how long the search took (or that it found none in
/// `limit` indices).
pub fn search_listing(p: &Params, limit: u64) -> String {
    let mut out = String::new();
    for t in Target::ALL {
        if !t.possible(p) {
            out.push_str(&format!(
                "    // {} {t:?}: unreachable for this set (tau 2^12 < gamma2)\n",
                p.name
            ));
            continue;
        }
        if !t.searched(p) {
            out.push_str(&format!(
                "    // {} {t:?}: not searched for this set\n",
                p.name
            ));
            continue;
        }
        let start = std::time::Instant::now();
        let secs = || start.elapsed().as_secs_f64();
        let line = match search(p, t, 0, limit) {
            Some(i) => {
                let a = record(p, &input(p, t, i));
                let last = a.last().expect("at least one attempt");
                format!(
                    "    (\"{}\", Target::{t:?}, {i}), // {}: {} attempts, accepted with ||z|| {}, ||r0|| {:?}, {:?} hints ({:.1} s)",
                    p.name,
                    t.describe(),
                    a.len(),
                    last.z,
                    last.r0,
                    last.hints,
                    secs()
                )
            }
            None => format!(
                "    // {} {t:?}: not found in {limit} indices ({:.1} s)",
                p.name,
                secs()
            ),
        };
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// Found by `mldsa-diff rare-search` (the search from index 0; 16 s on x86_64 for all 25;
/// [`Target::Ct0AtBound`] only for ML-DSA-44, the one set that can reach it):
/// set, target, index, and what the model signer recorded for it.
#[rustfmt::skip]
pub const FOUND: &[(&str, Target, u64)] = &[
    ("ML-DSA-44", Target::Attempts(10), 20), // 10 to 30 attempts: 11 attempts, accepted with ||z|| 130988, ||r0|| Some(95141), Some(62) hints
    ("ML-DSA-44", Target::Attempts(30), 1045), // 30 to 90 attempts: 31 attempts, accepted with ||z|| 130976, ||r0|| Some(95030), Some(75) hints
    ("ML-DSA-44", Target::Attempts(100), 29), // 100 to 300 attempts: 120 attempts, accepted with ||z|| 130875, ||r0|| Some(95075), Some(78) hints
    ("ML-DSA-44", Target::HintsOmega, 2), // exactly omega hints at acceptance: 2 attempts, accepted with ||z|| 130992, ||r0|| Some(95120), Some(80) hints
    ("ML-DSA-44", Target::ZAtBound, 14), // a rejected attempt with ||z|| = gamma1 - beta: 5 attempts, accepted with ||z|| 130717, ||r0|| Some(95144), Some(54) hints
    ("ML-DSA-44", Target::ZJustInside, 212), // accepted with ||z|| = gamma1 - beta - 1: 1 attempts, accepted with ||z|| 130993, ||r0|| Some(94904), Some(62) hints
    ("ML-DSA-44", Target::R0AtBound, 134), // a rejected attempt with ||r0|| = gamma2 - beta: 11 attempts, accepted with ||z|| 130437, ||r0|| Some(95144), Some(56) hints
    ("ML-DSA-44", Target::R0JustInside, 46), // accepted with ||r0|| = gamma2 - beta - 1: 6 attempts, accepted with ||z|| 130902, ||r0|| Some(95153), Some(62) hints
    ("ML-DSA-44", Target::Ct0AtBound, 0), // a rejected attempt with ||c t0|| = gamma2: 14 attempts, accepted with ||z|| 130976, ||r0|| Some(95038), Some(54) hints
    ("ML-DSA-44", Target::Attempts576, 11), // 576 to 813 attempts (past a 575-attempt cap): 635 attempts, accepted with ||z|| 130988, ||r0|| Some(95130), Some(75) hints
    ("ML-DSA-65", Target::Attempts(10), 0), // 10 to 30 attempts: 15 attempts, accepted with ||z|| 523461, ||r0|| Some(261463), Some(23) hints
    ("ML-DSA-65", Target::Attempts(30), 63), // 30 to 90 attempts: 32 attempts, accepted with ||z|| 523916, ||r0|| Some(261571), Some(33) hints
    ("ML-DSA-65", Target::Attempts(100), 15), // 100 to 300 attempts: 206 attempts, accepted with ||z|| 523619, ||r0|| Some(261625), Some(48) hints
    ("ML-DSA-65", Target::HintsOmega, 22), // exactly omega hints at acceptance: 3 attempts, accepted with ||z|| 524071, ||r0|| Some(261672), Some(55) hints
    ("ML-DSA-65", Target::ZAtBound, 410), // a rejected attempt with ||z|| = gamma1 - beta: 12 attempts, accepted with ||z|| 524081, ||r0|| Some(261537), Some(35) hints
    ("ML-DSA-65", Target::ZJustInside, 149), // accepted with ||z|| = gamma1 - beta - 1: 6 attempts, accepted with ||z|| 524091, ||r0|| Some(261470), Some(35) hints
    ("ML-DSA-65", Target::R0AtBound, 399), // a rejected attempt with ||r0|| = gamma2 - beta: 14 attempts, accepted with ||z|| 523444, ||r0|| Some(261466), Some(41) hints
    ("ML-DSA-65", Target::R0JustInside, 63), // accepted with ||r0|| = gamma2 - beta - 1: 4 attempts, accepted with ||z|| 523597, ||r0|| Some(261691), Some(43) hints
    ("ML-DSA-87", Target::Attempts(10), 0), // 10 to 30 attempts: 10 attempts, accepted with ||z|| 524061, ||r0|| Some(261572), Some(56) hints
    ("ML-DSA-87", Target::Attempts(30), 468), // 30 to 90 attempts: 30 attempts, accepted with ||z|| 523927, ||r0|| Some(261649), Some(53) hints
    ("ML-DSA-87", Target::Attempts(100), 7), // 100 to 300 attempts: 251 attempts, accepted with ||z|| 523720, ||r0|| Some(261656), Some(74) hints
    ("ML-DSA-87", Target::HintsOmega, 12), // exactly omega hints at acceptance: 4 attempts, accepted with ||z|| 523535, ||r0|| Some(261754), Some(75) hints
    ("ML-DSA-87", Target::ZAtBound, 130), // a rejected attempt with ||z|| = gamma1 - beta: 3 attempts, accepted with ||z|| 524123, ||r0|| Some(261581), Some(48) hints
    ("ML-DSA-87", Target::ZJustInside, 344), // accepted with ||z|| = gamma1 - beta - 1: 6 attempts, accepted with ||z|| 524167, ||r0|| Some(261706), Some(49) hints
    ("ML-DSA-87", Target::R0AtBound, 153), // a rejected attempt with ||r0|| = gamma2 - beta: 7 attempts, accepted with ||z|| 523701, ||r0|| Some(261728), Some(56) hints
    ("ML-DSA-87", Target::R0JustInside, 18), // accepted with ||r0|| = gamma2 - beta - 1: 1 attempts, accepted with ||z|| 523568, ||r0|| Some(261767), Some(60) hints
];
