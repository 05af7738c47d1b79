//! Items: nested modules and functions, const items and array lengths,
//! `unsafe`, statics, const generics, structs, traits with default methods,
//! `impl Trait for Type`, `Self`, lifetimes, `impl Trait` returns.

pub fn groups() -> Vec<crate::Group> {
    vec![
        nesting::GROUP,
        consts::GROUP,
        structs::GROUP,
        lifetimes::GROUP,
    ]
}

group! {
    nesting {
        pub fn outer(x: i32) -> i32 {
            fn helper(y: i32) -> i32 {
                y * 3 - 1
            }
            struct Local(i32);
            impl Local {
                fn get(&self) -> i32 {
                    self.0 + 1
                }
            }
            helper(x) + Local(x).get()
        }

        pub mod inner {
            pub fn f(a: u8) -> u8 {
                a / 2 + 1
            }

            pub mod deeper {
                pub fn g(a: u8) -> bool {
                    super::f(a) > 3 && a != 7
                }
            }

            #[cfg(test)]
            pub fn test_only() -> u8 {
                1 + 1
            }
        }

        pub fn with_module(a: u8) -> (u8, bool) {
            mod local {
                pub fn h(a: u8) -> u8 {
                    a % 5
                }
            }
            (inner::f(a) + local::h(a), inner::deeper::g(a))
        }
    }
    |m| {
        show![
            m::outer(4),
            m::inner::f(9),
            m::inner::deeper::g(8),
            m::inner::deeper::g(7),
            m::with_module(12),
        ]
    }
}

group! {
    consts {
        pub const SIZE: usize = 2 + 2;
        pub static GREETING: &str = "hi";

        pub fn arrays(k: usize) -> (usize, [u8; SIZE * 2], usize, u32) {
            const LEN: usize = SIZE + 1;
            static COUNT: u32 = 3 * 7;
            let a = [1u8; LEN - 1 + 1];
            let b: [u8; SIZE * 2] = [k as u8 + 1; SIZE * 2];
            let c = [0i32; { 2 + 1 }];
            (a.len() + k, b, c.len() - 1, COUNT + 1)
        }

        pub fn generic_len<const N: usize>(xs: [i32; N]) -> (usize, i32) {
            let mut s = 0;
            for x in xs {
                s += x;
            }
            (N + 1, s)
        }

        pub fn inline_const(x: u32) -> u32 {
            (const { 1 << 4 }) + x
        }

        pub fn raw(x: i32) -> i32 {
            let p = &x as *const i32;
            let y = unsafe { *p + 1 };
            let z = unsafe {
                let q = p;
                if *q > 5 { *q * 2 } else { *q - 2 }
            };
            y + z
        }

        pub unsafe fn unchecked(p: *const u8) -> u8 {
            unsafe { *p + 1 }
        }

        pub const fn twice(x: u32) -> u32 {
            x * 2
        }

        pub fn calls_const(x: u32) -> u32 {
            const T: u32 = twice(4);
            twice(x) + T + unsafe { unchecked(&7) } as u32 + GREETING.len() as u32
        }
    }
    |m| {
        show![
            m::arrays(3),
            m::generic_len([1, 2, 3]),
            m::inline_const(1),
            m::raw(3),
            m::raw(10),
            m::calls_const(5),
        ]
    }
}

group! {
    structs {
        #[derive(Debug, Clone, Default, PartialEq)]
        pub struct Config {
            pub width: u32,
            pub height: u32,
            pub name: String,
            pub verbose: bool,
        }

        impl Config {
            pub fn new(name: &str) -> Self {
                Self { name: name.to_string(), width: 80, ..Default::default() }
            }

            pub fn area(&self) -> u32 {
                self.width * self.height
            }

            pub fn taller(self, by: u32) -> Self {
                Config { height: self.height + by, ..self }
            }

            pub fn toggle(&mut self) -> &mut Self {
                self.verbose = !self.verbose;
                self
            }
        }

        pub trait Shape {
            fn sides(&self) -> u32;
            fn name(&self) -> String {
                format!("{}-gon", self.sides())
            }
            fn is_polygon(&self) -> bool {
                self.sides() >= 3
            }
            fn perimeter(&self, side: f64) -> f64 {
                self.sides() as f64 * side
            }
            fn make() -> Self
            where
                Self: Sized;
        }

        #[derive(Debug)]
        pub struct Tri;
        #[derive(Debug)]
        pub struct Line(pub u32);

        impl Shape for Tri {
            fn sides(&self) -> u32 {
                3
            }
            fn make() -> Self {
                Tri
            }
        }

        impl Shape for Line {
            fn sides(&self) -> u32 {
                self.0 - 1 + 1
            }
            fn name(&self) -> String {
                String::from("line")
            }
            fn make() -> Self {
                Line(1)
            }
        }

        pub fn describe<S: Shape>(s: &S) -> (String, bool, f64) {
            (s.name(), s.is_polygon(), s.perimeter(1.5))
        }

        pub fn dyn_sides(shapes: &[Box<dyn Shape>]) -> u32 {
            shapes.iter().map(|s| s.sides()).sum::<u32>() + 0
        }

        impl std::fmt::Display for Line {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                if self.0 > 1 {
                    write!(f, "line x{}", self.0)
                } else {
                    f.write_str("line")
                }
            }
        }

        #[derive(Debug, PartialEq, Eq, PartialOrd, Ord, Clone, Copy)]
        pub struct Meters(pub u32);

        impl From<u32> for Meters {
            fn from(v: u32) -> Self {
                Meters(v * 1000)
            }
        }
    }
    |m| {
        use m::Shape;
        let mut c = m::Config::new("c");
        c.toggle().toggle().toggle();
        let shapes: Vec<Box<dyn m::Shape>> = vec![Box::new(m::Tri), Box::new(m::Line(2))];
        show![
            c.clone(),
            c.clone().taller(4).area(),
            m::describe(&m::Tri),
            m::describe(&m::Line(2)),
            m::describe(&<m::Line as m::Shape>::make()),
            m::dyn_sides(&shapes),
            m::Line(3).to_string(),
            m::Line(1).to_string(),
            m::Meters::from(2) > m::Meters(1500),
        ]
    }
}

group! {
    lifetimes {
        pub struct Parser<'a> {
            pub src: &'a str,
            pub pos: usize,
        }

        impl<'a> Parser<'a> {
            pub fn new(src: &'a str) -> Self {
                Parser { src, pos: 0 }
            }

            pub fn word(&mut self) -> Option<&'a str> {
                let rest = &self.src[self.pos..];
                let rest_trim = rest.trim_start();
                let skipped = rest.len() - rest_trim.len();
                if rest_trim.is_empty() {
                    return None;
                }
                let end = rest_trim.find(' ').unwrap_or(rest_trim.len());
                self.pos += skipped + end;
                Some(&rest_trim[..end])
            }
        }

        pub fn longest<'a>(a: &'a str, b: &'a str) -> &'a str {
            if a.len() >= b.len() { a } else { b }
        }

        pub fn evens(v: &[i32]) -> impl Iterator<Item = i32> + '_ {
            v.iter().copied().filter(|x| x % 2 == 0).map(|x| x + 1)
        }

        pub fn pick<'a, T: PartialOrd>(xs: &'a [T], ys: &'a [T]) -> &'a [T] {
            if xs.len() < ys.len() || xs.first() > ys.first() { xs } else { ys }
        }

        pub fn split_pair(s: &str) -> (&str, &str) {
            let mid = s.len() / 2;
            (&s[..mid], &s[mid..])
        }

        pub fn tail(v: &mut Vec<i32>) -> &mut i32 {
            if v.is_empty() {
                v.push(0);
            }
            let n = v.len();
            &mut v[n - 1]
        }

        pub fn static_str(n: u8) -> &'static str {
            if n > 2 { "many" } else { "few" }
        }
    }
    |m| {
        let mut p = m::Parser::new("  ab cde  f ");
        let words = [p.word(), p.word(), p.word(), p.word()];
        let mut v = vec![1];
        *m::tail(&mut v) += 10;
        show![
            words,
            m::longest("ab", "c"),
            m::evens(&[1, 2, 3, 4]).collect::<Vec<_>>(),
            m::pick(&[1, 2], &[3]),
            m::pick(&[5], &[3, 4]),
            m::split_pair("abcde"),
            v,
            m::static_str(3),
        ]
    }
}
