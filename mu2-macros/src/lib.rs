//! Procedural macros of [mu2](https://docs.rs/mu2). Use them through the
//! `mu2` crate: `#[mu2::mutate]`.

use proc_macro::TokenStream;

mod driver;
mod mutate;

/// Rewrites a `fn`, `impl` block, `trait` or inline `mod` into a meta-mutant:
/// every mutation site becomes a branch chosen at run time. See the `mu2`
/// crate's documentation.
#[proc_macro_attribute]
pub fn mutate(args: TokenStream, input: TokenStream) -> TokenStream {
    mutate::expand(args.into(), input.into()).into()
}

/// A differential driver: `fn name(input: T) -> O`. It becomes a `#[test]`
/// that replays the saved corpus (comparing outputs with those recorded), or
/// runs a campaign under `MU2=fuzz`. `T` is generated with `arbitrary`, or by
/// `gen = path`; outputs are compared with `PartialEq`, or by
/// `compare = path` (a `#[mu2::compare]` fn).
#[proc_macro_attribute]
pub fn diff(args: TokenStream, input: TokenStream) -> TokenStream {
    driver::expand(driver::Kind::Diff, args.into(), input.into()).into()
}

/// A property driver: `fn name(input: T)`; only panics fail it.
#[proc_macro_attribute]
pub fn fuzz(args: TokenStream, input: TokenStream) -> TokenStream {
    driver::expand(driver::Kind::Fuzz, args.into(), input.into()).into()
}

/// How two outputs of a differential driver compare: `fn(&O, &O) -> bool`.
#[proc_macro_attribute]
pub fn compare(args: TokenStream, input: TokenStream) -> TokenStream {
    driver::compare(args.into(), input.into()).into()
}
