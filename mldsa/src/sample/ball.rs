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
/// of a rejected attempt is secret). The sign bits are wiped before returning.
pub fn sample_in_ball_into<B: Backend>(b: B, ctilde: &[u8], tau: usize, c: &mut Poly) {
    let mut xof = Shake256::new(b);
    xof.absorb(ctilde);
    let mut s = [0u8; 8];
    xof.squeeze(&mut s);
    let mut signs = u64::from_le_bytes(s);
    zeroize::Zeroize::zeroize(&mut s);
    *c = Poly::ZERO;
    for i in N - tau..N {
        let j = loop {
            let mut byte = [0u8];
            xof.squeeze(&mut byte);
            if usize::from(byte[0]) <= i {
                break usize::from(byte[0]);
            }
        };
        c.coeffs[i] = c.coeffs[j];
        c.coeffs[j] = 1 - 2 * (signs & 1) as i32;
        signs >>= 1;
    }
    zeroize::Zeroize::zeroize(&mut signs);
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
