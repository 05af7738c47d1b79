#[mu2::mutate]
const fn f(x: u32) -> u32 {
    x + 1
}

#[mu2::mutate]
unsafe fn g(x: u32) -> u32 {
    x + 1
}

fn main() {
    f(1);
    unsafe { g(1) };
}
