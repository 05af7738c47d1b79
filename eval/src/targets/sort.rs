// The sort fixture's target. This file is also `include!`d by the cargo-fuzz
// project (see `peers.rs`), so it uses only `mu2` and the fixture crate and
// has no inner doc comments. The generator is the fixture's own
// (`sort::generate`), as its drivers use it.

use mu2::{Invalid, Source};
use sort::generate::small_vec;

/// One call into the library, chosen by the input: either sort, or a search
/// in a sorted, deduplicated haystack. `median` is left out on purpose: two
/// of its mutants call `std::process::abort`, which would take the in-process
/// harness down (the fixture's supervised drivers handle that case).
pub fn run(src: &mut Source) -> Result<String, Invalid> {
    Ok(match src.int_in_range(0u8..=2) {
        0 => format!("{:?}", sort::insertion_sort(small_vec(src))),
        1 => format!("{:?}", sort::merge_sort(&small_vec(src))),
        _ => {
            let mut hay = small_vec(src);
            hay.sort();
            hay.dedup();
            let needle = src.int_in_range(-4..=4);
            format!("{:?}", sort::binary_search(&hay, needle))
        }
    })
}
