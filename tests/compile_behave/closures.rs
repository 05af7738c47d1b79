//! Closures (including ones whose parameter types are inferred later),
//! iterator chains, `?`, `async fn`.

use std::collections::HashMap;
use std::error::Error;
use std::fmt;

pub fn groups() -> Vec<crate::Group> {
    vec![
        closures::GROUP,
        iterators::GROUP,
        tries::GROUP,
        asyncs::GROUP,
    ]
}

group! {
    closures {
        pub fn late_inferred() -> (i32, String, bool) {
            // Parameter types known only from the calls below.
            let add = |a, b| a + b;
            let cat = |a, b| a + b;
            let gt = |a, b| a > b;
            (
                add(2, 3),
                cat(String::from("ab"), "cd"),
                gt("b", "a"),
            )
        }

        pub fn late_inferred_in_a_tuple() -> String {
            let pair = (|a, b| a + b, 0);
            (pair.0)(String::from("x"), "y")
        }

        pub fn late_inferred_in_option() -> String {
            let f = Some(|a, b| a + b);
            f.unwrap()(String::from("p"), "q")
        }

        pub fn late_inferred_in_parens() -> String {
            let f = (|a, b| a + b);
            f(String::from("m"), "n")
        }

        pub fn late_inferred_annotation() -> String {
            let f: fn(_, _) -> _ = |a, b| a + b;
            f(String::from("s"), "t")
        }

        pub fn late_inferred_move() -> String {
            let sep = String::from("/");
            let f = move |a, b| a + sep.as_str() + b;
            f(String::from("a"), "b")
        }

        pub fn typed(a: i32) -> (i32, i32, String) {
            let double = |x: i32| x * 2;
            let mut count = 0;
            let mut bump = || count += 1;
            bump();
            bump();
            let join = |a: String, b: &str| -> String { a + b };
            (double(a), count, join("j".into(), "k"))
        }

        pub fn returned(k: i32) -> impl Fn(i32) -> i32 {
            move |x| x * k + 1
        }

        pub fn boxed() -> Box<dyn Fn(String, &str) -> String> {
            Box::new(|a, b| a + b)
        }

        pub fn curried(a: u32) -> impl Fn(u32) -> Box<dyn Fn(u32) -> u32> {
            move |b| Box::new(move |c| a * 100 + b * 10 + c)
        }

        pub fn apply<F: Fn(u64) -> u64>(f: F, x: u64) -> u64 {
            f(f(x) + 1)
        }

        pub fn nested(x: i64) -> i64 {
            let outer = |y: i64| {
                let inner = |z| z - y;
                inner(x) * 2
            };
            outer(3)
        }
    }
    |m| {
        show![
            m::late_inferred(),
            m::late_inferred_in_a_tuple(),
            m::late_inferred_in_option(),
            m::late_inferred_in_parens(),
            m::late_inferred_move(),
            m::late_inferred_annotation(),
            m::typed(21),
            m::returned(3)(4),
            m::boxed()("a".into(), "b"),
            m::curried(1)(2)(3),
            m::apply(|v| v * 3, 2),
            m::nested(10),
        ]
    }
}

group! {
    iterators {
        pub fn chain(xs: &[i32]) -> (i32, Vec<i32>, bool, usize, Option<i32>) {
            let s: i32 = xs.iter().map(|x| x * 2).filter(|x| *x > 3).sum();
            let v: Vec<i32> = xs.iter().rev().skip(1).step_by(2).map(|&x| x - 1).collect();
            let sorted = xs.windows(2).all(|w| w[0] <= w[1]);
            let evens = xs.iter().filter(|&&x| x % 2 == 0).count();
            let m = xs.iter().copied().max_by_key(|x| (x - 3).abs());
            (s, v, sorted, evens, m)
        }

        pub fn fold(words: &[&str]) -> String {
            words
                .iter()
                .enumerate()
                .fold(String::new(), |acc, (i, w)| acc + &i.to_string() + w)
        }

        pub fn counts(s: &str) -> Vec<(char, usize)> {
            let mut m = HashMap::new();
            for c in s.chars().filter(|c| !c.is_whitespace()) {
                *m.entry(c).or_insert(0) += 1;
            }
            let mut v: Vec<_> = m.into_iter().collect();
            v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
            v
        }

        pub fn zip_take(a: &[u32], b: &[u32]) -> Vec<u32> {
            a.iter()
                .zip(b)
                .take_while(|(x, y)| **x + **y < 100)
                .map(|(x, y)| x * y)
                .collect()
        }

        pub fn flat(v: Vec<Vec<i32>>) -> Vec<i32> {
            v.into_iter().flatten().filter_map(|x| (x > 0).then_some(x * 10)).collect()
        }

        pub fn position(xs: &[i32], t: i32) -> Option<usize> {
            xs.iter().position(|&x| x == t).map(|i| i + 1)
        }
    }
    |m| {
        show![
            m::chain(&[1, 2, 3, 4, 5]),
            m::chain(&[5, 1]),
            m::fold(&["a", "b", "c"]),
            m::counts("hello world"),
            m::zip_take(&[1, 2, 60, 4], &[5, 6, 70, 8]),
            m::flat(vec![vec![1, -2], vec![], vec![3]]),
            m::position(&[4, 5, 6], 5),
        ]
    }
}

group! {
    tries {
        #[derive(Debug)]
        pub struct Oops(pub u8);

        impl fmt::Display for Oops {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "oops {}", self.0)
            }
        }
        impl Error for Oops {}

        pub fn parse_sum(a: &str, b: &str) -> Result<i32, std::num::ParseIntError> {
            let x: i32 = a.parse()?;
            let y = b.trim().parse::<i32>()?;
            Ok(x + y)
        }

        pub fn first_even(xs: &[i32]) -> Option<i32> {
            let f = xs.iter().find(|x| *x % 2 == 0)?;
            Some(f * 10)
        }

        pub fn boxed(n: u8) -> Result<u8, Box<dyn Error>> {
            if n > 10 {
                Err(Oops(n))?;
            }
            let half = n.checked_div(2).ok_or("division")?;
            Ok(half + 1)
        }

        pub fn in_closure(xs: &[&str]) -> Option<Vec<u32>> {
            let parse = |s: &str| -> Option<u32> { Some(s.parse::<u32>().ok()? * 2) };
            xs.iter().map(|s| parse(s)).collect()
        }

        pub fn late_closure(r: Result<i32, String>) -> Result<i32, String> {
            let f = |r| -> Result<i32, String> { Ok(r? + 1) };
            f(r)
        }

        pub fn chain(map: &HashMap<&str, Vec<i32>>, k: &str) -> Option<i32> {
            let v = map.get(k)?.first()?;
            Some(*v - 1)
        }
    }
    |m| {
        let mut map = HashMap::new();
        map.insert("a", vec![5, 6]);
        map.insert("e", vec![]);
        show![
            m::parse_sum("2", " 40 "),
            m::parse_sum("x", "1").is_err(),
            m::first_even(&[1, 3, 4]),
            m::first_even(&[1]),
            m::boxed(6).map_err(|e| e.to_string()),
            m::boxed(12).map_err(|e| e.to_string()),
            m::in_closure(&["1", "2"]),
            m::in_closure(&["1", "z"]),
            m::late_closure(Ok(1)),
            m::late_closure(Err("no".into())),
            m::chain(&map, "a"),
            m::chain(&map, "e"),
            m::chain(&map, "z"),
        ]
    }
}

group! {
    asyncs {
        pub async fn add(a: i32, b: i32) -> i32 {
            a + b
        }

        pub async fn total(xs: Vec<i32>) -> Result<i32, String> {
            let mut t = 0;
            for x in xs {
                if x < 0 {
                    return Err(format!("negative: {x}"));
                }
                t = add(t, x).await;
            }
            let bonus = async { t * 2 }.await;
            Ok(bonus - t)
        }

        pub async fn maybe(o: Option<i32>) -> Option<i32> {
            let v = o?;
            Some(add(v, 1).await)
        }

        pub struct Counter(pub u32);

        impl Counter {
            pub async fn bump(&mut self, by: u32) -> u32 {
                self.0 += by;
                self.0
            }
        }
    }
    |m| {
        let mut c = m::Counter(1);
        show![
            crate::block_on(m::add(1, 2)),
            crate::block_on(m::total(vec![1, 2, 3])),
            crate::block_on(m::total(vec![1, -2])),
            crate::block_on(m::maybe(Some(4))),
            crate::block_on(m::maybe(None)),
            crate::block_on(c.bump(5)),
        ]
    }
}
