//! Shared by the integration tests: run one generic test for each parameter set.

/// `for_all_sets!(name => generic_fn, ...)` makes a module per name with one test per set.
macro_rules! for_all_sets {
    ($($name:ident => $f:ident),* $(,)?) => {$(
        mod $name {
            use super::*;
            #[test] fn ml_dsa_44() { $f::<MlDsa44>() }
            #[test] fn ml_dsa_65() { $f::<MlDsa65>() }
            #[test] fn ml_dsa_87() { $f::<MlDsa87>() }
        }
    )*};
}
