#[mu2::mutate]
fn f() -> i32 {
    let x = "a" + 1;
    x.len() as i32
}

fn main() {
    f();
}
