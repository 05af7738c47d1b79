struct Point {
    x: i32,
}

#[mu2::mutate]
fn f(a: &Point, b: &Point) -> bool {
    a.x < 10 && a == b
}

#[mu2::mutate]
fn g(a: Point, b: Point) -> bool {
    a.x == b.x || a < b
}

fn main() {
    let p = || Point { x: 1 };
    f(&p(), &p());
    g(p(), p());
}
