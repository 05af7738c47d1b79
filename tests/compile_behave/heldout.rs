//! Realistic code of kinds the other groups do not cover well: a tokenizer,
//! a ring buffer and a binary heap, bit tricks, a small vector type with
//! operator impls, trait objects and generics, patterns, closures returning
//! closures, recursion that a mutant can make endless, error enums with `?`,
//! string building, `Ord` impls, floats.

use std::cell::RefCell;
use std::fmt;

pub fn groups() -> Vec<crate::Group> {
    vec![
        lexer::GROUP,
        buffers::GROUP,
        bits::GROUP,
        vectors::GROUP,
        dynamic::GROUP,
        patterns::GROUP,
        higher::GROUP,
        recursion::GROUP,
        errors::GROUP,
        text::GROUP,
        ordering::GROUP,
        floats::GROUP,
        modules::GROUP,
        const_places::GROUP,
        drops::GROUP,
        abis::GROUP,
        async_depth::GROUP,
        sync::GROUP,
        structures::GROUP,
        machines::GROUP,
        parsing::GROUP,
        deep::GROUP,
        panic_messages::GROUP,
        unsafe_loops::GROUP,
        exits::GROUP,
    ]
}

group! {
    lexer {
        #[derive(Debug, Clone, PartialEq)]
        pub enum Tok {
            Num(i64),
            Ident(String),
            Op(char),
            LParen,
            RParen,
        }

        pub fn lex(src: &str) -> Result<Vec<Tok>, String> {
            let mut out = Vec::new();
            let mut chars = src.chars().peekable();
            while let Some(&c) = chars.peek() {
                match c {
                    ' ' | '\t' | '\n' => {
                        chars.next();
                    }
                    '0'..='9' => {
                        let mut n: i64 = 0;
                        while let Some(&d) = chars.peek() {
                            if let Some(v) = d.to_digit(10) {
                                n = n * 10 + v as i64;
                                chars.next();
                            } else {
                                break;
                            }
                        }
                        out.push(Tok::Num(n));
                    }
                    'a'..='z' | 'A'..='Z' | '_' => {
                        let mut s = String::new();
                        while let Some(&d) = chars.peek() {
                            if d.is_alphanumeric() || d == '_' {
                                s.push(d);
                                chars.next();
                            } else {
                                break;
                            }
                        }
                        out.push(Tok::Ident(s));
                    }
                    '(' => {
                        chars.next();
                        out.push(Tok::LParen);
                    }
                    ')' => {
                        chars.next();
                        out.push(Tok::RParen);
                    }
                    c if "+-*/%".contains(c) => {
                        chars.next();
                        out.push(Tok::Op(c));
                    }
                    other => return Err(format!("unexpected {other:?}")),
                }
            }
            Ok(out)
        }

        pub fn classify_bytes(s: &str) -> [usize; 4] {
            let mut counts = [0usize; 4];
            for b in s.bytes() {
                let k = match b {
                    b'0'..=b'9' => 0,
                    b'a'..=b'z' | b'A'..=b'Z' => 1,
                    0..=0x20 => 2,
                    _ => 3,
                };
                counts[k] += 1;
            }
            counts
        }

        pub fn hex_value(s: &str) -> Option<u32> {
            let mut v: u32 = 0;
            for c in s.chars() {
                let d = match c {
                    '0'..='9' => c as u32 - '0' as u32,
                    'a'..='f' => c as u32 - 'a' as u32 + 10,
                    'A'..='F' => (c as u8 - b'A' + 10) as u32,
                    _ => return None,
                };
                v = v.checked_mul(16)?.checked_add(d)?;
            }
            Some(v)
        }

        pub fn caesar(s: &str, k: u8) -> String {
            s.chars()
                .map(|c| {
                    if c.is_ascii_lowercase() {
                        (((c as u8 - b'a' + k) % 26) + b'a') as char
                    } else if c.is_ascii_uppercase() {
                        (((c as u8 - b'A' + k) % 26) + b'A') as char
                    } else {
                        c
                    }
                })
                .collect()
        }
    }
    |m| {
        show![
            m::lex("foo + 12*(bar_2 - 7) % x"),
            m::lex("3 $ 4"),
            m::lex(""),
            m::classify_bytes("ab 12\tZ!?"),
            m::hex_value("1aF"),
            m::hex_value("xyz"),
            m::hex_value("fffffffff"),
            m::caesar("Hello, World", 3),
        ]
    }
}

group! {
    buffers {
        pub struct Ring<T, const N: usize> {
            buf: [Option<T>; N],
            head: usize,
            len: usize,
        }

        impl<T: Copy + fmt::Debug, const N: usize> Ring<T, N> {
            pub fn new() -> Self {
                Ring { buf: [None; N], head: 0, len: 0 }
            }

            pub fn push(&mut self, v: T) -> Option<T> {
                let tail = (self.head + self.len) % N;
                if self.len == N {
                    let old = self.buf[self.head].replace(v);
                    self.head = (self.head + 1) % N;
                    old
                } else {
                    self.buf[tail] = Some(v);
                    self.len += 1;
                    None
                }
            }

            pub fn pop(&mut self) -> Option<T> {
                if self.len == 0 {
                    return None;
                }
                let v = self.buf[self.head].take();
                self.head = self.head.wrapping_add(1) % N;
                self.len -= 1;
                v
            }

            pub fn items(&self) -> Vec<T> {
                (0..self.len).map(|i| self.buf[(self.head + i) % N].unwrap()).collect()
            }
        }

        #[derive(Default, Debug)]
        pub struct Heap {
            data: Vec<i64>,
        }

        impl Heap {
            pub fn push(&mut self, v: i64) {
                self.data.push(v);
                let mut i = self.data.len() - 1;
                while i > 0 {
                    let parent = (i - 1) / 2;
                    if self.data[parent] <= self.data[i] {
                        break;
                    }
                    self.data.swap(parent, i);
                    i = parent;
                }
            }

            pub fn pop(&mut self) -> Option<i64> {
                let n = self.data.len();
                if n == 0 {
                    return None;
                }
                self.data.swap(0, n - 1);
                let top = self.data.pop();
                let n = self.data.len();
                let mut i = 0;
                loop {
                    let (l, r) = (2 * i + 1, 2 * i + 2);
                    let mut smallest = i;
                    if l < n && self.data[l] < self.data[smallest] {
                        smallest = l;
                    }
                    if r < n && self.data[r] < self.data[smallest] {
                        smallest = r;
                    }
                    if smallest == i {
                        break;
                    }
                    self.data.swap(i, smallest);
                    i = smallest;
                }
                top
            }
        }

        pub fn heap_sort(v: &[i64]) -> Vec<i64> {
            let mut h = Heap::default();
            for &x in v {
                h.push(x);
            }
            let mut out = Vec::with_capacity(v.len());
            while let Some(x) = h.pop() {
                out.push(x);
            }
            out
        }

        pub fn checksum(data: &[u8]) -> (u16, u8, i64, u32) {
            let mut a: u16 = 1;
            let mut b: u16 = 0;
            for &d in data {
                a = a.wrapping_add(d as u16);
                b = b.wrapping_add(a);
            }
            let x = data.iter().fold(0u8, |acc, &d| acc ^ d.rotate_left(3));
            let s: i64 = data.iter().map(|&d| d as i64 - 100).sum::<i64>();
            let c = data.len() as u32;
            (b << 4 | a & 0xf, x, s * -1, c.saturating_sub(3) + c.checked_sub(10).unwrap_or(7))
        }

        pub fn midpoint(lo: usize, hi: usize) -> usize {
            lo + (hi - lo) / 2
        }

        pub fn bsearch(v: &[i32], x: i32) -> Result<usize, usize> {
            let (mut lo, mut hi) = (0usize, v.len());
            while lo < hi {
                let mid = midpoint(lo, hi);
                if v[mid] < x {
                    lo = mid + 1;
                } else if v[mid] > x {
                    hi = mid;
                } else {
                    return Ok(mid);
                }
            }
            Err(lo)
        }
    }
    |m| {
        let mut r: m::Ring<u8, 3> = m::Ring::new();
        let pushed: Vec<_> = (1..=5).map(|i| r.push(i)).collect();
        let popped = r.pop();
        show![
            pushed,
            popped,
            r.items(),
            m::heap_sort(&[5, -1, 3, 3, 9, 0]),
            m::checksum(b"hello world"),
            m::checksum(b""),
            m::bsearch(&[1, 3, 5, 7, 9], 7),
            m::bsearch(&[1, 3, 5, 7, 9], 4),
            m::bsearch(&[], 4),
        ]
    }
}

group! {
    bits {
        pub fn popcount(mut x: u64) -> u32 {
            let mut n = 0;
            while x != 0 {
                x &= x - 1;
                n += 1;
            }
            n
        }

        pub fn reverse_bits(x: u8) -> u8 {
            let mut r = 0u8;
            for i in 0..8 {
                if x & (1 << i) != 0 {
                    r |= 1 << (7 - i);
                }
            }
            r
        }

        pub fn pack(r: u8, g: u8, b: u8) -> u32 {
            (r as u32) << 16 | (g as u32) << 8 | b as u32
        }

        pub fn unpack(c: u32) -> (u8, u8, u8) {
            ((c >> 16) as u8, (c >> 8 & 0xff) as u8, (c & 0xff) as u8)
        }

        pub fn toggles(x: i32, mask: i32) -> (i32, i32, i32, bool, u32) {
            let mut y = x;
            y ^= mask;
            y <<= 2;
            y >>= 1;
            let z = !x & mask | x & !mask;
            (y, z, !(x ^ mask), x.count_ones() == mask.count_ones(), (x as u32).leading_zeros())
        }

        pub fn is_power_of_two(x: u32) -> bool {
            x != 0 && (x & (x - 1)) == 0
        }

        pub fn gray(n: u16) -> Vec<u16> {
            (0..n).map(|i| i ^ (i >> 1)).collect()
        }

        pub fn bitset(items: &[u8]) -> [u64; 4] {
            let mut set = [0u64; 4];
            for &i in items {
                set[(i / 64) as usize] |= 1u64 << (i % 64);
            }
            set
        }
    }
    |m| {
        show![
            m::popcount(0b1011_0110),
            m::popcount(u64::MAX),
            m::reverse_bits(0b0000_0110),
            m::pack(1, 2, 3),
            m::unpack(0x00a0b0c0),
            m::toggles(0b1100, 0b1010),
            m::toggles(-7, 3),
            m::is_power_of_two(64),
            m::is_power_of_two(0),
            m::is_power_of_two(12),
            m::gray(8),
            m::bitset(&[0, 63, 64, 200, 255]),
        ]
    }
}

group! {
    vectors {
        use std::ops::{Add, AddAssign, Index, IndexMut, Mul, Neg, Sub};

        #[derive(Debug, Clone, Copy, PartialEq, Default)]
        pub struct V2 {
            pub x: i64,
            pub y: i64,
        }

        impl Add for V2 {
            type Output = V2;
            fn add(self, o: V2) -> V2 {
                V2 { x: self.x + o.x, y: self.y + o.y }
            }
        }

        impl Sub for V2 {
            type Output = Self;
            fn sub(self, o: Self) -> Self {
                Self { x: self.x - o.x, y: self.y - o.y }
            }
        }

        impl Mul<i64> for V2 {
            type Output = V2;
            fn mul(self, k: i64) -> V2 {
                V2 { x: self.x * k, y: self.y * k }
            }
        }

        impl Neg for V2 {
            type Output = V2;
            fn neg(self) -> V2 {
                V2 { x: -self.x, y: -self.y }
            }
        }

        impl AddAssign for V2 {
            fn add_assign(&mut self, o: V2) {
                self.x += o.x;
                self.y += o.y;
            }
        }

        impl V2 {
            pub fn dot(self, o: V2) -> i64 {
                self.x * o.x + self.y * o.y
            }
            pub fn cross(self, o: V2) -> i64 {
                self.x * o.y - self.y * o.x
            }
        }

        #[derive(Debug, Clone, PartialEq)]
        pub struct Mat<const R: usize, const C: usize> {
            pub cells: [[i32; C]; R],
        }

        impl<const R: usize, const C: usize> Index<(usize, usize)> for Mat<R, C> {
            type Output = i32;
            fn index(&self, (r, c): (usize, usize)) -> &i32 {
                &self.cells[r][c]
            }
        }

        impl<const R: usize, const C: usize> IndexMut<(usize, usize)> for Mat<R, C> {
            fn index_mut(&mut self, (r, c): (usize, usize)) -> &mut i32 {
                &mut self.cells[r][c]
            }
        }

        impl<const R: usize, const K: usize, const C: usize> Mul<&Mat<K, C>> for &Mat<R, K> {
            type Output = Mat<R, C>;
            fn mul(self, o: &Mat<K, C>) -> Mat<R, C> {
                let mut out = Mat { cells: [[0; C]; R] };
                for i in 0..R {
                    for j in 0..C {
                        for k in 0..K {
                            out[(i, j)] += self[(i, k)] * o[(k, j)];
                        }
                    }
                }
                out
            }
        }

        impl<const N: usize> Mat<N, N> {
            pub fn identity() -> Self {
                let mut m = Mat { cells: [[0; N]; N] };
                for i in 0..N {
                    m[(i, i)] = 1;
                }
                m
            }
            pub fn trace(&self) -> i32 {
                (0..N).map(|i| self[(i, i)]).sum()
            }
        }

        pub fn polygon_area(pts: &[V2]) -> i64 {
            let mut acc = 0;
            for i in 0..pts.len() {
                let j = (i + 1) % pts.len();
                acc += pts[i].cross(pts[j]);
            }
            acc.abs() / 2
        }

        pub fn walk(steps: &[V2]) -> (V2, V2) {
            let mut pos = V2::default();
            let mut far = V2::default();
            for &s in steps {
                pos += s;
                if pos.dot(pos) > far.dot(far) {
                    far = pos;
                }
            }
            (pos, -far + pos * 2 - V2 { x: 1, ..pos })
        }
    }
    |m| {
        let a = m::Mat { cells: [[1, 2], [3, 4]] };
        let b = m::Mat { cells: [[0, 1], [1, 0]] };
        let mut i3 = m::Mat::<3, 3>::identity();
        i3[(0, 2)] = 5;
        show![
            &a * &b,
            (&a * &m::Mat::identity()).trace(),
            i3.trace() + i3[(0, 2)],
            m::polygon_area(&[
                m::V2 { x: 0, y: 0 },
                m::V2 { x: 4, y: 0 },
                m::V2 { x: 4, y: 3 },
                m::V2 { x: 0, y: 3 },
            ]),
            m::walk(&[m::V2 { x: 1, y: 2 }, m::V2 { x: -3, y: 1 }, m::V2 { x: 0, y: -5 }]),
        ]
    }
}

group! {
    dynamic {
        pub trait Animal {
            const LEGS: u32;
            type Food: fmt::Debug + Default;
            fn name(&self) -> String;
            fn eats(&self) -> Self::Food {
                Self::Food::default()
            }
            fn legs(&self) -> u32 {
                Self::LEGS * 1
            }
        }

        pub trait Speak {
            fn speak(&self) -> String;
            fn loud(&self) -> String {
                self.speak().to_uppercase() + "!"
            }
        }

        #[derive(Default)]
        pub struct Dog {
            pub age: u8,
        }

        impl Animal for Dog {
            const LEGS: u32 = 4;
            type Food = Vec<u8>;
            fn name(&self) -> String {
                if self.age < 2 { "puppy".into() } else { "dog".into() }
            }
        }

        impl Speak for Dog {
            fn speak(&self) -> String {
                "woof".repeat(self.age as usize % 3 + 1)
            }
        }

        pub struct Bird;
        impl Speak for Bird {
            fn speak(&self) -> String {
                String::from("tweet")
            }
            fn loud(&self) -> String {
                format!("{}{}", self.speak(), "!".repeat(2))
            }
        }

        pub fn chorus(all: &[Box<dyn Speak>]) -> Vec<String> {
            all.iter().enumerate().map(|(i, s)| if i % 2 == 0 { s.speak() } else { s.loud() }).collect()
        }

        pub fn apply_all(fs: &[&dyn Fn(i32) -> i32], x: i32) -> i32 {
            fs.iter().fold(x, |acc, f| f(acc))
        }

        pub struct Stack<T>
        where
            T: Clone,
        {
            items: Vec<T>,
        }

        impl<T> Stack<T>
        where
            T: Clone + PartialOrd,
        {
            pub fn new() -> Self {
                Stack { items: Vec::new() }
            }
            pub fn push(&mut self, t: T) -> &mut Self {
                self.items.push(t);
                self
            }
            pub fn max(&self) -> Option<&T> {
                let mut best: Option<&T> = None;
                for t in &self.items {
                    if best.is_none() || Some(t) > best {
                        best = Some(t);
                    }
                }
                best
            }
            pub fn peek(&self) -> Option<&T> {
                self.items.last()
            }
        }

        pub fn total_legs<A: Animal>(xs: &[A]) -> u32 {
            xs.iter().map(|a| a.legs()).sum::<u32>() + A::LEGS - A::LEGS
        }

        pub fn make_adder(k: i32) -> impl Fn(i32) -> i32 {
            move |x| x + k
        }

        pub fn sum_all(it: impl IntoIterator<Item = u32>) -> u32 {
            let mut s = 0;
            for x in it {
                s += x;
            }
            s
        }

        pub fn largest<T: PartialOrd + Copy, const N: usize>(xs: [T; N]) -> Option<T> {
            let mut it = xs.into_iter();
            let mut best = it.next()?;
            for x in it {
                if x > best {
                    best = x;
                }
            }
            Some(best)
        }

        pub fn boxed(n: u8) -> Box<dyn Speak> {
            if n > 0 { Box::new(Dog { age: n }) } else { Box::new(Bird) }
        }
    }
    |m| {
        use m::{Animal, Speak};
        let all: Vec<Box<dyn m::Speak>> = vec![Box::new(m::Dog { age: 4 }), Box::new(m::Bird), m::boxed(2), m::boxed(0)];
        let double = |x: i32| x * 2;
        let inc = m::make_adder(1);
        let mut st = m::Stack::new();
        st.push(3).push(9).push(4);
        show![
            m::chorus(&all),
            m::apply_all(&[&double, &inc, &|x| x - 3], 5),
            st.max(),
            st.peek(),
            m::Stack::<u8>::new().max(),
            m::total_legs(&[m::Dog { age: 1 }, m::Dog::default()]),
            m::Dog { age: 1 }.name(),
            m::Dog { age: 5 }.eats(),
            m::sum_all(vec![1, 2, 3]),
            m::sum_all(1..=4),
            m::largest([3.5, 1.0, 9.25]),
            m::largest::<u8, 0>([]),
        ]
    }
}

group! {
    patterns {
        pub fn ends(v: &[i32]) -> i32 {
            match v {
                [] => 0,
                [x] => *x,
                [first, .., last] if first == last => first * 10,
                [first, rest @ ..] => first + rest.len() as i32,
            }
        }

        pub fn middle(v: &[u8]) -> Option<&[u8]> {
            let [_, mid @ .., _] = v else {
                return None;
            };
            Some(mid)
        }

        pub fn pairs(p: (i32, &str), q: &Option<(u8, u8)>) -> String {
            let a = match p {
                (0, _) => "zero".to_string(),
                (n @ 1..=9, s) => format!("{s}{n}"),
                (n, "neg") if n < 0 => "negative".to_string(),
                (_, s) => s.to_uppercase(),
            };
            let b = match q {
                Some((x, y)) if x > y => x - y,
                &Some((x, y)) => y - x,
                None => 0,
            };
            format!("{a}/{b}")
        }

        pub fn first_neg(grid: &[Vec<i32>]) -> Option<(usize, usize)> {
            let found = 'outer: {
                for (i, row) in grid.iter().enumerate() {
                    for (j, &x) in row.iter().enumerate() {
                        if x < 0 {
                            break 'outer Some((i, j));
                        }
                    }
                }
                None
            };
            found
        }

        pub fn collatz_steps(mut n: u64) -> u32 {
            let mut steps = 0;
            let last = loop {
                if n == 1 || steps >= 500 {
                    break steps;
                }
                n = if n % 2 == 0 { n / 2 } else { 3 * n + 1 };
                steps += 1;
            };
            last
        }

        pub fn stack_ops(ops: &str) -> Vec<i32> {
            let mut stack = vec![];
            for op in ops.split_whitespace() {
                if let Ok(n) = op.parse::<i32>() {
                    stack.push(n);
                } else if let (Some(b), Some(a)) = (stack.pop(), stack.pop()) {
                    stack.push(match op {
                        "+" => a + b,
                        "-" => a - b,
                        "*" => a * b,
                        _ => 0,
                    });
                } else {
                    stack.clear();
                }
            }
            let mut out = vec![];
            while let Some(top) = stack.pop() {
                out.push(top);
            }
            out
        }

        pub fn grade(score: u32) -> char {
            match score {
                90.. => 'A',
                80..90 => 'B',
                70..=79 => 'C',
                _ => 'F',
            }
        }

        pub fn refs(v: &[(String, u32)]) -> u32 {
            let mut total = 0;
            for (name, n) in v {
                match (name.as_str(), *n) {
                    ("skip", _) => continue,
                    (_, 0) => break,
                    (s, k) if s.len() > 3 => total += k * 2,
                    (_, k) => total += k,
                }
            }
            total
        }
    }
    |m| {
        show![
            m::ends(&[]),
            m::ends(&[4]),
            m::ends(&[3, 1, 3]),
            m::ends(&[3, 1, 2, 4]),
            m::middle(&[1, 2, 3, 4]),
            m::middle(&[1]),
            m::pairs((0, "a"), &None),
            m::pairs((5, "x"), &Some((7, 2))),
            m::pairs((-2, "neg"), &Some((2, 7))),
            m::pairs((20, "big"), &None),
            m::first_neg(&[vec![1, 2], vec![3, -4]]),
            m::first_neg(&[vec![1]]),
            m::collatz_steps(27),
            m::stack_ops("3 4 + 2 * 7 - 1"),
            m::stack_ops("+ 1"),
            m::grade(95),
            m::grade(85),
            m::grade(75),
            m::grade(10),
            m::refs(&[("ab".into(), 1), ("skip".into(), 100), ("long".into(), 3), ("x".into(), 0), ("y".into(), 9)]),
        ]
    }
}

group! {
    higher {
        pub fn compose<A, B, C>(f: impl Fn(A) -> B, g: impl Fn(B) -> C) -> impl Fn(A) -> C {
            move |x| g(f(x))
        }

        pub fn multiplier(k: i32) -> impl Fn(i32) -> Box<dyn Fn(i32) -> i32> {
            move |a| Box::new(move |b| a * b + k)
        }

        pub fn counter() -> impl FnMut() -> u32 {
            let mut n = 0;
            move || {
                n += 1;
                n * n
            }
        }

        pub fn apply_n(mut f: impl FnMut(i64) -> i64, n: usize, x: i64) -> i64 {
            let mut v = x;
            for _ in 0..n {
                v = f(v);
            }
            v
        }

        pub fn chains(v: &[i64]) -> (i64, i64, Vec<i64>, Vec<i64>, Vec<i64>) {
            let s = v.iter().zip(v.iter().skip(1)).map(|(a, b)| (b - a).abs()).sum::<i64>();
            let p: i64 = v.iter().filter(|&&x| x != 0).take(4).product();
            let w: Vec<i64> = v.windows(2).map(|w| w[0] * w[1]).collect();
            let c: Vec<i64> = v.chunks(3).map(|c| c.iter().sum()).rev().collect();
            let sc: Vec<i64> = v
                .iter()
                .scan(0, |acc, &x| {
                    *acc += x;
                    if *acc > 20 { None } else { Some(*acc) }
                })
                .collect();
            (s, p, w, c, sc)
        }

        pub fn more_chains(n: u32) -> (Vec<u32>, Vec<u32>, u32, Option<u32>) {
            let a: Vec<u32> = (0..n).step_by(3).collect();
            let b: Vec<u32> = (1..n).filter_map(|x| if x % 2 == 1 { Some(x * x) } else { None }).take_while(|&x| x < 50).collect();
            let c = (1..=n).fold(0, |acc, x| acc + x * 2);
            let d = (1..n).rev().find(|x| x % 4 == 0);
            (a, b, c, d)
        }

        pub fn sort_by_key(mut v: Vec<(String, i32)>) -> Vec<String> {
            v.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
            v.into_iter().map(|(s, _)| s).collect()
        }

        pub fn memo_fib(n: usize) -> u64 {
            let mut memo = vec![0u64; n + 2];
            memo[1] = 1;
            let mut fill = |i: usize| memo[i] = memo[i - 1] + memo[i - 2];
            for i in 2..=n {
                fill(i);
            }
            memo[n]
        }
    }
    |m| {
        let f = m::compose(|x: i32| x + 1, |y: i32| y * 10);
        let g = m::compose(|s: &str| s.len(), |n: usize| n > 2);
        let mut c = m::counter();
        let mul = m::multiplier(1)(3);
        let mut acc = 0;
        show![
            f(4),
            g("abc"),
            [c(), c(), c()],
            mul(5),
            m::apply_n(|x| { acc += 1; x * 2 - acc }, 5, 1),
            m::chains(&[3, 1, 4, 1, 5, 9, 2, 6]),
            m::more_chains(20),
            m::sort_by_key(vec![("b".into(), 2), ("a".into(), 2), ("c".into(), 5)]),
            m::memo_fib(30),
        ]
    }
}

group! {
    recursion {
        pub fn is_even(n: u32) -> bool {
            if n == 0 { true } else { is_odd(n - 1) }
        }

        pub fn is_odd(n: u32) -> bool {
            if n == 0 { false } else { is_even(n - 1) }
        }

        pub fn sum_slice(v: &[i64]) -> i64 {
            match v {
                [] => 0,
                [head, tail @ ..] => head + sum_slice(tail),
            }
        }

        pub fn max_slice(v: &[i32]) -> Option<i32> {
            if v.len() <= 1 {
                return v.first().copied();
            }
            let mid = v.len() / 2;
            let (l, r) = v.split_at(mid);
            Some(max_slice(l)?.max(max_slice(r)?))
        }

        pub fn ackermann(m: u64, n: u64) -> u64 {
            if m == 0 {
                n + 1
            } else if n == 0 {
                ackermann(m - 1, 1)
            } else {
                ackermann(m - 1, ackermann(m, n - 1))
            }
        }

        pub struct Parser<'s> {
            src: &'s [u8],
            pos: usize,
        }

        impl<'s> Parser<'s> {
            pub fn new(src: &'s str) -> Self {
                Parser { src: src.as_bytes(), pos: 0 }
            }

            fn peek(&self) -> Option<u8> {
                self.src.get(self.pos).copied()
            }

            fn expr(&mut self) -> Result<i64, String> {
                let mut v = self.term()?;
                while let Some(c @ (b'+' | b'-')) = self.peek() {
                    self.pos += 1;
                    let r = self.term()?;
                    v = if c == b'+' { v + r } else { v - r };
                }
                Ok(v)
            }

            fn term(&mut self) -> Result<i64, String> {
                let mut v = self.atom()?;
                while let Some(c @ (b'*' | b'/')) = self.peek() {
                    self.pos += 1;
                    let r = self.atom()?;
                    if c == b'/' && r == 0 {
                        return Err("division by zero".into());
                    }
                    v = if c == b'*' { v * r } else { v / r };
                }
                Ok(v)
            }

            fn atom(&mut self) -> Result<i64, String> {
                match self.peek() {
                    Some(b'(') => {
                        self.pos += 1;
                        let v = self.expr()?;
                        if self.peek() != Some(b')') {
                            return Err(format!("expected ) at {}", self.pos));
                        }
                        self.pos += 1;
                        Ok(v)
                    }
                    Some(b'-') => {
                        self.pos += 1;
                        Ok(-self.atom()?)
                    }
                    Some(c) if c.is_ascii_digit() => {
                        let start = self.pos;
                        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
                            self.pos += 1;
                        }
                        std::str::from_utf8(&self.src[start..self.pos])
                            .unwrap()
                            .parse()
                            .map_err(|e| format!("{e}"))
                    }
                    other => Err(format!("unexpected {:?} at {}", other.map(char::from), self.pos)),
                }
            }
        }

        pub fn eval(s: &str) -> Result<i64, String> {
            let mut p = Parser::new(s);
            let v = p.expr()?;
            if p.pos != p.src.len() {
                return Err(format!("trailing input at {}", p.pos));
            }
            Ok(v)
        }

        #[derive(Debug)]
        pub enum Tree {
            Leaf(i32),
            Node(Box<Tree>, Box<Tree>),
        }

        pub fn build(depth: u32, start: i32) -> Tree {
            if depth == 0 {
                Tree::Leaf(start)
            } else {
                Tree::Node(Box::new(build(depth - 1, start)), Box::new(build(depth - 1, start + (1 << (depth - 1)))))
            }
        }

        pub fn depth(t: &Tree) -> usize {
            match t {
                Tree::Leaf(_) => 1,
                Tree::Node(l, r) => 1 + depth(l).max(depth(r)),
            }
        }

        pub fn leaves(t: &Tree, out: &mut Vec<i32>) {
            match t {
                Tree::Leaf(v) => out.push(*v),
                Tree::Node(l, r) => {
                    leaves(l, out);
                    leaves(r, out);
                }
            }
        }

        pub fn hanoi(n: u32, from: u8, to: u8, via: u8, moves: &mut Vec<(u8, u8)>) {
            if n == 0 {
                return;
            }
            hanoi(n - 1, from, via, to, moves);
            moves.push((from, to));
            hanoi(n - 1, via, to, from, moves);
        }
    }
    |m| {
        let t = m::build(3, 0);
        let mut ls = vec![];
        m::leaves(&t, &mut ls);
        let mut moves = vec![];
        m::hanoi(3, 1, 3, 2, &mut moves);
        show![
            m::is_even(10),
            m::is_odd(7),
            m::sum_slice(&[1, 2, 3, 4]),
            m::max_slice(&[3, 8, 1, 9, 2]),
            m::max_slice(&[]),
            m::ackermann(2, 3),
            m::eval("2*(3+4)-10/2"),
            m::eval("-(1+2)*3"),
            m::eval("1/0"),
            m::eval("(1+2"),
            m::eval("1+x"),
            m::depth(&t),
            ls,
            moves,
        ]
    }
}

group! {
    errors {
        use std::num::ParseIntError;

        #[derive(Debug, PartialEq)]
        pub enum ConfError {
            Missing(&'static str),
            BadNumber(String),
            OutOfRange { key: String, value: i64 },
        }

        impl From<ParseIntError> for ConfError {
            fn from(e: ParseIntError) -> Self {
                ConfError::BadNumber(e.to_string())
            }
        }

        impl fmt::Display for ConfError {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                match self {
                    ConfError::Missing(k) => write!(f, "missing {k}"),
                    ConfError::BadNumber(s) => write!(f, "bad number: {s}"),
                    ConfError::OutOfRange { key, value } => {
                        write!(f, "{key}={value} out of range")
                    }
                }
            }
        }

        impl std::error::Error for ConfError {}

        #[derive(Debug, Default, PartialEq)]
        pub struct Conf {
            pub width: i64,
            pub height: i64,
            pub title: Option<String>,
        }

        fn field<'a>(pairs: &'a [(&'a str, &'a str)], key: &str) -> Option<&'a str> {
            pairs.iter().find(|(k, _)| *k == key).map(|&(_, v)| v)
        }

        pub fn parse(pairs: &[(&str, &str)]) -> Result<Conf, ConfError> {
            let width: i64 = field(pairs, "width").ok_or(ConfError::Missing("width"))?.parse()?;
            let height = field(pairs, "height").map(str::parse::<i64>).transpose()?.unwrap_or(width);
            if !(1..=1000).contains(&width) {
                return Err(ConfError::OutOfRange { key: "width".into(), value: width });
            }
            let title = field(pairs, "title").filter(|t| !t.is_empty()).map(String::from);
            Ok(Conf { width, height, title })
        }

        pub fn area(pairs: &[(&str, &str)]) -> Result<i64, Box<dyn std::error::Error>> {
            let c = parse(pairs)?;
            Ok(c.width.checked_mul(c.height).ok_or("overflow")?)
        }

        pub fn first_even_square(v: &[&str]) -> Option<u64> {
            let n: u64 = v.first()?.parse().ok()?;
            let sq = n.checked_mul(n)?;
            (sq % 2 == 0).then_some(sq).or_else(|| v.get(1).and_then(|s| s.parse().ok()))
        }

        pub fn sum_parsed(v: &[&str]) -> Result<i32, ParseIntError> {
            v.iter().map(|s| s.trim().parse::<i32>()).sum()
        }

        pub fn describe(r: Result<i64, ConfError>) -> String {
            r.map(|v| v * 2).map_or_else(|e| e.to_string(), |v| format!("ok {v}"))
        }
    }
    |m| {
        show![
            m::parse(&[("width", "10"), ("title", "t")]),
            m::parse(&[("width", "10"), ("height", "x")]),
            m::parse(&[("height", "3")]),
            m::parse(&[("width", "0")]),
            m::area(&[("width", "6"), ("height", "7")]).map_err(|e| e.to_string()),
            m::area(&[("width", "6"), ("height", "9223372036854775807")]).map_err(|e| e.to_string()),
            m::first_even_square(&["4"]),
            m::first_even_square(&["3", "11"]),
            m::first_even_square(&[]),
            m::sum_parsed(&[" 1", "2 ", "3"]),
            m::sum_parsed(&["1", "z"]),
            m::describe(Ok(4)),
            m::describe(Err(m::ConfError::Missing("k"))),
        ]
    }
}

group! {
    text {
        use std::fmt::Write;

        pub fn table(rows: &[(&str, u32)]) -> String {
            let width = rows.iter().map(|(n, _)| n.len()).max().unwrap_or(0);
            let mut s = String::new();
            for (i, (name, v)) in rows.iter().enumerate() {
                if i > 0 {
                    s.push('\n');
                }
                write!(s, "{:<width$} | {:>4}", name, v, width = width).unwrap();
            }
            let total: u32 = rows.iter().map(|r| r.1).sum();
            writeln!(&mut s).unwrap();
            s.push_str(&format!("total {}", total));
            s
        }

        pub fn shadowing(input: &str) -> (usize, String) {
            let input = input.trim();
            let input = input.to_lowercase();
            let n = input.len();
            let n = n * 2 + 1;
            let input: String = input.chars().rev().collect();
            (n, input)
        }

        pub fn run_length(s: &str) -> String {
            let mut out = String::new();
            let mut it = s.chars().peekable();
            while let Some(c) = it.next() {
                let mut n = 1;
                while it.peek() == Some(&c) {
                    it.next();
                    n += 1;
                }
                if n > 1 {
                    out += &n.to_string();
                }
                out.push(c);
            }
            out
        }

        pub fn words(s: &str) -> Vec<String> {
            let mut out: Vec<String> = Vec::new();
            let mut cur = String::new();
            for c in s.chars() {
                if c.is_whitespace() || c == ',' {
                    if !cur.is_empty() {
                        out.push(std::mem::take(&mut cur));
                    }
                } else {
                    cur.push(c);
                }
            }
            if !cur.is_empty() {
                out.push(cur);
            }
            out
        }

        pub struct Doc {
            pub title: String,
            pub lines: Vec<String>,
        }

        impl Doc {
            pub fn longest_line(&self) -> &str {
                let mut best = "";
                for l in &self.lines {
                    if l.len() > best.len() {
                        best = l;
                    }
                }
                best
            }

            pub fn line<'a>(&'a self, i: usize) -> Option<&'a String> {
                self.lines.get(i - 1)
            }

            pub fn title_or<'a>(&'a self, fallback: &'a str) -> &'a str {
                if self.title.is_empty() { fallback } else { &self.title }
            }
        }
    }
    |m| {
        let d = m::Doc { title: String::new(), lines: vec!["a".into(), "abc".into(), "ab".into()] };
        show![
            m::table(&[("alpha", 1), ("b", 200)]),
            m::shadowing("  HeLLo "),
            m::run_length("aaabccdddd"),
            m::words("a b,,c  dd,"),
            d.longest_line(),
            d.line(2),
            d.title_or("none"),
        ]
    }
}

group! {
    ordering {
        use std::cmp::Ordering;

        #[derive(Debug, Clone, PartialEq, Eq)]
        pub struct Version {
            pub major: u32,
            pub minor: u32,
            pub patch: u32,
            pub pre: Option<String>,
        }

        impl Ord for Version {
            fn cmp(&self, o: &Self) -> Ordering {
                self.major
                    .cmp(&o.major)
                    .then(self.minor.cmp(&o.minor))
                    .then_with(|| self.patch.cmp(&o.patch))
                    .then_with(|| match (&self.pre, &o.pre) {
                        (None, None) => Ordering::Equal,
                        (None, Some(_)) => Ordering::Greater,
                        (Some(_), None) => Ordering::Less,
                        (Some(a), Some(b)) => a.cmp(b),
                    })
            }
        }

        impl PartialOrd for Version {
            fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
                Some(self.cmp(o))
            }
        }

        impl Version {
            pub fn parse(s: &str) -> Option<Self> {
                let (nums, pre) = match s.split_once('-') {
                    Some((n, p)) => (n, Some(p.to_string())),
                    None => (s, None),
                };
                let mut it = nums.split('.').map(|p| p.parse::<u32>());
                let major = it.next()?.ok()?;
                let minor = it.next().unwrap_or(Ok(0)).ok()?;
                let patch = it.next().unwrap_or(Ok(0)).ok()?;
                Some(Self { major, minor, patch, pre })
            }

            pub fn bump(&self) -> Self {
                Version { patch: self.patch + 1, pre: None, ..self.clone() }
            }
        }

        #[derive(Debug, Clone, Copy, PartialEq, PartialOrd)]
        pub struct Score(pub f64);

        pub fn rank(mut v: Vec<Score>) -> Vec<Score> {
            v.sort_by(|a, b| b.partial_cmp(a).unwrap_or(Ordering::Equal));
            v
        }

        pub fn clamp_all(v: &[i32], lo: i32, hi: i32) -> Vec<i32> {
            v.iter().map(|&x| x.clamp(lo, hi).max(lo).min(hi)).collect()
        }

        pub fn newest(vs: &[&str]) -> Option<String> {
            let mut parsed: Vec<Version> = vs.iter().filter_map(|s| Version::parse(s)).collect();
            parsed.sort();
            let top = parsed.last()?;
            Some(format!("{}.{}.{}{}", top.major, top.minor, top.patch, top.pre.as_deref().map(|p| format!("-{p}")).unwrap_or_default()))
        }
    }
    |m| {
        let a = m::Version::parse("1.2.3").unwrap();
        let b = m::Version::parse("1.2.3-rc1").unwrap();
        show![
            a.cmp(&b),
            a > b,
            a.bump(),
            m::Version::parse("x.1"),
            m::newest(&["0.9", "1.10.0", "1.2.99", "1.10.0-beta", "junk"]),
            m::rank(vec![m::Score(1.5), m::Score(f64::NAN), m::Score(3.0)]),
            m::clamp_all(&[-5, 3, 50], 0, 10),
        ]
    }
}

group! {
    floats {
        pub fn stats(v: &[f64]) -> Option<(f64, f64, f64)> {
            if v.is_empty() {
                return None;
            }
            let n = v.len() as f64;
            let mean = v.iter().sum::<f64>() / n;
            let var = v.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n;
            let max = v.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
            Some((mean, var.sqrt(), max))
        }

        pub fn approx_eq(a: f64, b: f64) -> bool {
            (a - b).abs() < 1e-9 * a.abs().max(b.abs()).max(1.0)
        }

        pub fn newton_sqrt(x: f64) -> f64 {
            if x < 0.0 || x.is_nan() {
                return f64::NAN;
            }
            let mut g = x / 2.0 + 0.5;
            let mut i = 0;
            while (g * g - x).abs() > 1e-10 && i < 100 {
                g = (g + x / g) / 2.0;
                i += 1;
            }
            g
        }

        pub fn classify(x: f32) -> &'static str {
            if x.is_nan() {
                "nan"
            } else if x == f32::INFINITY || x == -f32::INFINITY {
                "inf"
            } else if x < 0.0 {
                "neg"
            } else if x >= 1.0e6 {
                "big"
            } else {
                "small"
            }
        }

        pub fn lerp(a: f32, b: f32, t: f32) -> f32 {
            a + (b - a) * t
        }

        pub fn to_fixed(x: f64) -> (i32, u8, i64) {
            let scaled = (x * 256.0).round();
            (scaled as i32, (x.fract().abs() * 255.0) as u8, -(x.trunc() as i64))
        }
    }
    |m| {
        show![
            m::stats(&[1.0, 2.0, 3.0, 4.0]),
            m::stats(&[]),
            m::approx_eq(0.1 + 0.2, 0.3),
            m::approx_eq(1.0, 1.1),
            m::newton_sqrt(2.0),
            m::newton_sqrt(-1.0),
            m::classify(f32::NAN),
            m::classify(-f32::INFINITY),
            m::classify(-2.0),
            m::classify(2e7),
            m::classify(0.5),
            m::lerp(1.0, 3.0, 0.25),
            m::to_fixed(-2.75),
        ]
    }
}

group! {
    modules {
        macro_rules! square {
            ($x:expr) => {
                $x * $x
            };
        }

        macro_rules! make_getter {
            ($name:ident, $field:ident, $t:ty) => {
                pub fn $name(&self) -> $t {
                    self.$field + 0
                }
            };
        }

        pub const LIMIT: u32 = 100;

        #[derive(Debug, Default, Clone)]
        pub struct Counter {
            pub hits: u32,
            pub misses: u32,
        }

        impl Counter {
            make_getter!(hits, hits, u32);

            pub fn ratio(&self) -> f64 {
                let total = self.hits + self.misses;
                if total == 0 { 0.0 } else { self.hits as f64 / total as f64 }
            }
        }

        pub mod geometry {
            use super::*;

            pub fn area(w: u32, h: u32) -> u32 {
                (w * h).min(LIMIT)
            }

            pub mod deep {
                use super::super::*;

                pub fn sq(x: i32) -> i32 {
                    square!(x + 1)
                }
            }

            #[cfg(test)]
            mod tests {
                use super::*;
                #[test]
                fn area_works() {
                    assert_eq!(area(2, 3), 6);
                }
            }
        }

        pub fn statics(n: u32) -> (u32, u32, usize) {
            static TABLE: [u32; 4] = [1, 10, 100, 1000];
            const SCALE: u32 = 3;
            let idx = (n as usize).min(TABLE.len() - 1);
            (TABLE[idx] * SCALE, geometry::area(n, n + 1), LIMIT as usize - 1)
        }

        pub fn swap_unsafe(v: &mut [i32]) -> i32 {
            let n = v.len();
            if n < 2 {
                return 0;
            }
            let p = v.as_mut_ptr();
            unsafe {
                std::ptr::swap(p, p.add(n - 1));
            }
            v[0] - v[n - 1]
        }

        pub async fn fetch(x: u32) -> u32 {
            x * 2 + 1
        }

        pub async fn pipeline(xs: Vec<u32>) -> u32 {
            let mut total = 0;
            for x in xs {
                if x % 2 == 0 {
                    total += fetch(x).await;
                } else {
                    total -= 1;
                }
            }
            total
        }

        #[cfg(test)]
        fn only_in_tests() -> u32 {
            LIMIT + 1
        }
    }
    |m| {
        let c = m::Counter { hits: 3, misses: 1 };
        let mut v = vec![1, 2, 3];
        show![
            c.hits(),
            c.ratio(),
            m::Counter::default().ratio(),
            m::geometry::area(4, 5),
            m::geometry::area(40, 5),
            m::geometry::deep::sq(4),
            m::statics(2),
            m::statics(9),
            m::swap_unsafe(&mut v),
            v,
            crate::block_on(m::pipeline(vec![2, 4, 5])),
        ]
    }
}

// Fields and elements of `const` items are values, not places: a comparison
// on them cannot take their address with `&raw const` (E0745).
group! {
    const_places {
        pub struct Limits {
            pub max: i32,
            pub steps: [u8; 3],
        }

        pub const LIMITS: Limits = Limits { max: 10, steps: [1, 2, 4] };
        pub const PRIMES: [u32; 5] = [2, 3, 5, 7, 11];

        pub fn within(n: i32) -> bool {
            n > -LIMITS.max && n < LIMITS.max
        }

        pub fn is_small_prime(n: u32) -> bool {
            let mut i = 0;
            while i < PRIMES.len() && PRIMES[i] <= n {
                if PRIMES[i] == n {
                    return true;
                }
                i += 1;
            }
            false
        }

        impl Limits {
            pub const ZERO: Limits = Limits { max: 0, steps: [0; 3] };

            pub fn step(&self, k: usize) -> u8 {
                if self.steps[k] != Self::ZERO.steps[k] && LIMITS.steps[k] >= self.steps[k] {
                    self.steps[k] * 2
                } else {
                    0
                }
            }
        }
    }
    |m| {
        let l = m::Limits { max: 3, steps: [0, 2, 9] };
        show![
            m::within(5),
            m::within(-12),
            m::is_small_prime(7),
            m::is_small_prime(9),
            [l.step(0), l.step(1), l.step(2)],
        ]
    }
}

// Destructors run while a mutant's panic or timeout unwinds: they must
// neither panic again nor hit the spent budget (either would abort).
group! {
    drops {
        pub struct Guard<'a> {
            pub log: &'a RefCell<Vec<i64>>,
            pub id: usize,
        }

        impl Drop for Guard<'_> {
            fn drop(&mut self) {
                let i = self.id - 1;
                self.log.borrow_mut()[i] += 1;
                let mut k = 0;
                while k < self.id {
                    k += 1;
                }
            }
        }

        pub fn pair(log: &RefCell<Vec<i64>>) -> usize {
            let a = Guard { log, id: 1 };
            let b = Guard { log, id: 2 };
            a.id + b.id
        }

        pub fn spin(log: &RefCell<Vec<i64>>, n: i64) -> i64 {
            let _g = Guard { log, id: 2 };
            let mut s = 0;
            while s < n {
                s += 1;
            }
            s
        }
    }
    |m| {
        let log = RefCell::new(vec![0, 0]);
        let p = m::pair(&log);
        let s = m::spin(&log, 5);
        show![p, s, log]
    }
}

// A panic cannot unwind out of an `extern "C" fn` (the process aborts), so
// its mutants' panics and timeouts could not be caught: it is left alone.
group! {
    abis {
        pub extern "C" fn count_up(n: u32) -> u32 {
            let mut i = 0;
            while i < n {
                i += 1;
            }
            i
        }

        pub extern "C-unwind" fn count_down(n: u32) -> u32 {
            let mut i = n;
            while i > 0 {
                i -= 1;
            }
            i + n
        }

        pub trait Fetch {
            async fn get(&self, k: u32) -> u32 {
                k * 2 + 1
            }
        }

        pub struct Plain;
        impl Fetch for Plain {}

        pub fn accumulate(v: &[i32], r: std::rc::Rc<(i32, i32)>) -> (i32, bool) {
            let mut total = 0;
            v.iter().for_each(|x| total += x);
            (total, r.0 < r.1)
        }
    }
    |m| {
        use m::Fetch;
        show![
            m::count_up(4),
            m::count_down(3),
            crate::block_on(m::Plain.get(5)),
            m::accumulate(&[1, 2, 3], std::rc::Rc::new((1, 2))),
        ]
    }
}

// An async fn that awaits itself nests polls without any other annotated
// call: a mutant that makes the recursion endless must time out, not
// overflow the stack.
group! {
    async_depth {
        pub async fn depth(n: i64) -> i64 {
            if n <= 0 { 0 } else { Box::pin(depth(n - 1)).await + 1 }
        }

        pub async fn count(v: &[u8]) -> usize {
            match v {
                [] => 0,
                [first, rest @ ..] => usize::from(*first > 2) + Box::pin(count(rest)).await,
            }
        }
    }
    |m| {
        show![
            crate::block_on(m::depth(6)),
            crate::block_on(m::count(&[1, 5, 3, 0])),
        ]
    }
}

// Removing `drop(tx)`, `drop(guard)` or a `notify` would block the thread
// for good (a receiver waiting for the channel to close, a `Mutex` locked
// again), which no budget stops: those calls are not removed.
group! {
    sync {
        use std::sync::{Arc, Condvar, Mutex, mpsc};

        pub fn squares(n: u64) -> u64 {
            let (tx, rx) = mpsc::channel();
            let mut handles = Vec::new();
            for i in 0..n {
                let tx = tx.clone();
                handles.push(std::thread::spawn(move || {
                    tx.send(i * i).unwrap();
                }));
            }
            drop(tx);
            let total = rx.iter().sum();
            for h in handles {
                h.join().unwrap();
            }
            total
        }

        pub fn relock(m: &Mutex<Vec<u8>>) -> usize {
            let mut g = m.lock().unwrap();
            g.push(1);
            std::mem::drop(g);
            m.lock().unwrap().len() + 1
        }

        pub fn handshake(n: u32) -> u32 {
            let pair = Arc::new((Mutex::new(0u32), Condvar::new()));
            let other = Arc::clone(&pair);
            let h = std::thread::spawn(move || {
                let (lock, cvar) = &*other;
                let mut v = lock.lock().unwrap();
                while *v == 0 {
                    v = cvar.wait(v).unwrap();
                }
                *v * 2
            });
            let (lock, cvar) = &*pair;
            *lock.lock().unwrap() = n + 1;
            cvar.notify_one();
            h.join().unwrap()
        }
    }
    |m| {
        show![m::squares(5), m::relock(&Default::default()), m::handshake(4)]
    }
}

// Data structures with `Option<Box<..>>` links, graphs, iterators.
group! {
    structures {
        use std::cmp::Reverse;
        use std::collections::{BTreeMap, BinaryHeap, HashMap, HashSet, VecDeque};

        #[derive(Debug, Default)]
        pub struct Bst {
            root: Option<Box<Node>>,
            len: usize,
        }

        #[derive(Debug)]
        struct Node {
            key: i32,
            left: Option<Box<Node>>,
            right: Option<Box<Node>>,
        }

        impl Bst {
            pub fn insert(&mut self, key: i32) -> bool {
                let mut cur = &mut self.root;
                while let Some(node) = cur {
                    if key == node.key {
                        return false;
                    }
                    cur = if key < node.key { &mut node.left } else { &mut node.right };
                }
                *cur = Some(Box::new(Node { key, left: None, right: None }));
                self.len += 1;
                true
            }

            pub fn contains(&self, key: i32) -> bool {
                let mut cur = self.root.as_ref();
                while let Some(n) = cur {
                    match key.cmp(&n.key) {
                        std::cmp::Ordering::Less => cur = n.left.as_ref(),
                        std::cmp::Ordering::Greater => cur = n.right.as_ref(),
                        std::cmp::Ordering::Equal => return true,
                    }
                }
                false
            }

            pub fn in_order(&self) -> Vec<i32> {
                fn walk(n: &Option<Box<Node>>, out: &mut Vec<i32>) {
                    if let Some(n) = n {
                        walk(&n.left, out);
                        out.push(n.key);
                        walk(&n.right, out);
                    }
                }
                let mut out = Vec::with_capacity(self.len);
                walk(&self.root, &mut out);
                out
            }

            pub fn height(&self) -> usize {
                fn h(n: &Option<Box<Node>>) -> usize {
                    match n {
                        None => 0,
                        Some(n) => 1 + h(&n.left).max(h(&n.right)),
                    }
                }
                h(&self.root)
            }
        }

        pub fn bfs(adj: &[Vec<usize>], start: usize) -> Vec<Option<u32>> {
            let mut dist = vec![None; adj.len()];
            let mut q = VecDeque::new();
            dist[start] = Some(0);
            q.push_back(start);
            while let Some(u) = q.pop_front() {
                let d = dist[u].unwrap();
                for &v in &adj[u] {
                    if dist[v].is_none() {
                        dist[v] = Some(d + 1);
                        q.push_back(v);
                    }
                }
            }
            dist
        }

        pub fn dijkstra(edges: &[(usize, usize, u64)], n: usize, src: usize) -> Vec<u64> {
            let mut adj: HashMap<usize, Vec<(usize, u64)>> = HashMap::new();
            for &(a, b, w) in edges {
                adj.entry(a).or_default().push((b, w));
                adj.entry(b).or_default().push((a, w));
            }
            let mut dist = vec![u64::MAX; n];
            let mut heap = BinaryHeap::new();
            dist[src] = 0;
            heap.push(Reverse((0u64, src)));
            while let Some(Reverse((d, u))) = heap.pop() {
                if d > dist[u] {
                    continue;
                }
                for &(v, w) in adj.get(&u).map(|v| v.as_slice()).unwrap_or(&[]) {
                    let nd = d + w;
                    if nd < dist[v] {
                        dist[v] = nd;
                        heap.push(Reverse((nd, v)));
                    }
                }
            }
            dist
        }

        pub fn word_freq(text: &str) -> Vec<(String, usize)> {
            let mut m: BTreeMap<String, usize> = BTreeMap::new();
            for w in text.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()) {
                *m.entry(w.to_lowercase()).or_insert(0) += 1;
            }
            let mut v: Vec<_> = m.into_iter().collect();
            v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
            v.truncate(3);
            v
        }

        pub fn has_cycle(n: usize, edges: &[(usize, usize)]) -> bool {
            let mut parent: Vec<usize> = (0..n).collect();
            fn find(p: &mut Vec<usize>, mut x: usize) -> usize {
                while p[x] != x {
                    p[x] = p[p[x]];
                    x = p[x];
                }
                x
            }
            for &(a, b) in edges {
                let (ra, rb) = (find(&mut parent, a), find(&mut parent, b));
                if ra == rb {
                    return true;
                }
                parent[ra] = rb;
            }
            false
        }

        pub struct Fib {
            a: u64,
            b: u64,
        }

        impl Iterator for Fib {
            type Item = u64;
            fn next(&mut self) -> Option<u64> {
                let r = self.a;
                self.a = self.b;
                self.b = self.b.checked_add(r)?;
                Some(r)
            }
        }

        pub fn fib() -> Fib {
            Fib { a: 0, b: 1 }
        }

        pub fn uniq(v: &[i32]) -> Vec<i32> {
            let mut seen = HashSet::new();
            v.iter().copied().filter(|x| seen.insert(*x)).collect()
        }
    }
    |m| {
        let mut t = m::Bst::default();
        let ins: Vec<bool> = [5, 3, 8, 1, 4, 5, 9].iter().map(|&k| t.insert(k)).collect();
        show![
            ins,
            t.contains(4),
            t.contains(7),
            t.in_order(),
            t.height(),
            m::bfs(&[vec![1, 2], vec![3], vec![3], vec![], vec![0]], 0),
            m::dijkstra(&[(0, 1, 4), (0, 2, 1), (2, 1, 2), (1, 3, 5)], 5, 0),
            m::word_freq("the cat and The dog, the END and"),
            m::has_cycle(4, &[(0, 1), (1, 2), (2, 3)]),
            m::has_cycle(3, &[(0, 1), (1, 2), (2, 0)]),
            m::fib().take(10).collect::<Vec<_>>(),
            m::fib().skip(90).count(),
            m::uniq(&[3, 1, 3, 2, 1]),
        ]
    }
}

// State machines, simulations, generic code with `where` clauses and
// associated types.
group! {
    machines {
        use std::collections::HashMap;
        use std::fmt::Debug;
        use std::ops::{Add, Mul};

        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum State {
            Idle,
            Running { ticks: u32 },
            Done(bool),
        }

        #[derive(Debug, Clone, Copy)]
        pub enum Event {
            Start,
            Tick,
            Stop,
        }

        impl State {
            pub fn next(self, e: Event) -> State {
                use State::*;
                match (self, e) {
                    (Idle, Event::Start) => Running { ticks: 0 },
                    (Running { ticks }, Event::Tick) if ticks >= 3 => Done(true),
                    (Running { ticks }, Event::Tick) => Running { ticks: ticks + 1 },
                    (Running { .. }, Event::Stop) => Done(false),
                    (s @ Done(_), _) => s,
                    (s, _) => s,
                }
            }
        }

        pub fn run(events: &[Event]) -> (State, HashMap<State, usize>) {
            let mut seen = HashMap::new();
            let end = events.iter().fold(State::Idle, |s, &e| {
                *seen.entry(s).or_insert(0) += 1;
                s.next(e)
            });
            (end, seen)
        }

        #[derive(Debug, Clone, PartialEq)]
        pub struct Account {
            pub id: u32,
            pub balance: i64,
            pub history: Vec<i64>,
        }

        #[derive(Debug, PartialEq)]
        pub enum TxError {
            Insufficient { needed: i64, available: i64 },
            Same,
            Unknown(u32),
        }

        pub struct Bank {
            accounts: Vec<Account>,
        }

        impl Bank {
            pub fn new(n: u32) -> Self {
                Bank { accounts: (0..n).map(|id| Account { id, balance: 100, history: vec![] }).collect() }
            }

            fn index(&self, id: u32) -> Result<usize, TxError> {
                self.accounts.iter().position(|a| a.id == id).ok_or(TxError::Unknown(id))
            }

            pub fn transfer(&mut self, from: u32, to: u32, amount: i64) -> Result<i64, TxError> {
                if from == to {
                    return Err(TxError::Same);
                }
                let (i, j) = (self.index(from)?, self.index(to)?);
                let available = self.accounts[i].balance;
                if available < amount {
                    return Err(TxError::Insufficient { needed: amount - available, available });
                }
                self.accounts[i].balance -= amount;
                self.accounts[i].history.push(-amount);
                self.accounts[j].balance += amount;
                self.accounts[j].history.push(amount);
                Ok(self.accounts[i].balance)
            }

            pub fn total(&self) -> i64 {
                self.accounts.iter().map(|a| a.balance).sum()
            }
        }

        pub trait Shape {
            type Unit: Copy + Add<Output = Self::Unit> + Mul<Output = Self::Unit> + Debug;
            const SIDES: usize;
            fn sides(&self) -> Vec<Self::Unit>;
            fn perimeter(&self) -> Self::Unit {
                let s = self.sides();
                let mut acc = s[0];
                for &x in &s[1..] {
                    acc = acc + x;
                }
                acc
            }
        }

        pub struct Rect<T> {
            pub w: T,
            pub h: T,
        }

        impl<T> Shape for Rect<T>
        where
            T: Copy + Add<Output = T> + Mul<Output = T> + Debug,
        {
            type Unit = T;
            const SIDES: usize = 4;
            fn sides(&self) -> Vec<T> {
                vec![self.w, self.h, self.w, self.h]
            }
        }

        pub fn area<T>(r: &Rect<T>) -> T
        where
            T: Copy + Mul<Output = T>,
        {
            r.w * r.h
        }

        pub fn describe<S: Shape>(s: &S) -> String
        where
            S::Unit: PartialOrd + Default,
        {
            let p = s.perimeter();
            format!("{} sides, perimeter {:?}, positive {}", S::SIDES, p, p > S::Unit::default())
        }

        pub fn dot<T, const N: usize>(a: [T; N], b: [T; N]) -> T
        where
            T: Copy + Default + Add<Output = T> + Mul<Output = T>,
        {
            let mut s = T::default();
            for i in 0..N {
                s = s + a[i] * b[i];
            }
            s
        }
    }
    |m| {
        use m::Shape;
        let mut bank = m::Bank::new(3);
        let txs = vec![
            bank.transfer(0, 1, 30),
            bank.transfer(1, 2, 200),
            bank.transfer(2, 2, 1),
            bank.transfer(0, 9, 1),
            bank.transfer(1, 0, 130),
        ];
        let (end, seen) = m::run(&[m::Event::Start, m::Event::Tick, m::Event::Tick, m::Event::Tick, m::Event::Tick, m::Event::Tick]);
        let mut seen: Vec<_> = seen.into_iter().map(|(k, v)| format!("{k:?}={v}")).collect();
        seen.sort();
        show![
            txs,
            bank.total(),
            end,
            seen,
            m::run(&[m::Event::Start, m::Event::Stop]).0,
            m::Rect { w: 2, h: 3 }.perimeter(),
            m::area(&m::Rect { w: 1.5, h: 2.0 }),
            m::describe(&m::Rect { w: 2u8, h: 5 }),
            m::dot([1, 2, 3], [4, 5, 6]),
            m::dot([0.5f32; 2], [2.0; 2]),
        ]
    }
}

// Parsing text line by line, numbers and units, `impl FromStr`.
group! {
    parsing {
        use std::str::FromStr;

        #[derive(Debug, PartialEq, Clone, Copy)]
        pub enum Unit {
            Ms,
            S,
            Min,
        }

        #[derive(Debug, PartialEq, Clone, Copy)]
        pub struct Duration {
            pub value: u64,
            pub unit: Unit,
        }

        impl FromStr for Duration {
            type Err = String;
            fn from_str(s: &str) -> Result<Self, Self::Err> {
                let s = s.trim();
                let split = s.find(|c: char| !c.is_ascii_digit()).ok_or_else(|| format!("no unit in {s:?}"))?;
                let (num, unit) = s.split_at(split);
                let value = num.parse::<u64>().map_err(|e| e.to_string())?;
                let unit = match unit {
                    "ms" => Unit::Ms,
                    "s" => Unit::S,
                    "min" | "m" => Unit::Min,
                    other => return Err(format!("unknown unit {other}")),
                };
                Ok(Duration { value, unit })
            }
        }

        impl Duration {
            pub fn millis(&self) -> u64 {
                self.value
                    * match self.unit {
                        Unit::Ms => 1,
                        Unit::S => 1000,
                        Unit::Min => 60_000,
                    }
            }
        }

        pub fn total(spec: &str) -> Result<u64, String> {
            let mut sum = 0u64;
            for part in spec.split(',') {
                let d: Duration = part.parse()?;
                sum = sum.checked_add(d.millis()).ok_or("overflow")?;
            }
            Ok(sum)
        }

        pub fn csv(text: &str) -> Vec<Vec<i32>> {
            text.lines()
                .map(str::trim)
                .filter(|l| !l.is_empty() && !l.starts_with('#'))
                .map(|l| l.split(',').filter_map(|f| f.trim().parse().ok()).collect())
                .collect()
        }

        pub fn column_sums(rows: &[Vec<i32>]) -> Vec<i32> {
            let width = rows.iter().map(Vec::len).max().unwrap_or(0);
            let mut sums = vec![0; width];
            for row in rows {
                for (i, v) in row.iter().enumerate() {
                    sums[i] += v;
                }
            }
            sums
        }

        pub fn ipv4(s: &str) -> Option<u32> {
            let parts: Vec<&str> = s.split('.').collect();
            if parts.len() != 4 {
                return None;
            }
            let mut out = 0u32;
            for p in parts {
                if p.is_empty() || p.len() > 3 || (p.len() > 1 && p.starts_with('0')) {
                    return None;
                }
                let b: u8 = p.parse().ok()?;
                out = out << 8 | b as u32;
            }
            Some(out)
        }

        pub fn roman(mut n: u32) -> String {
            const TABLE: [(u32, &str); 13] = [
                (1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
                (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"),
            ];
            let mut s = String::new();
            for &(v, r) in TABLE.iter() {
                while n >= v {
                    s += r;
                    n -= v;
                }
            }
            s
        }

        pub fn from_roman(s: &str) -> Option<u32> {
            let val = |c| match c {
                'I' => Some(1),
                'V' => Some(5),
                'X' => Some(10),
                'L' => Some(50),
                'C' => Some(100),
                'D' => Some(500),
                'M' => Some(1000),
                _ => None,
            };
            let digits: Option<Vec<u32>> = s.chars().map(val).collect();
            let digits = digits?;
            let mut total = 0;
            for (i, &d) in digits.iter().enumerate() {
                if digits.get(i + 1).is_some_and(|&next| next > d) {
                    total -= d as i64;
                } else {
                    total += d as i64;
                }
            }
            u32::try_from(total).ok()
        }
    }
    |m| {
        show![
            "250ms".parse::<m::Duration>(),
            " 3min".parse::<m::Duration>(),
            "12".parse::<m::Duration>(),
            "5h".parse::<m::Duration>(),
            m::total("1s,250ms,2m"),
            m::total("1s,x"),
            m::csv("# header\n1, 2, 3\n\n4,x,6\n7"),
            m::column_sums(&m::csv("1,2,3\n4,5\n6")),
            m::ipv4("192.168.0.1"),
            m::ipv4("1.2.3"),
            m::ipv4("01.2.3.4"),
            m::ipv4("256.1.1.1"),
            m::roman(1994),
            m::from_roman("MCMXCIV"),
            m::from_roman("MMXQ"),
        ]
    }
}

// Recursion a few hundred to a thousand calls deep, as plain code does it
// on a test thread's 2 MiB stack. Instrumented frames in an unoptimized
// build must stay within a small multiple of the plain ones, or the
// annotated code overflows the stack (and aborts) with no mutant on.
group! {
    deep {
        pub fn sum_slice(v: &[i64]) -> i64 {
            match v {
                [] => 0,
                [head, tail @ ..] => head + sum_slice(tail),
            }
        }

        pub fn score(v: &[u8], i: usize) -> i64 {
            if i >= v.len() {
                return 0;
            }
            let mut acc = 0i64;
            if v[i] > 10 && v[i] < 200 {
                acc += v[i] as i64 * 2;
            } else if v[i] == 0 {
                acc -= 1;
            }
            for k in 0..(v[i] % 3) {
                acc += k as i64;
            }
            let bonus = if v[i] % 2 == 0 || v[i] > 100 { 3 } else { -1 };
            acc + bonus + score(v, i + 1)
        }

        pub fn nested(s: &[u8], pos: &mut usize) -> Option<u32> {
            match s.get(*pos)? {
                b'(' => {
                    *pos += 1;
                    let inner = nested(s, pos)?;
                    if s.get(*pos) != Some(&b')') {
                        return None;
                    }
                    *pos += 1;
                    Some(inner + 1)
                }
                _ => Some(0),
            }
        }
    }
    |m| {
        let v: Vec<i64> = (0..1000).collect();
        let b: Vec<u8> = (0..400u32).map(|i| (i * 37 % 251) as u8).collect();
        let parens = format!("{}x{}", "(".repeat(300), ")".repeat(300));
        show![
            m::sum_slice(&v),
            m::score(&b, 0),
            m::nested(parens.as_bytes(), &mut 0),
            m::nested(b"((x)", &mut 0),
        ]
    }
}

// A panic message that formats an annotated `Display` impl: the panic hook
// runs it while the thread is panicking, and a mutant that panics there
// would abort the process ("panicked while processing panic").
group! {
    panic_messages {
        pub struct Money(pub i64);

        impl fmt::Display for Money {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                let s = format!("{:03}", self.0);
                let cut = s.len() - 2;
                write!(f, "{}.{}", &s[..cut], &s[cut..])
            }
        }

        pub fn withdraw(balance: i64, amount: i64) -> i64 {
            if amount > balance {
                panic!("insufficient funds: {}", Money(balance));
            }
            balance - amount
        }
    }
    |m| {
        let caught = std::panic::catch_unwind(|| m::withdraw(5, 10)).is_err();
        show![m::withdraw(10, 4), caught, m::Money(1234).to_string()]
    }
}

// A loop inside an `unsafe` block gets no mutants, but a mutant elsewhere
// (`n * 2` -> `n / 2` below) can make it endless: it must still count
// against the step budget and end in a timeout.
group! {
    unsafe_loops {
        pub fn target(n: u32) -> u32 {
            n * 2
        }

        pub fn walk(n: u32) -> u32 {
            let end = target(n);
            let mut i = 0u32;
            let p = &mut i as *mut u32;
            unsafe {
                while *p != end {
                    *p = (*p).wrapping_add(2);
                }
                *p
            }
        }
    }
    |m| {
        show![m::walk(3), m::walk(0)]
    }
}

// `process::exit` behind a condition: a mutant that forces the condition
// (or changes what it tests) must fail its run, not end the test process.
group! {
    exits {
        pub fn checked(n: i64) -> i64 {
            if n > 1_000_000 {
                eprintln!("too large: {n}");
                std::process::exit(3);
            }
            n * 2
        }

        pub fn parse_or_exit(s: &str) -> i64 {
            let v: i64 = match s.parse() {
                Ok(v) => v,
                Err(_) => std::process::exit(4),
            };
            let w = if v >= 0 { v } else { std::process::exit(5) };
            w + 1
        }
    }
    |m| {
        show![m::checked(21), m::parse_or_exit("41")]
    }
}
