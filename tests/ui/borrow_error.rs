#[mu2::mutate]
fn f(mut v: Vec<i32>) -> usize {
    let first = &v[0];
    v.push(*first + 1);
    v.len() + *first as usize
}

fn main() {
    f(vec![1]);
}
