//! `#[mu2::mutate]`: rewrites an item into a meta-mutant.
//!
//! The macro's job is syntax only. Every site becomes a call into
//! `::mu2::__rt` (see `mu2_runtime::site`), which decides at run time
//! whether the original or one of its alternatives runs; the item also gets
//! one `static` describing its sites (`mu2_runtime::schema::Unit`).

mod args;
mod carry;
mod fuel;
mod ops;
mod rewrite;
mod text;

use proc_macro2::TokenStream;
use quote::quote;
use syn::Item;

use args::Config;
use rewrite::{Rewriter, UnitBuilder};

pub fn expand(args: TokenStream, input: TokenStream) -> TokenStream {
    match try_expand(args, input.clone()) {
        Ok(tokens) => tokens,
        // The item is emitted unchanged beside the error, so the user sees
        // this one error rather than a cascade from a missing item; without
        // the inner `#[mu2::mutate(..)]` markers, which rustc would then
        // expand on their own (on a statement, an error of its own).
        Err(e) => {
            let error = e.to_compile_error();
            let input = strip_markers(input);
            quote!(#error #input)
        }
    }
}

/// `tokens` without any `#[mu2::mutate...]` attribute, at any depth.
fn strip_markers(tokens: TokenStream) -> TokenStream {
    use proc_macro2::{Group, TokenTree};
    let is_marker = |t: &TokenTree| match t {
        TokenTree::Group(g) if g.delimiter() == proc_macro2::Delimiter::Bracket => {
            let path: Vec<String> = g
                .stream()
                .into_iter()
                .take(4)
                .map(|t| t.to_string())
                .collect();
            path.len() >= 4
                && path[0] == "mu2"
                && path[1] == ":"
                && path[2] == ":"
                && path[3] == "mutate"
        }
        _ => false,
    };
    let mut out = Vec::new();
    let mut iter = tokens.into_iter().peekable();
    while let Some(t) = iter.next() {
        if let TokenTree::Punct(p) = &t {
            if p.as_char() == '#' && iter.peek().is_some_and(is_marker) {
                iter.next();
                continue;
            }
        }
        out.push(match t {
            TokenTree::Group(g) => {
                let mut new = Group::new(g.delimiter(), strip_markers(g.stream()));
                new.set_span(g.span());
                TokenTree::Group(new)
            }
            t => t,
        });
    }
    out.into_iter().collect()
}

fn try_expand(args: TokenStream, input: TokenStream) -> syn::Result<TokenStream> {
    let config = Config::parse_tokens(args)?;
    let mut item: Item = syn::parse2(input.clone())?;
    if config.skip {
        return Ok(quote!(#item));
    }
    let (name, span) = match &item {
        Item::Fn(f) => {
            if let Some(c) = &f.sig.constness {
                return Err(syn::Error::new_spanned(
                    c,
                    "#[mu2::mutate] does not mutate a `const fn`: it runs in const contexts, where a run-time switch cannot",
                ));
            }
            if let Some(u) = &f.sig.unsafety {
                return Err(syn::Error::new_spanned(
                    u,
                    "#[mu2::mutate] does not mutate an `unsafe fn`: a mutant could break its safety invariants",
                ));
            }
            if !rewrite::unwinds(&f.sig) {
                // A mutant's panic or timeout cannot unwind out of it (the
                // process would abort): left as written.
                return Ok(quote!(#item));
            }
            (f.sig.ident.to_string(), f.sig.ident.span())
        }
        Item::Impl(i) => ("impl".to_string(), i.impl_token.span),
        Item::Trait(t) => (t.ident.to_string(), t.ident.span()),
        Item::Mod(_) => {
            if let Item::Mod(m) = &mut item {
                rewrite::nested_module(&config, m)?;
            }
            return Ok(quote!(#item));
        }
        other => {
            return Err(syn::Error::new_spanned(
                other,
                "#[mu2::mutate] applies to a `fn`, an `impl` block, a `trait` (its default method bodies) or an inline `mod { ... }`",
            ));
        }
    };
    let mut rw = Rewriter::new(config, UnitBuilder::new(&name, span, &input));
    match &mut item {
        Item::Fn(f) => {
            let sig = f.sig.clone();
            rw.function(&sig, &f.attrs.clone(), &mut f.block, name);
        }
        Item::Impl(i) => rw.impl_block(i),
        Item::Trait(t) => rw.trait_def(t),
        _ => unreachable!(),
    }
    if let Some(e) = rw.errors.into_iter().reduce(|mut a, b| {
        a.combine(b);
        a
    }) {
        return Err(e);
    }
    let statics = rw.unit.statics();
    if let Item::Fn(f) = &mut item {
        // Inside the body: the attribute may be on a method of a plain
        // `impl` or `trait`, where a `static` cannot stand beside it.
        f.block
            .stmts
            .insert(0, syn::Stmt::Item(Item::Verbatim(statics)));
        return Ok(quote!(#item));
    }
    Ok(quote!(#statics #item))
}
