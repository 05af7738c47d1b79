//! Operators: generics and trait bounds, overloading, strings, literals in
//! typed contexts, floats, shifts, casts, time.

use std::ops::{Add, Mul, Neg, Sub};
use std::time::{Duration, Instant};

pub fn groups() -> Vec<crate::Group> {
    vec![
        generics::GROUP,
        overloading::GROUP,
        strings::GROUP,
        literals::GROUP,
        numerics::GROUP,
        time::GROUP,
    ]
}

group! {
    generics {
        // `T: Add` without `Sub`: the `-` mutant is unviable, not a build error.
        pub fn sum<T: Add<Output = T>>(a: T, b: T) -> T {
            a + b
        }

        pub fn sum_all<T: Add<Output = T> + Default + Copy>(xs: &[T]) -> T {
            let mut total = T::default();
            for &x in xs {
                total = total + x;
            }
            total
        }

        pub fn largest<T: PartialOrd + Copy>(xs: &[T]) -> Option<T> {
            let mut best = *xs.first()?;
            for &x in &xs[1..] {
                if x > best {
                    best = x;
                }
            }
            Some(best)
        }

        pub fn dot<T>(a: &[T], b: &[T]) -> T
        where
            T: Mul<Output = T> + Add<Output = T> + Copy + Default,
        {
            a.iter().zip(b).fold(T::default(), |acc, (&x, &y)| acc + x * y)
        }

        // Operators on references under a higher-ranked bound.
        pub fn add_refs<T>(a: &T, b: &T) -> T
        where
            for<'x> &'x T: Add<&'x T, Output = T>,
        {
            a + b
        }

        pub fn negate<T: Neg<Output = T>>(x: T) -> T {
            -x
        }

        pub fn diff<T: Sub<Output = T> + PartialOrd + Copy>(a: T, b: T) -> T {
            if a >= b { a - b } else { b - a }
        }

        pub fn min_by_key<T, K: Ord>(xs: Vec<T>, key: impl Fn(&T) -> K) -> Option<T> {
            let mut best: Option<(K, T)> = None;
            for x in xs {
                let k = key(&x);
                match &best {
                    Some((bk, _)) if *bk <= k => {}
                    _ => best = Some((k, x)),
                }
            }
            best.map(|(_, x)| x)
        }
    }
    |m| {
        show![
            m::sum(2, 3),
            m::sum(1.5, 2.25),
            m::sum_all(&[1u8, 2, 3]),
            m::sum_all::<f32>(&[]),
            m::largest(&[3, 9, 2]),
            m::largest::<char>(&[]),
            m::largest(&["b", "a"]),
            m::dot(&[1, 2, 3], &[4, 5, 6]),
            m::add_refs(&String::from("x").len(), &4),
            m::negate(7i64),
            m::negate(2.5f64),
            m::diff(3u32, 10u32),
            m::diff(10u32, 3u32),
            m::min_by_key(vec!["ccc", "a", "bb"], |s| s.len()),
        ]
    }
}

group! {
    overloading {
        #[derive(Clone, Copy, Debug, PartialEq, Default)]
        pub struct V2 {
            pub x: i32,
            pub y: i32,
        }

        // Only `Add` and `Neg`: the `-` alternative of `a + b` is unviable.
        impl Add for V2 {
            type Output = V2;
            fn add(self, o: V2) -> V2 {
                V2 { x: self.x + o.x, y: self.y + o.y }
            }
        }

        impl Neg for V2 {
            type Output = V2;
            fn neg(self) -> V2 {
                V2 { x: -self.x, y: -self.y }
            }
        }

        impl Mul<i32> for V2 {
            type Output = V2;
            fn mul(self, k: i32) -> V2 {
                V2 { x: self.x * k, y: self.y * k }
            }
        }

        // `Sub` with an output of another type than `Add`'s.
        impl Sub for V2 {
            type Output = i64;
            fn sub(self, o: V2) -> i64 {
                (self.x - o.x) as i64 + (self.y - o.y) as i64
            }
        }

        impl std::ops::AddAssign for V2 {
            fn add_assign(&mut self, o: V2) {
                self.x += o.x;
                self.y += o.y;
            }
        }

        // A non-Copy type with operators on references only.
        #[derive(Debug, PartialEq, Clone)]
        pub struct Big(pub Vec<u8>);

        impl<'a> Add<&'a Big> for &'a Big {
            type Output = Big;
            fn add(self, o: &Big) -> Big {
                Big(self.0.iter().chain(&o.0).copied().collect())
            }
        }

        pub fn combine(a: V2, b: V2) -> V2 {
            let mut c = a + b;
            c += V2 { x: 1, y: 1 };
            -(c * 2)
        }

        pub fn spread(a: V2, b: V2) -> i64 {
            a - b
        }

        pub fn join(a: &Big, b: &Big) -> Big {
            &(a + b) + a
        }

        pub fn same(a: &Big, b: &Big) -> bool {
            a == b || a.0.len() != b.0.len()
        }

        pub fn wrapping(a: std::num::Wrapping<u8>) -> std::num::Wrapping<u8> {
            a + std::num::Wrapping(200) - std::num::Wrapping(1)
        }
    }
    |m| {
        let (a, b) = (m::V2 { x: 1, y: 2 }, m::V2 { x: 10, y: 20 });
        let (p, q) = (m::Big(vec![1]), m::Big(vec![2, 3]));
        show![
            m::combine(a, b),
            m::spread(b, a),
            m::join(&p, &q),
            m::same(&p, &q),
            m::same(&p, &p.clone()),
            m::wrapping(std::num::Wrapping(100)),
        ]
    }
}

group! {
    strings {
        pub fn greet(name: &str) -> String {
            let s = String::from("hello, ");
            s + name + "!"
        }

        pub fn concat(a: String, b: &String) -> String {
            a + &b
        }

        pub fn append(mut s: String, n: usize) -> String {
            for i in 0..n {
                s += "-";
                s += &i.to_string();
            }
            s
        }

        pub fn compare(a: &str, b: String) -> (bool, bool, bool, bool) {
            (a == b, a < b.as_str(), *a >= *b, b != "x")
        }

        pub fn shout(s: &str) -> String {
            let mut out = String::new();
            for c in s.chars() {
                if c.is_ascii_lowercase() && c != 'x' {
                    out.push(c.to_ascii_uppercase());
                } else {
                    out.push(c);
                }
            }
            out
        }

        pub fn describe(n: i32) -> String {
            let kind = if n % 2 == 0 { "even" } else { "odd" };
            format!("{n} is {kind}, {} bytes", kind.len() + 3)
        }

        pub fn first_word(s: &str) -> &str {
            match s.find(' ') {
                Some(i) if i > 0 => &s[..i],
                _ => s,
            }
        }
    }
    |m| {
        show![
            m::greet("world"),
            m::concat("a".into(), &"b".into()),
            m::append("x".into(), 3),
            m::compare("a", "b".into()),
            m::compare("x", "x".into()),
            m::shout("axe"),
            m::describe(7),
            m::describe(-4),
            m::first_word("hello world"),
            m::first_word(" lead"),
        ]
    }
}

group! {
    literals {
        pub fn takes_u16(n: u16) -> u16 {
            n
        }
        pub fn takes_u8(n: u8) -> u8 {
            n
        }

        pub struct Small {
            pub a: u8,
            pub b: i16,
        }

        pub fn typed() -> (u8, i64, u16, u64, i8, u32) {
            let x: u8 = 1 + 2;
            let a: i64 = 40;
            let y: i64 = a - 1;
            // Inferred as u16 only at the call below.
            let mut n = 0;
            n += 1;
            n *= 3;
            let n = takes_u16(n);
            let big: u64 = 1 << 40;
            let neg: i8 = -128;
            let z: u32 = (2 + 3) * 4 % 7;
            (x, y, n, big, neg, z)
        }

        pub fn index(v: &[i32], i: usize) -> i32 {
            v[i + 1] + v[i * 2 % v.len()] - v[v.len() - 1]
        }

        pub fn fields(k: u8) -> (u8, i16) {
            let s = Small { a: k + 1, b: 300 - 1 };
            (s.a, s.b)
        }

        pub fn late() -> u8 {
            let mut acc = 0;
            let mut i = 0;
            while i < 5 {
                acc += i * 2;
                i += 1;
            }
            takes_u8(acc)
        }

        pub fn unsuffixed_float(x: f32) -> f32 {
            2.0 * x + x / 4.0 - 0.5
        }

        pub fn array_math() -> [u8; 4] {
            let mut a = [0u8; 4];
            for i in 0..a.len() {
                a[i] = (i as u8 + 1) * 10;
            }
            a[3] -= 1;
            a
        }
    }
    |m| {
        show![
            m::typed(),
            m::index(&[1, 2, 3, 4], 1),
            m::fields(4),
            m::late(),
            m::unsuffixed_float(2.0),
            m::array_math(),
        ]
    }
}

group! {
    numerics {
        pub fn shifts(x: u32, k: u8, s: i64) -> (u32, u32, i64, u64) {
            let a = x << k;
            let b = x >> (k as u32);
            let c = s >> 2u8;
            let d = 1u64 << (k + 1);
            (a, b, c, d)
        }

        pub fn casts(x: u32, y: u64, f: f64) -> (bool, bool, bool, i32) {
            let a = (x as u64) < y;
            let b = y > x as u64;
            let c = f as i64 >= -3;
            let d = x as i32 - y as i32;
            (a, b, c, d)
        }

        pub fn floats(a: f64, b: f64) -> (f64, bool, bool, f64, f64) {
            let m = a * b - a / b;
            let nan = f64::NAN;
            (m, nan == nan, a < b, -a % b, (a + b).sqrt())
        }

        pub fn bits(a: u8, b: u8, p: bool, q: bool) -> (u8, u8, u8, bool, bool, u8) {
            (a & b, a | b, a ^ b, p & q, p ^ q, !a)
        }

        pub fn compound(mut x: i32) -> i32 {
            x += 3;
            x -= 1;
            x *= 4;
            x /= 2;
            x %= 7;
            x <<= 2;
            x >>= 1;
            x |= 0x10;
            x &= 0x1f;
            x ^= 3;
            x
        }

        pub fn logic(a: i32, b: i32, calls: &mut u32) -> (bool, bool, bool) {
            let mut side = |v: bool| {
                *calls += 1;
                v
            };
            let x = a > 0 && b > 0 || a < -5;
            let y = side(a == 1) || side(b == 2) && side(true);
            let z = !(a != b) && !x;
            (x, y, z)
        }

        pub fn checked(a: u8, b: u8) -> Option<u8> {
            let s = a.checked_add(b)?;
            Some(s.wrapping_mul(3) / 2)
        }

        pub fn negs(x: i32, y: f32) -> (i32, f32, i32) {
            (-x, -y * 2.0, -(x + 1))
        }
    }
    |m| {
        let mut calls = 0;
        let l1 = m::logic(1, 2, &mut calls);
        let l2 = m::logic(-9, 0, &mut calls);
        show![
            m::shifts(0b1011, 2, -64),
            m::casts(3, 4, -2.5),
            m::casts(5, 4, 1.0),
            m::floats(1.5, 3.0),
            m::bits(0b1100, 0b1010, true, false),
            m::compound(5),
            l1,
            l2,
            calls,
            m::checked(100, 20),
            m::checked(200, 100),
            m::negs(4, 1.5),
        ]
    }
}

group! {
    time {
        pub fn later(t: Instant, secs: u64) -> Instant {
            t + Duration::from_secs(secs)
        }

        pub fn span(t: Instant) -> (Duration, bool, Duration, Duration) {
            let u = t + Duration::from_millis(1500);
            let back = u - Duration::from_millis(500);
            let d = u - t;
            (d, back > t, d * 2, d / 3)
        }

        pub fn budget(d: Duration, n: u32) -> Duration {
            let mut total = Duration::ZERO;
            for _ in 0..n {
                total += d;
            }
            total -= d / 2;
            total
        }
    }
    |m| {
        let t = Instant::now();
        show![
            m::later(t, 3).duration_since(t),
            m::span(t),
            m::budget(Duration::from_millis(10), 4),
        ]
    }
}
