#[mu2::mutate]
fn f(x: u32) -> u32 {
    #[mu2::mutate(only(math))]
    let y = x + 1;
    y
}

#[mu2::mutate]
mod m {
    #[mu2::mutate(only(nothing))]
    pub fn g(x: u32) -> u32 {
        x + 1
    }
}

fn main() {
    f(1);
    m::g(1);
}
