#![no_main]
mldsa_fuzz::target!("poly_uniform");
