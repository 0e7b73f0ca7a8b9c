#![no_main]
mldsa_fuzz::api_target!(mldsa_fuzz::mldsa_diff::api_fuzz::fuzz_api_verify);
