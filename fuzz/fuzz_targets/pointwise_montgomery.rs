#![no_main]
mldsa_fuzz::target!("pointwise_montgomery");
