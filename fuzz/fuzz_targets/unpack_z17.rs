#![no_main]
mldsa_fuzz::target!("unpack_z17");
