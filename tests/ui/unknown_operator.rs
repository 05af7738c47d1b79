#[mu2::mutate(only(maths, returns))]
fn f(x: u32) -> u32 {
    x + 1
}

#[mu2::mutate(excluded(math))]
fn g(x: u32) -> u32 {
    x + 1
}

#[mu2::mutate(only(math), exclude(returns))]
fn h(x: u32) -> u32 {
    x + 1
}

fn main() {
    f(1);
    g(1);
    h(1);
}
