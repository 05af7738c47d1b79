//! `#[mu2::diff]`, `#[mu2::fuzz]` and `#[mu2::compare]`: drivers become
//! ordinary `#[test]` functions that hand a generate-and-run closure to the
//! runtime (`mu2_runtime::driver`), so `cargo test`, its filters, `--exact`
//! and nextest work as usual.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::parse::{Parse, ParseStream};
use syn::spanned::Spanned;
use syn::{FnArg, ItemFn, Path, ReturnType, Token, Type};

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Diff,
    Fuzz,
}

impl Kind {
    fn attr(self) -> &'static str {
        match self {
            Kind::Diff => "#[mu2::diff]",
            Kind::Fuzz => "#[mu2::fuzz]",
        }
    }
}

/// `compare = path`, `gen = path`.
#[derive(Default)]
struct Args {
    compare: Option<Path>,
    generator: Option<Path>,
}

impl Parse for Args {
    fn parse(input: ParseStream) -> syn::Result<Args> {
        let mut args = Args::default();
        while !input.is_empty() {
            let key: syn::Ident = input.parse()?;
            input.parse::<Token![=]>()?;
            let path: Path = input.parse()?;
            match key.to_string().as_str() {
                "compare" if args.compare.is_none() => args.compare = Some(path),
                "gen" if args.generator.is_none() => args.generator = Some(path),
                "compare" | "gen" => {
                    return Err(syn::Error::new(
                        key.span(),
                        format!("`{key}` is given twice"),
                    ));
                }
                _ => {
                    return Err(syn::Error::new(
                        key.span(),
                        format!(
                            "unknown driver argument `{key}`; expected `compare = path` (a #[mu2::compare] fn) or `gen = path` (a fn(&mut mu2::Source) -> Input)"
                        ),
                    ));
                }
            }
            if !input.is_empty() {
                input.parse::<Token![,]>()?;
            }
        }
        Ok(args)
    }
}

pub fn expand(kind: Kind, args: TokenStream, input: TokenStream) -> TokenStream {
    match try_expand(kind, args, input) {
        Ok(t) => t,
        Err(e) => e.to_compile_error(),
    }
}

fn try_expand(kind: Kind, args: TokenStream, input: TokenStream) -> syn::Result<TokenStream> {
    let args: Args = syn::parse2(args)?;
    let mut f: ItemFn = syn::parse2(input)?;
    let attr = kind.attr();
    let sig = &f.sig;
    if let Some(a) = &sig.asyncness {
        return Err(syn::Error::new(
            a.span(),
            format!(
                "a {attr} driver cannot be async: call your async code through a runtime's block_on inside it"
            ),
        ));
    }
    if !sig.generics.params.is_empty() {
        return Err(syn::Error::new(
            sig.generics.span(),
            format!("a {attr} driver cannot be generic: give it concrete input types"),
        ));
    }
    if sig.inputs.is_empty() {
        return Err(syn::Error::new(
            sig.paren_token.span.join(),
            format!(
                "a {attr} driver takes the generated input as its argument(s), e.g. `fn name(input: Vec<u8>)`"
            ),
        ));
    }
    let mut types = Vec::new();
    for arg in &sig.inputs {
        match arg {
            FnArg::Receiver(r) => {
                return Err(syn::Error::new(
                    r.span(),
                    format!("a {attr} driver is a free function, not a method"),
                ));
            }
            FnArg::Typed(t) => types.push((*t.ty).clone()),
        }
    }
    let output = match (&sig.output, kind) {
        (ReturnType::Type(_, ty), Kind::Diff) if !is_unit(ty) => Some((**ty).clone()),
        (ReturnType::Default, Kind::Diff) | (ReturnType::Type(..), Kind::Diff) => {
            return Err(syn::Error::new(
                sig.ident.span(),
                "a #[mu2::diff] driver returns the output that original and mutants are compared on, e.g. `-> Vec<i32>`; a property with no output is a #[mu2::fuzz] driver",
            ));
        }
        (ReturnType::Type(_, ty), Kind::Fuzz) if !is_unit(ty) => {
            return Err(syn::Error::new(
                ty.span(),
                "a #[mu2::fuzz] driver returns nothing (only its panics count); to compare outputs, make it a #[mu2::diff] driver",
            ));
        }
        _ => None,
    };
    if kind == Kind::Fuzz && args.compare.is_some() {
        return Err(syn::Error::new(
            sig.ident.span(),
            "`compare` is for #[mu2::diff] drivers: a #[mu2::fuzz] driver has no output",
        ));
    }

    let name = f.sig.ident.clone();
    let name_str = name.to_string();
    // The user's function keeps its name, nested inside the test of that name.
    let attrs = std::mem::take(&mut f.attrs);
    let (docs, others): (Vec<_>, Vec<_>) =
        attrs.into_iter().partition(|a| a.path().is_ident("doc"));
    let n = types.len();
    let indices = (0..n).map(syn::Index::from);
    let tuple = quote!((#(#types,)*));
    let generate = match &args.generator {
        Some(g) if n == 1 => quote_spanned!(g.span()=> (#g(__mu2_src),)),
        Some(g) => quote_spanned!(g.span()=> #g(__mu2_src)),
        None => quote!(__mu2_src.arbitrary::<#tuple>()?),
    };
    let kind_str = match kind {
        Kind::Diff => "diff",
        Kind::Fuzz => "fuzz",
    };
    let info = quote! {
        ::mu2::__rt::DriverInfo {
            name: #name_str,
            manifest_dir: ::core::env!("CARGO_MANIFEST_DIR"),
            module: ::core::module_path!(),
        }
    };
    // Listed for `cargo mu2` before any test runs.
    let register = quote! {
        #[::mu2::__rt::linkme::distributed_slice(::mu2::__rt::DRIVERS)]
        #[linkme(crate = ::mu2::__rt::linkme)]
        static __MU2_DRIVER: ::mu2::__rt::DriverEntry =
            ::mu2::__rt::DriverEntry { info: #info, kind: #kind_str };
    };
    let call = quote! {
        |__mu2_src: &mut ::mu2::__rt::Source| {
            let __mu2_args: #tuple = #generate;
            ::core::result::Result::Ok(#name(#(__mu2_args.#indices),*))
        }
    };
    let show = quote! {
        |__mu2_src: &mut ::mu2::__rt::Source| -> ::core::result::Result<::core::option::Option<::std::string::String>, ::mu2::__rt::Invalid> {
            use ::mu2::__rt::prelude::*;
            let __mu2_args: #tuple = #generate;
            ::core::result::Result::Ok((&::mu2::__rt::Show(&__mu2_args)).__mu2_show())
        }
    };
    let body = match kind {
        Kind::Diff => {
            let output = output.expect("checked above");
            let compare = match &args.compare {
                Some(c) => quote_spanned!(c.span()=> #c),
                None => quote_spanned!(output.span()=> ::mu2::__rt::equal::<#output>),
            };
            quote!(::mu2::__rt::driver::diff::<#output>(#info, #call, #compare, #show))
        }
        Kind::Fuzz => quote!(::mu2::__rt::driver::fuzz(#info, #call, #show)),
    };
    Ok(quote! {
        #(#docs)*
        #[test]
        #(#others)*
        fn #name() {
            #register
            #[allow(clippy::needless_pass_by_value)]
            #f
            #body
        }
    })
}

fn is_unit(ty: &Type) -> bool {
    matches!(ty, Type::Tuple(t) if t.elems.is_empty())
}

/// `#[mu2::compare] fn same(a: &O, b: &O) -> bool`: checked, then left as it is.
pub fn compare(args: TokenStream, input: TokenStream) -> TokenStream {
    let result = (|| -> syn::Result<TokenStream> {
        if !args.is_empty() {
            return Err(syn::Error::new(
                args.span(),
                "#[mu2::compare] takes no arguments",
            ));
        }
        let f: ItemFn = syn::parse2(input)?;
        let usage = "a #[mu2::compare] function has the form `fn same(a: &Output, b: &Output) -> bool` and returns true when the two outputs count as the same";
        let refs: Vec<_> = f
            .sig
            .inputs
            .iter()
            .filter_map(|a| match a {
                FnArg::Typed(t) => match &*t.ty {
                    Type::Reference(r) => Some(r),
                    _ => None,
                },
                _ => None,
            })
            .collect();
        if f.sig.inputs.len() != 2 || refs.len() != 2 {
            return Err(syn::Error::new(f.sig.inputs.span(), usage));
        }
        if refs[0].elem != refs[1].elem {
            return Err(syn::Error::new(
                refs[1].span(),
                format!("{usage}: both arguments must have the same type"),
            ));
        }
        match &f.sig.output {
            ReturnType::Type(_, ty) if matches!(&**ty, Type::Path(p) if p.path.is_ident("bool")) => {
            }
            other => return Err(syn::Error::new(other.span(), usage)),
        }
        Ok(quote!(#f))
    })();
    result.unwrap_or_else(|e| e.to_compile_error())
}
