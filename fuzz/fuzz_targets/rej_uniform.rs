#![no_main]
mldsa_fuzz::target!("rej_uniform");
