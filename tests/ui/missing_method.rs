#[mu2::mutate]
fn f(x: i32) -> i32 {
    if x.is_positive() && x.missing() > 0 {
        return x + 1;
    }
    x
}

fn main() {
    f(1);
}
