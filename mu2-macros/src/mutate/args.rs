//! The attribute's arguments: `#[mu2::mutate]`, `#[mu2::mutate(skip)]`,
//! `#[mu2::mutate(only(math, returns))]`, `#[mu2::mutate(exclude(void_calls))]`.

use proc_macro2::TokenStream;
use syn::parse::{Parse, ParseStream};
use syn::punctuated::Punctuated;
use syn::{Ident, Token};

use super::ops::Operator;

/// What one `#[mu2::mutate(...)]` asks for.
#[derive(Clone, Debug)]
pub struct Config {
    pub skip: bool,
    enabled: [bool; Operator::ALL.len()],
}

impl Default for Config {
    fn default() -> Config {
        Config {
            skip: false,
            enabled: [true; Operator::ALL.len()],
        }
    }
}

impl Config {
    pub fn enabled(&self, op: Operator) -> bool {
        self.enabled[op as usize]
    }

    pub fn parse_tokens(tokens: TokenStream) -> syn::Result<Config> {
        if tokens.is_empty() {
            return Ok(Config::default());
        }
        syn::parse2(tokens)
    }
}

impl Parse for Config {
    fn parse(input: ParseStream) -> syn::Result<Config> {
        let mut config = Config::default();
        let mut filtered = false;
        while !input.is_empty() {
            let key: Ident = input.parse()?;
            match key.to_string().as_str() {
                "skip" => config.skip = true,
                which @ ("only" | "exclude") => {
                    if filtered {
                        return Err(syn::Error::new(
                            key.span(),
                            "use one of `only(...)` or `exclude(...)`, once",
                        ));
                    }
                    filtered = true;
                    let content;
                    syn::parenthesized!(content in input);
                    let names = Punctuated::<Ident, Token![,]>::parse_terminated(&content)?;
                    let only = which == "only";
                    config.enabled = [!only; Operator::ALL.len()];
                    for name in names {
                        let op = Operator::from_name(&name.to_string()).ok_or_else(|| {
                            syn::Error::new(
                                name.span(),
                                format!(
                                    "unknown mutation operator `{name}`; the operators are: {}",
                                    Operator::ALL.map(|o| o.name()).join(", ")
                                ),
                            )
                        })?;
                        config.enabled[op as usize] = only;
                    }
                }
                other => {
                    return Err(syn::Error::new(
                        key.span(),
                        format!(
                            "unknown argument `{other}` to #[mu2::mutate]; expected `skip`, `only(operators...)` or `exclude(operators...)`"
                        ),
                    ));
                }
            }
            if !input.is_empty() {
                input.parse::<Token![,]>()?;
            }
        }
        Ok(config)
    }
}
