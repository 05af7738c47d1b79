//! Annotated code that is warning-free stays warning-free.
#![deny(warnings)]

use std::cell::RefCell;

#[mu2::mutate]
mod code {
    use super::RefCell;

    pub struct Acc {
        pub n: i64,
    }

    impl Acc {
        pub fn add(&mut self, x: i64) -> i64 {
            self.n += x;
            self.n -= 1;
            if (self.n > 10) && !(x < 0) {
                self.n = (self.n * 2) % 7;
            }
            -(self.n)
        }
    }

    pub fn parse(s: &str) -> Result<u32, std::num::ParseIntError> {
        let v: u32 = (s.trim()).parse()?;
        Ok((v + 1) << 2)
    }

    pub fn unit(v: &mut Vec<u8>) {
        v.push(1);
        v.sort();
    }

    pub fn cell(c: &RefCell<Vec<u8>>) -> bool {
        c.borrow().is_empty() || (c.borrow().len() > 2)
    }

    pub fn closures(xs: &[i32]) -> i32 {
        let add = |a, b| a + b;
        // A return type makes the braces part of the syntax.
        let join = |a: String, b: &str| -> String { a + b };
        let _ = join(String::new(), "x");
        xs.iter().map(|x| x * 2).fold(0, add)
    }

    pub async fn later(x: u8) -> u8 {
        x + 1
    }

    pub fn diverge(x: Option<u8>) -> u8 {
        match x {
            Some(v) => v,
            None => panic!("none"),
        }
    }
}

fn main() {
    let mut a = code::Acc { n: 5 };
    a.add(9);
    let _ = code::parse(" 3 ");
    code::unit(&mut vec![]);
    let _ = code::cell(&RefCell::new(vec![]));
    let _ = code::closures(&[1, 2]);
    let _ = code::later(1);
    let _ = code::diverge(Some(1));
}
