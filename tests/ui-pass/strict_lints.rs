//! Crates with strict lint settings can use the attribute.
#![forbid(unsafe_code)]
#![deny(
    warnings,
    missing_docs,
    unused_qualifications,
    unused_results,
    unused_import_braces,
    unused_lifetimes,
    rust_2018_idioms,
    trivial_casts,
    trivial_numeric_casts,
    unreachable_pub,
    single_use_lifetimes,
    variant_size_differences,
    missing_debug_implementations,
    let_underscore_drop,
    unit_bindings,
    redundant_lifetimes,
    unnameable_types,
    non_ascii_idents,
    meta_variable_misuse,
    macro_use_extern_crate
)]

/// Annotated items.
#[mu2::mutate]
pub mod code {
    /// A counter.
    #[derive(Debug)]
    pub struct Counter {
        /// The count.
        pub n: u64,
    }

    impl Counter {
        /// Adds `k`.
        pub fn add(&mut self, k: u64) -> bool {
            self.n += k;
            self.n > 10 && k != 0
        }
    }

    /// Parses and doubles.
    pub fn double(s: &str) -> Result<u64, std::num::ParseIntError> {
        let v: u64 = s.parse()?;
        Ok(v * 2)
    }

    /// Pushes.
    pub fn push(v: &mut Vec<u8>, x: u8) {
        v.push(x);
        v.push(!x);
    }

    /// Shortest.
    pub fn shortest<'a>(a: &'a str, b: &'a str) -> &'a str {
        if a.len() <= b.len() { a } else { b }
    }
}

fn main() {
    let mut c = code::Counter { n: 1 };
    let _big: bool = c.add(20);
    let _d = code::double("4");
    code::push(&mut vec![], 1);
    let _s = code::shortest("a", "bc");
}
