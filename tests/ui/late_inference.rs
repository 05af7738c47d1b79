// A known limit: an operand whose type rustc learns only after the operator
// (here the map's value type, from the return type). The error points at
// the operator; naming the type where the value is made
// (`HashMap::<String, String>::new()`) fixes it.

use std::collections::HashMap;

#[mu2::mutate]
fn grouped(pairs: &[(&str, &str)]) -> HashMap<String, String> {
    let mut m = HashMap::new();
    for (k, v) in pairs {
        *m.entry(k.to_string()).or_default() += *v;
    }
    m
}

fn main() {
    assert_eq!(grouped(&[("a", "x"), ("a", "y")])["a"], "xy");
}
