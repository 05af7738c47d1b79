#[mu2::mutate]
fn f(x: i32) -> String {
    x + 1
}

fn main() {
    f(1);
}
