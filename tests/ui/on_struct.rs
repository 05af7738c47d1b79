#[mu2::mutate]
struct S {
    x: i32,
}

fn main() {
    let _ = S { x: 1 }.x;
}
