#![no_main]
mldsa_fuzz::target!("pointwise_acc_l5");
