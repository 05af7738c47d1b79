//! Procedural macros of [mu2](https://docs.rs/mu2). Use them through the
//! `mu2` crate: `#[mu2::mutate]`.

use proc_macro::TokenStream;

mod mutate;

/// Rewrites a `fn`, `impl` block, `trait` or inline `mod` into a meta-mutant:
/// every mutation site becomes a branch chosen at run time. See the `mu2`
/// crate's documentation.
#[proc_macro_attribute]
pub fn mutate(args: TokenStream, input: TokenStream) -> TokenStream {
    mutate::expand(args.into(), input.into()).into()
}
