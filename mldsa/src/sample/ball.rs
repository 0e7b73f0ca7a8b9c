//! SampleInBall (FIPS 204 Alg. 29): the challenge polynomial c from c~.

use crate::backend::Backend;
use crate::keccak::Shake256;
use crate::params::N;
use crate::poly::Poly;

/// SampleInBall (FIPS 204 Alg. 29): a polynomial with tau coefficients +-1, the rest 0,
/// from c~. Its loop depends on c~, which is public once the signature is released; for
/// rejected iterations c is never output (as in the reference implementations).
pub fn sample_in_ball<B: Backend>(b: B, ctilde: &[u8], tau: usize) -> Poly {
    let mut c = Poly::ZERO;
    sample_in_ball_into(b, ctilde, tau, &mut c);
    c
}

/// [`sample_in_ball`] into the caller's `c` (which the signer keeps in a buffer it wipes: c
/// of a rejected attempt is secret). The sign bits are read from the squeezed block `h` in
/// place (no copy of them is made, so none is left in a register's stack slot), and `h` is
/// wiped before returning.
pub fn sample_in_ball_into<B: Backend>(b: B, ctilde: &[u8], tau: usize, c: &mut Poly) {
    let mut xof = Shake256::new(b);
    xof.absorb(ctilde);
    let mut h = [0u8; 8];
    xof.squeeze(&mut h);
    *c = Poly::ZERO;
    for (k, i) in (N - tau..N).enumerate() {
        let j = loop {
            let mut byte = [0u8];
            xof.squeeze(&mut byte);
            if usize::from(byte[0]) <= i {
                break usize::from(byte[0]);
            }
        };
        // Alg. 29 line 9: the sign is bit i + tau - 256 (= k) of h.
        let sign = (h[k >> 3] >> (k & 7)) & 1;
        c.coeffs[i] = c.coeffs[j];
        c.coeffs[j] = 1 - 2 * i32::from(sign);
    }
    zeroize::Zeroize::zeroize(&mut h);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::Portable;
    use crate::params::ALL_PARAMS;

    #[test]
    fn sample_in_ball_has_tau_signs() {
        for p in ALL_PARAMS {
            for t in 0..20u8 {
                let c = sample_in_ball(Portable, &[t; 64][..p.ctilde_bytes()], p.tau);
                assert_eq!(c.coeffs.iter().filter(|&&x| x != 0).count(), p.tau);
                assert!(c.coeffs.iter().all(|&x| (-1..=1).contains(&x)));
            }
        }
    }
}
