#![no_main]
mldsa_fuzz::target!("verify_crafted_87");
