// A known limit: an operand whose type rustc learns only after the operator
// (here from the `let` below it). The error points at the operator; giving
// the type where the value is made (`let mut acc = String::new();`) fixes it.

#[mu2::mutate]
fn joined(words: &[&str]) -> String {
    let mut acc = Default::default();
    for w in words {
        acc = acc + *w;
    }
    let out: String = acc;
    out
}

fn main() {
    assert_eq!(joined(&["a", "b"]), "ab");
}
