#![no_main]
mldsa_fuzz::target!("expand_a_87");
