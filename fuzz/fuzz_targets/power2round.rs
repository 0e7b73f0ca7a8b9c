#![no_main]
mldsa_fuzz::target!("power2round");
