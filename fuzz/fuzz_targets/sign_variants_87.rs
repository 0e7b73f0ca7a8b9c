#![no_main]
mldsa_fuzz::target!("sign_variants_87");
