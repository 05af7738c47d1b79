#[mu2::mutate]
fn f(s: String, n: u32) -> String {
    let t = -s;
    let mut m = n;
    m += "1";
    t
}

fn main() {
    f(String::new(), 1);
}
