//! Depending on mu2 leaves type inference in the user's own code as it was.
//! A crate behind `mu2` with `impl PartialEq<Value> for u8` (and the other
//! primitives), as `serde_json` has, would make each comparison below
//! ambiguous ("type annotations needed"): every impl in the build's crate
//! graph takes part in inference, used or not.
#![deny(warnings)]

#[mu2::mutate]
fn checksum(bytes: &[u8]) -> u32 {
    bytes.iter().map(|&b| b as u32).sum()
}

fn main() {
    let empty: Vec<u8> = Vec::new();
    assert_eq!(empty, Vec::new());
    assert_eq!(10, [1, 2, 3, 4].iter().sum());
    let x: i32 = 5;
    assert!(x == "5".parse().unwrap());
    let n: u32 = 3;
    assert!(n == [1u8, 2, 3].len().try_into().unwrap());
    let flag = true;
    assert!(flag == Default::default() || flag);
    assert_eq!(checksum(&[1, 2]), 3);
}
