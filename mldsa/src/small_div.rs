//! Division by a small public constant without a divide instruction (whose latency varies
//! with its operands): what ExpandA's entry index needs (FIPS 204 Alg. 32, i / l and i mod l).

/// ceil(2^32 / l) for l = 1..=8 (entry 0 unused): the reciprocals of [`div_rem_small`].
#[allow(
    clippy::integer_division_remainder_used,
    reason = "evaluated at compile time: divides the constant 2^32 by the constants 1..=8"
)]
const RECIP32: [u64; 9] = {
    let mut r = [0u64; 9];
    let mut l = 1;
    while l <= 8 {
        r[l] = (1u64 << 32).div_ceil(l as u64);
        l += 1;
    }
    r
};

/// (floor(i / l), i mod l) for 1 <= l <= 8 and i < 2^29, by a multiplication: no divide
/// instruction (its latency varies with the operands), although both are public here (an
/// entry index of A-hat and l). Proof: R = ceil(2^32 / l) = (2^32 + d) / l with 0 <= d < l,
/// so for i = q l + r (0 <= r < l) i R / 2^32 = q + r / l + i d / (l 2^32), and
/// i d < 2^29 * 8 = 2^32 makes the last term below 1 / l: the sum is in [q, q + 1). (The test
/// `div_rem_small_is_division` checks it for every i < 2^12.)
#[inline(always)]
pub(crate) fn div_rem_small(i: usize, l: usize) -> (usize, usize) {
    debug_assert!((1..=8).contains(&l) && i < 1 << 29);
    let q = ((i as u64 * RECIP32[l]) >> 32) as usize;
    (q, i - q * l)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn div_rem_small_is_division() {
        for l in 1..=8 {
            for i in (0..1 << 12).chain([(1 << 29) - 1, (1 << 29) - 8, (1 << 28) + 3]) {
                assert_eq!(div_rem_small(i, l), (i / l, i % l), "i = {i}, l = {l}");
            }
        }
    }
}
