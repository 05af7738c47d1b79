#[mu2::mutate]
fn sum<T>(a: T, b: T) -> T {
    a + b
}

#[mu2::mutate]
fn less<T>(a: &T, b: &T) -> bool {
    a < b
}

fn main() {
    sum(1, 2);
    less(&1, &2);
}
