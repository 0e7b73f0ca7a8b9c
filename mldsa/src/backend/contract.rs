//! The one written contract of every kernel: what inputs it accepts, what it promises about
//! its outputs, and how two backends' outputs are compared.
//!
//! These constants are used three ways: [`super::Checked`] `debug_assert!`s them at every
//! kernel call in the scheme, the differential harness draws its random and edge inputs from
//! the input ranges, and the fuzz targets clamp their bytes into them. Change a contract here
//! and all three follow.

use crate::params::{Eta, Gamma1, Gamma2, Q};

/// An inclusive coefficient range `[lo, hi]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Bounds {
    /// Smallest allowed value.
    pub lo: i32,
    /// Largest allowed value.
    pub hi: i32,
}

impl Bounds {
    /// `[lo, hi]`.
    pub const fn new(lo: i32, hi: i32) -> Self {
        Bounds { lo, hi }
    }
    /// `[-b, b]`.
    pub const fn centered(b: i32) -> Self {
        Bounds { lo: -b, hi: b }
    }
    /// Whether `x` lies in the range.
    pub const fn contains(self, x: i32) -> bool {
        self.lo <= x && x <= self.hi
    }
    /// Whether every value lies in the range.
    pub fn holds(self, xs: &[i32]) -> bool {
        // Minimum and maximum, branch-free so it vectorises: this runs on every kernel call
        // in debug builds (and so on every fuzz input).
        let (lo, hi) = xs
            .iter()
            .fold((i32::MAX, i32::MIN), |(lo, hi), &x| (lo.min(x), hi.max(x)));
        xs.is_empty() || (self.contains(lo) && self.contains(hi))
    }
}

/// The first index whose value lies outside `b`, with that value.
pub fn first_violation(b: Bounds, xs: &[i32]) -> Option<(usize, i32)> {
    // The vectorised check first (this runs on every fuzz input); the search only on a
    // violation.
    if b.holds(xs) {
        return None;
    }
    xs.iter()
        .copied()
        .enumerate()
        .find(|&(_, x)| !b.contains(x))
}

/// How the outputs of two backends for the same input are compared.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Compare {
    /// Bit-for-bit equal.
    Exact,
    /// Equal after reducing every coefficient to [0, q).
    ModQ,
    /// Equal after reducing to [0, q) and mapping each backend's NTT coefficient order to the
    /// canonical (FIPS 204 bit-reversed) order.
    ModQNttOrder,
}

/// One kernel's contract. Unused slots of `input`/`output` are [`ANY`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Contract {
    /// Kernel name, as `mldsa-diff list` prints it.
    pub name: &'static str,
    /// Bounds on the coefficient inputs, in argument order.
    pub input: [Bounds; 2],
    /// Bounds promised on the coefficient outputs, in argument order.
    pub output: [Bounds; 2],
    /// How outputs compare between backends.
    pub compare: Compare,
}

/// No constraint.
pub const ANY: Bounds = Bounds::new(i32::MIN, i32::MAX);

const fn c1(name: &'static str, i: Bounds, o: Bounds, compare: Compare) -> Contract {
    Contract {
        name,
        input: [i, ANY],
        output: [o, ANY],
        compare,
    }
}

/// Largest |a| a Montgomery product output may have: strictly below q.
const MONT_OUT: Bounds = Bounds::centered(Q - 1);

/// `ntt`: |a| < q in; |a| < 9q out (each of the 8 layers adds less than q); NTT domain.
pub const NTT: Contract = c1(
    "ntt",
    Bounds::centered(Q - 1),
    Bounds::centered(9 * Q - 1),
    Compare::ModQNttOrder,
);

/// `invntt_tomont`: |a| < q in (so the 8 unreduced doublings stay below 2^31 - 1); out
/// |a| <= (128 (q-1)^2 + 2^31 q) / 2^32 = 6,283,266, about 3q/4. The output is
/// 2^32 * INTT(a) mod q, in normal order.
///
/// The output bound is below q - 4 on purpose: KeyGen adds s2 (|s2| <= 4) to it and then
/// calls `caddq`, whose input must stay below q; Sign and Verify call `caddq`, `add`, `sub`
/// and `reduce` on it, whose inputs allow |a| < q or more. It is the bound of a Montgomery
/// product of a difference of at most 256 (q-1) (seven layers of sums, then the last
/// layer's difference) with a centred constant (|c| <= (q-1)/2): what a backend that folds
/// the final factor into the last layer's twiddle computes (AVX2, AVX-512). Where the factor
/// is a separate product by 2^64/256 = 41978 (portable, Neon), |a| <= (256 (q-1) 41978 +
/// 2^31 q) / 2^32, about 0.503 q.
///
/// Compared mod q, because two backends may return representatives q apart, and that never
/// reaches a result: every caller either maps the output to [0, q) (`caddq`: w = A y,
/// w' = A z - c t1 2^d, t = A s1 + s2) or uses it for a value whose true size is below q/4
/// (c s1, c s2, c t0, each at most tau * 2^12 in size), whose only representative within
/// 3q/4 is itself, before `add`, `sub`, `reduce` and the norm checks.
pub const INVNTT_TOMONT: Contract = c1(
    "invntt_tomont",
    Bounds::centered(Q - 1),
    INVNTT_OUT,
    Compare::ModQ,
);

/// Output bound of `invntt_tomont` (see [`INVNTT_TOMONT`]).
pub const INVNTT_OUT: Bounds = Bounds::centered(
    ((128 * (Q as i64 - 1) * (Q as i64 - 1) + (1i64 << 31) * Q as i64) >> 32) as i32,
);
const _: () = assert!(INVNTT_OUT.hi == 6_283_266 && INVNTT_OUT.hi + 4 < Q);

/// `pointwise_montgomery`: both inputs |x| < 9q (NTT outputs); |c| < q out.
pub const POINTWISE: Contract = Contract {
    name: "pointwise_montgomery",
    input: [Bounds::centered(9 * Q - 1), Bounds::centered(9 * Q - 1)],
    output: [MONT_OUT, ANY],
    compare: Compare::ModQNttOrder,
};

/// `pointwise_acc_montgomery`: each term as in [`POINTWISE`]; the sum of at most 7 terms has
/// |c| < 7q.
pub const POINTWISE_ACC: Contract = Contract {
    name: "pointwise_acc_montgomery",
    input: [Bounds::centered(9 * Q - 1), Bounds::centered(9 * Q - 1)],
    output: [Bounds::centered(7 * Q - 1), ANY],
    compare: Compare::ModQNttOrder,
};

/// `reduce`: any a <= 2^31 - 2^22 - 1; out in [-6283009, 6283008], congruent mod q.
pub const REDUCE: Contract = c1(
    "reduce",
    Bounds::new(i32::MIN, i32::MAX - (1 << 22)),
    Bounds::new(-6_283_009, 6_283_008),
    Compare::Exact,
);

/// `caddq`: |a| < q in; [0, q) out.
pub const CADDQ: Contract = c1(
    "caddq",
    Bounds::centered(Q - 1),
    Bounds::new(0, Q - 1),
    Compare::Exact,
);

/// `add`/`sub`: |x| < 2^30 for both inputs, so no sum or difference overflows i32.
pub const ADD: Contract = Contract {
    name: "add",
    input: [ADD_IN, ADD_IN],
    output: [ANY, ANY],
    compare: Compare::Exact,
};
/// See [`ADD`].
pub const SUB: Contract = Contract { name: "sub", ..ADD };
const ADD_IN: Bounds = Bounds::centered((1 << 30) - 1);

/// `shiftl`: t1 in [0, 2^10) in; t1 * 2^13 out (below q).
pub const SHIFTL: Contract = c1(
    "shiftl",
    Bounds::new(0, 1023),
    Bounds::new(0, 1023 << 13),
    Compare::Exact,
);

/// `power2round`: [0, q) in; t1 in [0, 2^10), t0 in (-2^12, 2^12] out.
pub const POWER2ROUND: Contract = Contract {
    name: "power2round",
    input: [Bounds::new(0, Q - 1), ANY],
    output: [Bounds::new(0, 1023), Bounds::new(-(1 << 12) + 1, 1 << 12)],
    compare: Compare::Exact,
};

/// `decompose`: [0, q) in; a1 in [0, m), a0 in [-gamma2, gamma2] out (a0 = -gamma2 only in
/// the wrap-around case of FIPS 204 Alg. 36 line 4).
pub const fn decompose(g: Gamma2) -> Contract {
    Contract {
        name: "decompose",
        input: [Bounds::new(0, Q - 1), ANY],
        output: [Bounds::new(0, g.m() - 1), Bounds::centered(g.value())],
        compare: Compare::Exact,
    }
}

/// `make_hint`: a0 with |a0| < 2 gamma2, a1 in [0, m) in; h in {0, 1} out.
pub const fn make_hint(g: Gamma2) -> Contract {
    Contract {
        name: "make_hint",
        input: [
            Bounds::centered(2 * g.value() - 1),
            Bounds::new(0, g.m() - 1),
        ],
        output: [HINT_BITS, ANY],
        compare: Compare::Exact,
    }
}

/// `use_hint`: a in [0, q), h in {0, 1} in; [0, m) out.
pub const fn use_hint(g: Gamma2) -> Contract {
    Contract {
        name: "use_hint",
        input: [Bounds::new(0, Q - 1), HINT_BITS],
        output: [Bounds::new(0, g.m() - 1), ANY],
        compare: Compare::Exact,
    }
}

/// Hint coefficients.
pub const HINT_BITS: Bounds = Bounds::new(0, 1);

/// `chknorm`: |a| < q in, bound in [0, (q-1)/8]; a boolean out.
pub const CHKNORM: Contract = c1("chknorm", Bounds::centered(Q - 1), ANY, Compare::Exact);

/// `rej_uniform`: any bytes in; values in [0, q) out, same count and values everywhere
/// (entries past the count are unspecified and not compared).
pub const REJ_UNIFORM: Contract = c1("rej_uniform", ANY, Bounds::new(0, Q - 1), Compare::Exact);

/// `rej_eta`: any bytes in; values in [-eta, eta] out, same count and values everywhere
/// (entries past the count are unspecified and not compared).
pub const fn rej_eta(eta: Eta) -> Contract {
    c1(
        "rej_eta",
        ANY,
        Bounds::centered(eta.value()),
        Compare::Exact,
    )
}

/// `pack_t1` / `unpack_t1`: [0, 2^10).
pub const PACK_T1: Contract = c1("pack_t1", Bounds::new(0, 1023), ANY, Compare::Exact);
/// See [`PACK_T1`].
pub const UNPACK_T1: Contract = c1("unpack_t1", ANY, Bounds::new(0, 1023), Compare::Exact);

/// `pack_t0` / `unpack_t0`: (-2^12, 2^12].
pub const PACK_T0: Contract = c1(
    "pack_t0",
    Bounds::new(-(1 << 12) + 1, 1 << 12),
    ANY,
    Compare::Exact,
);
/// See [`PACK_T0`].
pub const UNPACK_T0: Contract = c1(
    "unpack_t0",
    ANY,
    Bounds::new(-(1 << 12) + 1, 1 << 12),
    Compare::Exact,
);

/// `pack_eta`: [-eta, eta] in. `unpack_eta` accepts any bytes and reports range validity.
pub const fn pack_eta(eta: Eta) -> Contract {
    c1(
        "pack_eta",
        Bounds::centered(eta.value()),
        ANY,
        Compare::Exact,
    )
}

/// `pack_z` / `unpack_z`: (-gamma1, gamma1].
pub const fn pack_z(g: Gamma1) -> Contract {
    c1(
        "pack_z",
        Bounds::new(-g.value() + 1, g.value()),
        ANY,
        Compare::Exact,
    )
}

/// `pack_w1`: [0, m) in.
pub const fn pack_w1(g: Gamma2) -> Contract {
    c1("pack_w1", Bounds::new(0, g.m() - 1), ANY, Compare::Exact)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `holds` and `first_violation` (min/max first) against the plain definition.
    #[test]
    fn bound_checks_match_the_definition() {
        let b = Bounds::new(-5, 7);
        let cases: [&[i32]; 7] = [
            &[],
            &[0],
            &[-5, 7, 0],
            &[-6],
            &[8, 0],
            &[0, 1, 2, i32::MIN],
            &[i32::MAX, -5],
        ];
        for xs in cases {
            let naive = xs.iter().position(|&x| !(-5..=7).contains(&x));
            assert_eq!(b.holds(xs), naive.is_none(), "{xs:?}");
            assert_eq!(first_violation(b, xs), naive.map(|i| (i, xs[i])), "{xs:?}");
        }
        assert!(ANY.holds(&[i32::MIN, i32::MAX]));
    }
}
