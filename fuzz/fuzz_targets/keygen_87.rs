#![no_main]
mldsa_fuzz::target!("keygen_87");
