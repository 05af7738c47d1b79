//! A crate that forbids the lints the attribute's output could trip still
//! builds: a forbidden lint cannot be `allow`ed inside it (E0453), so the
//! expansion must not need those `allow`s.
#![forbid(unused_imports, non_upper_case_globals)]
#![deny(warnings)]

#[mu2::mutate]
mod code {
    /// A non-ASCII name: the unit's static is still an upper-case name.
    pub fn größe(x: u32) -> u32 {
        x * 2 + 1
    }

    /// Every site that needs the traits' import is configured out.
    pub fn configured(x: u32) -> u32 {
        #[cfg(any())]
        let x = x + 1;
        x
    }
}

fn main() {
    assert_eq!(code::größe(3), 7);
    assert_eq!(code::configured(3), 3);
}
