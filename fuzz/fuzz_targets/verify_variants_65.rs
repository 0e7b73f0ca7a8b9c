#![no_main]
mldsa_fuzz::target!("verify_variants_65");
