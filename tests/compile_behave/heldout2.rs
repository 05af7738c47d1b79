//! A second round of realistic code of kinds the other groups do not cover:
//! generic traits with blanket impls, custom iterators, smart pointers,
//! collections APIs, integer methods and casts, assertions, places and
//! borrows, closures, formatting, associated consts, a small VM, and the
//! attribute on single generic items. These groups deny warnings.

use std::borrow::Cow;
use std::cell::RefCell;
use std::cmp::Ordering;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt;
use std::rc::{Rc, Weak};

pub fn groups() -> Vec<crate::Group> {
    vec![
        generic_traits::GROUP,
        iterators::GROUP,
        smart::GROUP,
        collections::GROUP,
        integers::GROUP,
        assertions::GROUP,
        places::GROUP,
        closures2::GROUP,
        formatting::GROUP,
        consts::GROUP,
        vm::GROUP,
        expr_tree::GROUP,
        param_drops::GROUP,
        syntax2::GROUP,
        signals::GROUP,
        odd_items::GROUP,
        cfg_statements::GROUP,
        scoped_threads::GROUP,
        custom_ops::GROUP,
        waits::GROUP,
        futures::GROUP,
        crate::Group {
            meta_module: direct::MODULE,
            meta: direct::drive,
            plain: direct::expected,
        },
    ]
}

strict_group! {
    generic_traits {
        pub trait Shape {
            fn area(&self) -> f64;
            fn name(&self) -> String {
                String::from("shape")
            }
            fn scaled(&self, k: f64) -> Self
            where
                Self: Sized;
            fn bigger<S: Shape>(&self, other: &S) -> bool
            where
                Self: Sized,
            {
                self.area() > other.area()
            }
        }

        #[derive(Debug, Clone, PartialEq)]
        pub struct Sq(pub f64);
        #[derive(Debug, Clone, PartialEq)]
        pub struct Rect(pub f64, pub f64);

        impl Shape for Sq {
            fn area(&self) -> f64 {
                self.0 * self.0
            }
            fn name(&self) -> String {
                format!("sq{}", self.0)
            }
            fn scaled(&self, k: f64) -> Self {
                Sq(self.0 * k)
            }
        }

        impl Shape for Rect {
            fn area(&self) -> f64 {
                self.0 * self.1
            }
            fn scaled(&self, k: f64) -> Self {
                Rect(self.0 * k, self.1 * k)
            }
        }

        impl<T: Shape> Shape for Vec<T> {
            fn area(&self) -> f64 {
                self.iter().map(|s| s.area()).sum()
            }
            fn name(&self) -> String {
                let names: Vec<String> = self.iter().map(Shape::name).collect();
                names.join("+")
            }
            fn scaled(&self, k: f64) -> Self {
                self.iter().map(|s| s.scaled(k)).collect()
            }
        }

        pub trait Combine<Rhs = Self> {
            type Out;
            fn combine(&self, rhs: &Rhs) -> Self::Out;
        }

        impl Combine for Sq {
            type Out = Rect;
            fn combine(&self, rhs: &Sq) -> Rect {
                Rect(self.0 + rhs.0, self.0.max(rhs.0))
            }
        }

        impl Combine<f64> for Sq {
            type Out = Sq;
            fn combine(&self, rhs: &f64) -> Sq {
                Sq(self.0 - rhs)
            }
        }

        pub trait Describe {
            fn describe(&self) -> String;
        }

        impl<T: fmt::Debug + ?Sized> Describe for T {
            fn describe(&self) -> String {
                let s = format!("{self:?}");
                if s.len() > 12 { format!("{}...", &s[..12]) } else { s }
            }
        }

        pub trait Parse: Sized {
            fn parse_one(s: &str) -> Option<Self>;
            fn parse_all(s: &str) -> Option<Vec<Self>> {
                let mut out = Vec::new();
                for part in s.split(',') {
                    out.push(Self::parse_one(part.trim())?);
                }
                if out.is_empty() { None } else { Some(out) }
            }
        }

        impl Parse for Sq {
            fn parse_one(s: &str) -> Option<Self> {
                let v: f64 = s.strip_prefix("sq")?.parse().ok()?;
                if v < 0.0 { None } else { Some(Sq(v)) }
            }
        }

        pub fn boxed(kind: u8, x: f64) -> Box<dyn Shape> {
            match kind {
                0 => Box::new(Sq(x)),
                _ => Box::new(Rect(x, x + 1.0)),
            }
        }

        pub fn total(shapes: &[Box<dyn Shape>]) -> f64 {
            let mut t = 0.0;
            for s in shapes {
                t += s.area();
            }
            t
        }

        pub struct Wrapper<T = i32> {
            pub items: Vec<T>,
        }

        impl<T> Wrapper<T>
        where
            T: Copy + PartialOrd + Default,
        {
            pub fn max_or_default(&self) -> T {
                let mut best: Option<T> = None;
                for &x in &self.items {
                    best = match best {
                        Some(b) if b >= x => Some(b),
                        _ => Some(x),
                    };
                }
                best.unwrap_or_default()
            }
        }

        pub fn largest<T: PartialOrd + Copy>(xs: &[T]) -> Option<T> {
            let mut it = xs.iter().copied();
            let mut best = it.next()?;
            for x in it {
                if x > best {
                    best = x;
                }
            }
            Some(best)
        }

        pub fn to_f64_sum<T: Into<f64> + Copy>(xs: &[T]) -> f64 {
            xs.iter().map(|&x| x.into()).fold(0.0, |a, b| a + b * 2.0)
        }
    }
    |m| {
        use m::{Combine, Describe, Parse, Shape};
        let v = vec![m::Sq(2.0), m::Sq(3.0)];
        let shapes = vec![m::boxed(0, 2.0), m::boxed(1, 3.0)];
        let w: m::Wrapper = m::Wrapper { items: vec![3, 9, 2] };
        let wf = m::Wrapper { items: Vec::<f32>::new() };
        vec![
            format!("{:?}", v.area()),
            v.name(),
            format!("{:?}", v.scaled(0.5)),
            format!("{:?}", m::Rect(1.0, 2.0).name()),
            format!("{:?}", m::Sq(2.0).bigger(&m::Rect(1.0, 3.0))),
            format!("{:?}", m::Sq(2.0).combine(&m::Sq(5.0))),
            format!("{:?}", m::Sq(2.0).combine(&0.5)),
            vec![1, 2, 3].describe(),
            "a long string value".describe(),
            format!("{:?}", m::Sq::parse_all("sq1, sq2.5,sq4")),
            format!("{:?}", m::Sq::parse_all("sq1,x")),
            format!("{:?}", m::total(&shapes)),
            format!("{:?}", shapes.iter().map(|s| s.name()).collect::<Vec<_>>()),
            format!("{:?}", (w.max_or_default(), wf.max_or_default())),
            format!("{:?}", (m::largest(&[3, 8, 1]), m::largest::<u8>(&[]), m::largest(&['a', 'z', 'q']))),
            format!("{:?}", m::to_f64_sum(&[1u8, 2, 3])),
            format!("{:?}", m::to_f64_sum(&[1.5f32, 2.5])),
        ]
    }
}

strict_group! {
    iterators {
        pub struct Fib {
            a: u64,
            b: u64,
        }

        impl Fib {
            pub fn new() -> Self {
                Fib { a: 0, b: 1 }
            }
        }

        impl Default for Fib {
            fn default() -> Self {
                Self::new()
            }
        }

        impl Iterator for Fib {
            type Item = u64;
            fn next(&mut self) -> Option<u64> {
                let next = self.a.checked_add(self.b)?;
                let out = self.a;
                self.a = self.b;
                self.b = next;
                Some(out)
            }
        }

        /// Pairs of numbers read from a string, stopping at the first bad one.
        pub struct Pairs<'a> {
            words: std::str::SplitWhitespace<'a>,
        }

        impl<'a> Pairs<'a> {
            pub fn new(s: &'a str) -> Self {
                Pairs { words: s.split_whitespace() }
            }
        }

        impl Iterator for Pairs<'_> {
            type Item = (i32, i32);
            fn next(&mut self) -> Option<Self::Item> {
                let a = self.words.next()?.parse().ok()?;
                let b = self.words.next()?.parse().ok()?;
                Some((a, b))
            }
        }

        pub struct Grid {
            pub w: usize,
            pub cells: Vec<u8>,
        }

        pub struct Rows<'a> {
            grid: &'a Grid,
            row: usize,
        }

        impl<'a> Iterator for Rows<'a> {
            type Item = &'a [u8];
            fn next(&mut self) -> Option<&'a [u8]> {
                let start = self.row * self.grid.w;
                if start >= self.grid.cells.len() {
                    return None;
                }
                self.row += 1;
                let end = (start + self.grid.w).min(self.grid.cells.len());
                Some(&self.grid.cells[start..end])
            }
        }

        impl<'a> IntoIterator for &'a Grid {
            type Item = &'a [u8];
            type IntoIter = Rows<'a>;
            fn into_iter(self) -> Rows<'a> {
                Rows { grid: self, row: 0 }
            }
        }

        pub struct Countdown(pub u32);

        impl Iterator for Countdown {
            type Item = u32;
            fn next(&mut self) -> Option<u32> {
                if self.0 == 0 {
                    None
                } else {
                    self.0 -= 1;
                    Some(self.0)
                }
            }
            fn size_hint(&self) -> (usize, Option<usize>) {
                (self.0 as usize, Some(self.0 as usize))
            }
        }

        impl ExactSizeIterator for Countdown {}

        pub fn row_sums(g: &Grid) -> Vec<u32> {
            let mut out = Vec::new();
            for row in g {
                out.push(row.iter().map(|&c| c as u32).sum());
            }
            out
        }

        pub fn runs(v: &[i32]) -> Vec<(i32, usize)> {
            let mut out: Vec<(i32, usize)> = Vec::new();
            let mut it = v.iter().peekable();
            while let Some(&x) = it.next() {
                let mut n = 1;
                while it.peek() == Some(&&x) {
                    it.next();
                    n += 1;
                }
                out.push((x, n));
            }
            out
        }

        pub fn zipped(a: &[i32], b: &[i32]) -> Vec<i32> {
            a.iter()
                .zip(b.iter().rev())
                .enumerate()
                .filter(|(i, _)| i % 2 == 0)
                .map(|(_, (x, y))| x * y)
                .collect()
        }

        pub fn windows_up(v: &[i32]) -> usize {
            v.windows(2).filter(|w| w[1] > w[0]).count()
        }

        pub fn chunked(v: &[u8]) -> Vec<u32> {
            v.chunks(3)
                .map(|c| c.iter().fold(0u32, |acc, &d| acc * 10 + d as u32))
                .collect()
        }

        pub fn scan_max(v: &[i32]) -> Vec<i32> {
            v.iter()
                .scan(i32::MIN, |m, &x| {
                    *m = (*m).max(x);
                    Some(*m)
                })
                .take_while(|&m| m < 100)
                .collect()
        }
    }
    |m| {
        let g = m::Grid { w: 3, cells: vec![1, 2, 3, 4, 5, 6, 7] };
        let mut cd = m::Countdown(4);
        let len = cd.len();
        cd.next();
        vec![
            format!("{:?}", m::Fib::new().take(12).collect::<Vec<_>>()),
            format!("{:?}", m::Fib::default().count()),
            format!("{:?}", m::Pairs::new("1 2 3 4 5 x 6").collect::<Vec<_>>()),
            format!("{:?}", m::Pairs::new("1 2 3 x 5").collect::<Vec<_>>()),
            format!("{:?}", (&g).into_iter().collect::<Vec<_>>()),
            format!("{:?}", m::row_sums(&g)),
            format!("{:?}", (len, cd.len(), cd.collect::<Vec<_>>())),
            format!("{:?}", m::runs(&[1, 1, 2, 3, 3, 3, 1])),
            format!("{:?}", m::zipped(&[1, 2, 3, 4, 5], &[5, 6, 7, 8, 9])),
            format!("{:?}", m::windows_up(&[1, 3, 2, 5, 6, 0])),
            format!("{:?}", m::chunked(&[1, 2, 3, 4, 5, 6, 7])),
            format!("{:?}", m::scan_max(&[3, 1, 7, 4, 200, 9])),
        ]
    }
}

strict_group! {
    smart {
        use std::ops::{Deref, DerefMut};

        #[derive(Debug, Default)]
        pub struct Stack {
            inner: Vec<i32>,
            pushes: usize,
        }

        impl Stack {
            pub fn pushes(&self) -> usize {
                self.pushes
            }
        }

        impl Deref for Stack {
            type Target = Vec<i32>;
            fn deref(&self) -> &Vec<i32> {
                &self.inner
            }
        }

        impl DerefMut for Stack {
            fn deref_mut(&mut self) -> &mut Vec<i32> {
                self.pushes += 1;
                &mut self.inner
            }
        }

        pub struct Name(pub String);

        impl AsRef<str> for Name {
            fn as_ref(&self) -> &str {
                self.0.trim()
            }
        }

        impl std::borrow::Borrow<str> for Name {
            fn borrow(&self) -> &str {
                &self.0
            }
        }

        pub fn shout<S: AsRef<str>>(s: S) -> String {
            let s = s.as_ref();
            if s.len() < 3 { s.to_uppercase() } else { format!("{}!", s) }
        }

        pub fn escape(s: &str) -> Cow<'_, str> {
            if !s.contains(['<', '>', '&']) {
                return Cow::Borrowed(s);
            }
            let mut out = String::with_capacity(s.len() + 8);
            for c in s.chars() {
                match c {
                    '<' => out.push_str("&lt;"),
                    '>' => out.push_str("&gt;"),
                    '&' => out.push_str("&amp;"),
                    c => out.push(c),
                }
            }
            Cow::Owned(out)
        }

        pub fn normalize<'a>(s: &'a str, lower: bool) -> Cow<'a, str> {
            let mut c = Cow::Borrowed(s);
            if lower && s.chars().any(|c| c.is_uppercase()) {
                c = Cow::Owned(s.to_lowercase());
            }
            if c.ends_with(' ') {
                c.to_mut().truncate(s.trim_end().len());
            }
            c
        }

        #[derive(Debug)]
        pub struct Node {
            pub val: i32,
            pub children: RefCell<Vec<Rc<Node>>>,
            pub parent: RefCell<Weak<Node>>,
        }

        pub fn node(val: i32) -> Rc<Node> {
            Rc::new(Node { val, children: RefCell::new(Vec::new()), parent: RefCell::new(Weak::new()) })
        }

        pub fn adopt(parent: &Rc<Node>, child: Rc<Node>) {
            *child.parent.borrow_mut() = Rc::downgrade(parent);
            parent.children.borrow_mut().push(child);
        }

        pub fn path_to_root(n: &Rc<Node>) -> Vec<i32> {
            let mut out = vec![n.val];
            let mut cur = n.parent.borrow().upgrade();
            while let Some(p) = cur {
                out.push(p.val);
                cur = p.parent.borrow().upgrade();
            }
            out
        }

        pub fn subtree_sum(n: &Node) -> i64 {
            let mut s = n.val as i64;
            for c in n.children.borrow().iter() {
                s += subtree_sum(c);
            }
            s
        }

        pub type Shared = Rc<RefCell<Vec<i32>>>;

        pub fn share_and_push(a: &Shared, n: i32) -> (usize, i32) {
            let b = Rc::clone(a);
            for i in 0..n {
                b.borrow_mut().push(i * i);
            }
            let total = a.borrow().iter().sum();
            (Rc::strong_count(a), total)
        }

        pub fn lookup(names: &HashSet<Name>, key: &str) -> bool {
            names.contains(key)
        }

        impl PartialEq for Name {
            fn eq(&self, other: &Name) -> bool {
                self.0 == other.0
            }
        }
        impl Eq for Name {}
        impl std::hash::Hash for Name {
            fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
                self.0.hash(h)
            }
        }
    }
    |m| {
        let mut st = m::Stack::default();
        st.push(3);
        st.push(4);
        st.extend([5, 6]);
        let first = st.first().copied();
        let root = m::node(1);
        let mid = m::node(2);
        let leaf = m::node(3);
        m::adopt(&root, mid.clone());
        m::adopt(&mid, leaf.clone());
        m::adopt(&root, m::node(10));
        let shared: m::Shared = Rc::new(RefCell::new(vec![1]));
        let names: HashSet<m::Name> = ["ab", "cd"].iter().map(|s| m::Name(s.to_string())).collect();
        vec![
            format!("{:?}", (st.len(), first, st.pushes(), st.iter().sum::<i32>())),
            m::shout("ab"),
            m::shout(m::Name("  long ".into())),
            m::shout(String::from("xyz")),
            format!("{:?}", m::escape("a<b>&c")),
            format!("{:?}", matches!(m::escape("plain"), Cow::Borrowed(_))),
            format!("{:?}", m::normalize("Hello World  ", true)),
            format!("{:?}", m::normalize("abc", true)),
            format!("{:?}", m::path_to_root(&leaf)),
            format!("{:?}", m::subtree_sum(&root)),
            format!("{:?}", m::share_and_push(&shared, 4)),
            format!("{:?}", (m::lookup(&names, "ab"), m::lookup(&names, "zz"))),
        ]
    }
}

strict_group! {
    collections {
        #[derive(Debug, Default, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct Pos {
            pub x: i16,
            pub y: i16,
        }

        pub fn word_counts(text: &str) -> Vec<(String, usize)> {
            let mut counts: HashMap<String, usize> = HashMap::new();
            for w in text.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()) {
                *counts.entry(w.to_lowercase()).or_insert(0) += 1;
            }
            let mut v: Vec<_> = counts.into_iter().collect();
            v.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
            v
        }

        pub fn group_by_len(words: &[&str]) -> BTreeMap<usize, Vec<String>> {
            let mut m: BTreeMap<usize, Vec<String>> = BTreeMap::new();
            for w in words {
                m.entry(w.len()).or_insert_with(Vec::new).push(w.to_string());
            }
            m
        }

        pub fn tally(moves: &[(i16, i16)]) -> Vec<(Pos, u32)> {
            let mut seen: HashMap<Pos, u32> = HashMap::new();
            let mut p = Pos::default();
            for &(dx, dy) in moves {
                p.x += dx;
                p.y += dy;
                seen.entry(p).and_modify(|c| *c += 1).or_insert(1);
            }
            let mut v: Vec<_> = seen.into_iter().collect();
            v.sort();
            v
        }

        pub fn in_range(m: &BTreeMap<i32, &'static str>, lo: i32, hi: i32) -> Vec<&'static str> {
            m.range(lo..hi).map(|(_, v)| *v).collect()
        }

        pub fn floor_key(m: &BTreeMap<i32, &'static str>, k: i32) -> Option<i32> {
            m.range(..=k).next_back().map(|(k, _)| *k)
        }

        pub fn slice_ops(mut v: Vec<(u8, char)>) -> (Vec<(u8, char)>, Result<usize, usize>, Vec<(u8, char)>) {
            v.sort_by_key(|&(n, _)| n);
            let found = v.binary_search_by(|probe| probe.0.cmp(&4));
            let mut d = v.clone();
            d.dedup_by_key(|p| p.0 / 2);
            d.retain(|&(_, c)| c != 'z');
            (v, found, d)
        }

        pub fn top3(mut v: Vec<i64>) -> Vec<i64> {
            v.sort_unstable_by(|a, b| b.cmp(a));
            v.truncate(3);
            v
        }

        pub fn set_algebra(a: &[u8], b: &[u8]) -> (Vec<u8>, Vec<u8>) {
            let sa: HashSet<u8> = a.iter().copied().collect();
            let sb: HashSet<u8> = b.iter().copied().collect();
            let mut both: Vec<u8> = sa.intersection(&sb).copied().collect();
            let mut only: Vec<u8> = sa.difference(&sb).copied().collect();
            both.sort_unstable();
            only.sort_unstable();
            (both, only)
        }

        pub fn closest(v: &[i32], target: i32) -> Option<i32> {
            v.iter().copied().min_by_key(|&x| (x.abs_diff(target), x))
        }

        pub fn cache_fib(n: u64, memo: &mut HashMap<u64, u64>) -> u64 {
            if n < 2 {
                return n;
            }
            if let Some(&v) = memo.get(&n) {
                return v;
            }
            let v = cache_fib(n - 1, memo) + cache_fib(n - 2, memo);
            memo.insert(n, v);
            v
        }
    }
    |m| {
        let bt: BTreeMap<i32, &'static str> = [(1, "a"), (4, "d"), (7, "g"), (9, "i")].into_iter().collect();
        let mut memo = HashMap::new();
        vec![
            format!("{:?}", m::word_counts("The cat; the dog, THE end. cat")),
            format!("{:?}", m::group_by_len(&["a", "bb", "cc", "d", "eee"])),
            format!("{:?}", m::tally(&[(1, 0), (0, 1), (-1, 0), (0, -1), (1, 0), (0, 1)])),
            format!("{:?}", m::in_range(&bt, 2, 9)),
            format!("{:?}", (m::floor_key(&bt, 5), m::floor_key(&bt, 0), m::floor_key(&bt, 9))),
            format!("{:?}", m::slice_ops(vec![(5, 'a'), (1, 'b'), (4, 'z'), (2, 'c'), (3, 'd')])),
            format!("{:?}", m::top3(vec![4, -1, 9, 9, 2, 7])),
            format!("{:?}", m::set_algebra(&[1, 2, 3, 4, 4], &[3, 4, 5])),
            format!("{:?}", (m::closest(&[1, 8, 12, 5], 10), m::closest(&[], 3))),
            format!("{:?}", m::cache_fib(40, &mut memo)),
        ]
    }
}

strict_group! {
    integers {
        pub const fn kib(n: usize) -> usize {
            n * 1024
        }

        pub fn digits(s: &str, radix: u32) -> Vec<u32> {
            s.chars().filter_map(|c| c.to_digit(radix)).collect()
        }

        pub fn to_base(mut n: u64, radix: u32) -> String {
            if n == 0 {
                return "0".to_string();
            }
            let mut out = Vec::new();
            while n > 0 {
                let d = (n % radix as u64) as u32;
                out.push(char::from_digit(d, radix).unwrap_or('?'));
                n /= radix as u64;
            }
            out.iter().rev().collect()
        }

        pub fn parse_radix(s: &str) -> Result<i64, std::num::ParseIntError> {
            if let Some(h) = s.strip_prefix("0x") {
                i64::from_str_radix(h, 16)
            } else if let Some(b) = s.strip_prefix("0b") {
                i64::from_str_radix(b, 2)
            } else {
                s.parse::<i64>()
            }
        }

        pub fn rot13(s: &[u8]) -> String {
            s.iter()
                .map(|&b| match b {
                    b'a'..=b'z' => ((b - b'a' + 13) % 26 + b'a') as char,
                    b'A'..=b'Z' => ((b - b'A' + 13) % 26 + b'A') as char,
                    _ => b as char,
                })
                .collect()
        }

        pub fn arith(a: i32, b: i32) -> (Option<i32>, i32, (i32, bool), i32, i32, u32, Option<i32>) {
            (
                a.checked_mul(b),
                a.saturating_sub(b),
                a.overflowing_add(b),
                a.wrapping_mul(b),
                a.rem_euclid(b),
                a.abs_diff(b),
                a.checked_div(b),
            )
        }

        pub fn pow_mod(mut base: u64, mut exp: u32, m: u64) -> u64 {
            let mut r = 1u64;
            base %= m;
            while exp > 0 {
                if exp & 1 == 1 {
                    r = r * base % m;
                }
                base = base * base % m;
                exp >>= 1;
            }
            r
        }

        pub fn wide(a: u64, b: u64) -> (u128, i128, u32) {
            let p = a as u128 * b as u128;
            let d = a as i128 - b as i128;
            (p, d, (p >> 64) as u32)
        }

        pub fn shifts(x: u32, n: u32) -> (u32, u32, u64, i32) {
            let k = n % 32;
            (x << k, x >> k, 1u64 << (n % 64), (-(x as i32)) >> (k / 2))
        }

        pub fn casts(x: f64, y: i32, z: u8) -> (i32, u8, u32, i8, f32, usize, i64) {
            (x as i32, x as u8, y as u32, z as i8, y as f32 / 3.0, z as usize * 2, -x as i64)
        }

        pub fn limits(n: usize) -> (bool, usize, i64, u16) {
            (n == usize::MAX, usize::MAX - n, i64::MIN / 2 + 1_000_000, u16::MAX.wrapping_add(n as u16))
        }

        pub fn literals() -> (u8, i64, f32, u32, usize) {
            (0xFFu8 - 0b1010_1010, 1_000_000i64 * 3, 2.5e-1f32 * 4.0, 0o17 + 1_u32, kib(2) + 3usize)
        }

        pub fn pows(b: i64, e: u32) -> (Option<i64>, i64, f64) {
            (b.checked_pow(e), b.saturating_pow(e), (b as f64).powi(e as i32))
        }

        pub fn isqrt(n: u64) -> u64 {
            if n < 2 {
                return n;
            }
            let (mut lo, mut hi) = (1u64, n.min(1 << 32));
            while lo < hi {
                let mid = lo + (hi - lo + 1) / 2;
                if mid.checked_mul(mid).is_some_and(|sq| sq <= n) {
                    lo = mid;
                } else {
                    hi = mid - 1;
                }
            }
            lo
        }

        pub fn gcd_lcm(a: u64, b: u64) -> (u64, u64) {
            let (mut x, mut y) = (a, b);
            while y != 0 {
                (x, y) = (y, x % y);
            }
            let l = if x == 0 { 0 } else { a / x * b };
            (x, l)
        }
    }
    |m| {
        vec![
            format!("{:?}", m::digits("1a9z", 16)),
            format!("{:?}", (m::to_base(255, 16), m::to_base(10, 2), m::to_base(0, 7), m::to_base(12345, 36))),
            format!("{:?}", (m::parse_radix("0xff"), m::parse_radix("0b101"), m::parse_radix("-42"), m::parse_radix("0xzz").is_err())),
            m::rot13(b"Hello, World!"),
            format!("{:?}", m::arith(7, -3)),
            format!("{:?}", m::arith(i32::MAX, 2)),
            format!("{:?}", m::arith(-7, 4)),
            format!("{:?}", m::pow_mod(3, 200, 1_000_000_007)),
            format!("{:?}", m::wide(u64::MAX, 3)),
            format!("{:?}", m::shifts(0xF0F0, 37)),
            format!("{:?}", m::casts(-3.7, -1, 200)),
            format!("{:?}", m::casts(300.9, 7, 5)),
            format!("{:?}", m::limits(5)),
            format!("{:?}", m::literals()),
            format!("{:?}", (m::pows(3, 5), m::pows(10, 30), m::pows(-2, 3))),
            format!("{:?}", (m::isqrt(0), m::isqrt(99), m::isqrt(1 << 40))),
            format!("{:?}", (m::gcd_lcm(12, 18), m::gcd_lcm(0, 5))),
        ]
    }
}

strict_group! {
    assertions {
        #[derive(Debug, Clone, Copy, PartialEq)]
        pub enum Op {
            Add,
            Sub,
            Nop,
        }

        pub fn apply(op: Op, a: u32, b: u32) -> u32 {
            debug_assert!(a < 1000, "a too big: {a}");
            match op {
                Op::Add => a + b,
                Op::Sub if a >= b => a - b,
                Op::Sub => 0,
                Op::Nop => a,
            }
        }

        pub fn checked_index(v: &[i32], i: usize) -> i32 {
            assert!(i < v.len(), "index {} out of {}", i, v.len());
            assert_eq!(v.len() % 2, 0);
            v[i]
        }

        pub fn sign(x: i64) -> &'static str {
            match x.cmp(&0) {
                Ordering::Less => "neg",
                Ordering::Equal => "zero",
                Ordering::Greater => "pos",
            }
        }

        pub fn kind(n: u32) -> &'static str {
            match n {
                0 => "zero",
                x @ 1..=9 if x % 2 == 1 => "odd digit",
                1..=9 => "even digit",
                10 | 20 | 30 => "round",
                _ if matches!(n % 7, 0 | 3) => "sevenish",
                _ => "other",
            }
        }

        pub fn classify(c: char) -> u8 {
            if matches!(c, 'a'..='z' | 'A'..='Z') && !matches!(c, 'x' | 'X') {
                1
            } else if c.is_ascii_digit() {
                2
            } else {
                0
            }
        }

        pub fn tuple_order(a: (i32, &str), b: (i32, &str)) -> (bool, bool, Option<Ordering>) {
            (a < b, a >= b, a.partial_cmp(&b))
        }

        pub fn decide(state: u8) -> u8 {
            match state {
                0 => 1,
                1 => 2,
                2 => 0,
                _ => unreachable!("state {state}"),
            }
        }

        pub fn planned(flag: bool) -> i32 {
            if flag {
                return 7;
            }
            if false {
                todo!("never");
            }
            -1
        }

        pub fn min_max(v: &[f64]) -> Option<(f64, f64)> {
            let mut it = v.iter();
            let first = *it.next()?;
            let mut mm = (first, first);
            for &x in it {
                match x.partial_cmp(&mm.0) {
                    Some(Ordering::Less) => mm.0 = x,
                    None => return None,
                    _ => {}
                }
                if x > mm.1 {
                    mm.1 = x;
                }
            }
            Some(mm)
        }
    }
    |m| {
        let states: Vec<u8> = (0..3).map(m::decide).collect();
        vec![
            format!("{:?}", (m::apply(m::Op::Add, 3, 4), m::apply(m::Op::Sub, 3, 4), m::apply(m::Op::Sub, 9, 4), m::apply(m::Op::Nop, 1, 2))),
            format!("{:?}", m::checked_index(&[1, 2, 3, 4], 2)),
            format!("{:?}", [-5, 0, 5].map(m::sign)),
            format!("{:?}", [0, 3, 4, 20, 14, 24, 11].map(m::kind)),
            format!("{:?}", ['a', 'x', '7', '-'].map(m::classify)),
            format!("{:?}", m::tuple_order((1, "b"), (1, "a"))),
            format!("{:?}", m::tuple_order((0, "z"), (1, "a"))),
            format!("{:?}", states),
            format!("{:?}", (m::planned(true), m::planned(false))),
            format!("{:?}", (m::min_max(&[3.0, -1.5, 8.0, 2.0]), m::min_max(&[]), m::min_max(&[1.0, f64::NAN]))),
        ]
    }
}

strict_group! {
    places {
        #[derive(Debug, Default)]
        pub struct Slots {
            pub items: Vec<Option<String>>,
            pub current: Option<String>,
        }

        impl Slots {
            pub fn get_mut(&mut self, i: usize) -> Option<&mut String> {
                self.items.get_mut(i)?.as_mut()
            }

            pub fn append(&mut self, i: usize, s: &str) -> bool {
                match self.get_mut(i) {
                    Some(slot) => {
                        slot.push_str(s);
                        true
                    }
                    None => false,
                }
            }

            pub fn rotate(&mut self, s: String) -> Option<String> {
                let old = self.current.replace(s);
                if let Some(o) = &old {
                    self.items.push(Some(o.clone()));
                }
                old
            }

            pub fn take_first(&mut self) -> Option<String> {
                self.items.iter_mut().find_map(|s| s.take())
            }

            pub fn longest(&self) -> &str {
                let mut best: &str = "";
                for s in self.items.iter().flatten() {
                    if s.len() > best.len() {
                        best = s;
                    }
                }
                best
            }

            pub fn pick(&self, which: u8) -> &str {
                match which {
                    0 => self.current.as_deref().unwrap_or("none"),
                    1 => self.longest(),
                    _ => "other",
                }
            }
        }

        pub struct Cursor<'a> {
            pub buf: &'a mut Vec<u8>,
            pub pos: usize,
        }

        impl<'a> Cursor<'a> {
            pub fn write(&mut self, bytes: &[u8]) -> usize {
                for &b in bytes {
                    if self.pos < self.buf.len() {
                        self.buf[self.pos] = b;
                    } else {
                        self.buf.push(b);
                    }
                    self.pos += 1;
                }
                self.pos
            }

            pub fn rest(&mut self) -> &mut [u8] {
                let p = self.pos.min(self.buf.len());
                &mut self.buf[p..]
            }
        }

        pub fn swap_ends(v: &mut [i32]) {
            if v.len() >= 2 {
                let (a, b) = v.split_at_mut(1);
                std::mem::swap(&mut a[0], &mut b[b.len() - 1]);
            }
        }

        pub fn bump_all(v: &mut Vec<(String, u32)>) {
            for &mut (ref name, ref mut n) in v.iter_mut() {
                if name.starts_with('a') {
                    *n += 10;
                }
            }
            for pair in v.iter_mut() {
                let (ref mut s, n) = *pair;
                if n > 5 {
                    s.push('!');
                }
            }
        }

        pub fn inc_opt(o: Option<&mut i32>) -> i32 {
            match o {
                Some(x) => {
                    *x += 1;
                    *x
                }
                None => -1,
            }
        }

        pub fn map_opt(o: Option<&mut Vec<u8>>) -> usize {
            o.map(|v| {
                v.push(1);
                v.len()
            })
            .unwrap_or(0)
        }

        pub fn take_replace(v: &mut Vec<i32>) -> (Vec<i32>, i32) {
            let old = std::mem::take(v);
            v.push(old.len() as i32);
            let mut x = 5;
            let y = std::mem::replace(&mut x, 9) + x;
            (old, y)
        }

        pub fn first_neg(v: &mut [i32]) -> Option<&mut i32> {
            for x in v.iter_mut() {
                if *x < 0 {
                    return Some(x);
                }
            }
            None
        }
    }
    |m| {
        let mut s = m::Slots { items: vec![Some("ab".into()), None, Some("xyz".into())], current: None };
        let appended = (s.append(0, "c"), s.append(1, "d"), s.append(7, "e"));
        let r1 = s.rotate("one".into());
        let r2 = s.rotate("two".into());
        let picks = (s.pick(0).to_string(), s.pick(1).to_string(), s.pick(2).to_string());
        let first = s.take_first();
        let mut buf = vec![0u8; 3];
        let mut c = m::Cursor { buf: &mut buf, pos: 1 };
        let w = c.write(b"hello");
        c.pos = 2;
        c.rest()[0] = b'Z';
        let mut arr = [1, 2, 3, 4];
        m::swap_ends(&mut arr);
        let mut pairs = vec![("ab".to_string(), 1), ("b".to_string(), 7), ("a".to_string(), 0)];
        m::bump_all(&mut pairs);
        let mut n = 4;
        let mut v8 = vec![1u8];
        let mut tv = vec![3, 4];
        let tr = m::take_replace(&mut tv);
        let mut negs = [3, -2, -5];
        if let Some(x) = m::first_neg(&mut negs) {
            *x *= 10;
        }
        vec![
            format!("{:?}", appended),
            format!("{:?}", (r1, r2, picks, first)),
            format!("{:?}", s),
            format!("{:?}", (w, buf)),
            format!("{:?}", arr),
            format!("{:?}", pairs),
            format!("{:?}", (m::inc_opt(Some(&mut n)), m::inc_opt(None), n)),
            format!("{:?}", (m::map_opt(Some(&mut v8)), m::map_opt(None), v8)),
            format!("{:?}", (tr, tv)),
            format!("{:?}", negs),
        ]
    }
}

strict_group! {
    closures2 {
        pub fn count_with(v: &[i32]) -> (i32, i32) {
            let mut pos = 0;
            let mut neg = 0;
            for &x in v {
                let mut bump = |k: i32| {
                    if k > 0 {
                        pos += k;
                    } else {
                        neg -= k;
                    }
                };
                bump(x);
                bump(x / 2);
            }
            (pos, neg)
        }

        pub fn once<F: FnOnce() -> String>(f: F, extra: usize) -> String {
            let s = f();
            format!("{s}{}", "!".repeat(extra))
        }

        pub fn call_once(v: Vec<u8>) -> usize {
            consume(move || v.into_iter().map(usize::from).sum::<usize>() + 1)
        }

        pub fn consume(f: impl FnOnce() -> usize) -> usize {
            f() * 2
        }

        pub fn adder(a: i32) -> impl Fn(i32) -> Box<dyn Fn(i32) -> i32> {
            move |b| Box::new(move |c| a * 100 + b * 10 + c)
        }

        pub fn curry(a: i64) -> Box<dyn Fn(i64) -> Box<dyn Fn(i64) -> i64>> {
            Box::new(move |b| Box::new(move |c| a - b * c))
        }

        pub fn find_pair(v: &[i32], target: i32) -> Option<(usize, usize)> {
            let r = 'outer: {
                for i in 0..v.len() {
                    for j in i + 1..v.len() {
                        if v[i] + v[j] == target {
                            break 'outer Some((i, j));
                        }
                    }
                }
                None
            };
            r
        }

        pub fn first_square_over(limit: u32) -> u32 {
            let mut i = 0;
            let found = 'search: loop {
                let mut j = 0;
                loop {
                    if j * j > limit + i {
                        break 'search j * 100 + i;
                    }
                    if j > 50 {
                        break;
                    }
                    j += 1;
                }
                i += 1;
            };
            found
        }

        pub fn early(v: &[Option<i32>]) -> Vec<i32> {
            let doubled = |o: &Option<i32>| -> Option<i32> {
                let x = (*o)?;
                if x < 0 {
                    return None;
                }
                Some(x * 2)
            };
            let mut out = Vec::new();
            for o in v {
                match doubled(o) {
                    Some(d) => out.push(d),
                    None => continue,
                }
                if out.len() >= 3 {
                    return out;
                }
            }
            out
        }

        pub fn sum_parsed(items: &[&str]) -> Option<i32> {
            items.iter().map(|s| s.parse::<i32>().ok()).try_fold(0i32, |acc, x| acc.checked_add(x?))
        }

        pub fn sync_async(n: u32) -> u32 {
            let base = n * 2;
            let fut = async move { base + 1 };
            let fut2 = async {
                let mut t = 0;
                for i in 0..n {
                    t += i;
                }
                t
            };
            crate::block_on(fut) + crate::block_on(fut2)
        }

        pub fn make_counter() -> impl FnMut() -> u32 {
            let mut c = 0;
            move || {
                c += 1;
                c * c
            }
        }

        pub fn compose<A, B, C>(f: impl Fn(A) -> B, g: impl Fn(B) -> C) -> impl Fn(A) -> C {
            move |x| g(f(x))
        }
    }
    |m| {
        let mut counter = m::make_counter();
        let cs = (counter(), counter(), counter());
        let h = m::compose(|x: i32| x + 1, |y: i32| y * 3);
        vec![
            format!("{:?}", m::count_with(&[3, -4, 5, -1])),
            m::once(|| "hi".to_string(), 2),
            format!("{:?}", m::call_once(vec![1, 2, 3])),
            format!("{:?}", (m::adder(1)(2)(3), m::curry(10)(2)(3))),
            format!("{:?}", (m::find_pair(&[1, 4, 6, 3], 9), m::find_pair(&[1, 2], 9))),
            format!("{:?}", m::first_square_over(30)),
            format!("{:?}", (m::early(&[Some(1), None, Some(-2), Some(3), Some(4), Some(5)]), m::early(&[]))),
            format!("{:?}", (m::sum_parsed(&["1", "2", "3"]), m::sum_parsed(&["1", "x"]))),
            format!("{:?}", m::sync_async(5)),
            format!("{:?}", cs),
            format!("{:?}", h(4)),
        ]
    }
}

strict_group! {
    formatting {
        use std::error::Error;
        use std::fmt::Write as _;
        use std::io::Write as _;

        pub struct Point {
            pub x: f64,
            pub y: f64,
            pub label: Option<&'static str>,
        }

        impl fmt::Debug for Point {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                let mut d = f.debug_struct("Point");
                d.field("x", &self.x).field("y", &self.y);
                if let Some(l) = self.label {
                    d.field("label", &l);
                }
                d.finish()
            }
        }

        impl fmt::Display for Point {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                let prec = f.precision().unwrap_or(1);
                write!(f, "({:.*}, {:.*})", prec, self.x, prec, self.y)?;
                if f.alternate() {
                    write!(f, "#")?;
                }
                Ok(())
            }
        }

        pub struct Table(pub Vec<(String, u32)>);

        impl fmt::Display for Table {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                let w = self.0.iter().map(|(k, _)| k.len()).max().unwrap_or(0);
                for (i, (k, v)) in self.0.iter().enumerate() {
                    if i > 0 {
                        writeln!(f)?;
                    }
                    write!(f, "{k:<w$}|{v:>5}|{v:08b}|{:+}", *v as i32 - 3)?;
                }
                Ok(())
            }
        }

        pub fn report(values: &[f32]) -> String {
            let mut s = String::new();
            for (i, v) in values.iter().enumerate() {
                let _ = write!(s, "[{i:02}] {v:>8.3}");
                if i + 1 < values.len() {
                    s.push(';');
                }
            }
            writeln!(s).unwrap();
            s
        }

        pub fn to_bytes(lines: &[&str]) -> std::io::Result<Vec<u8>> {
            let mut out: Vec<u8> = Vec::new();
            for (n, l) in lines.iter().enumerate() {
                writeln!(out, "{:>3}: {}", n + 1, l)?;
            }
            out.write_all(b"--")?;
            out.flush()?;
            Ok(out)
        }

        #[derive(Debug)]
        pub struct BadInput(pub String);

        impl fmt::Display for BadInput {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "bad input: {}", self.0)
            }
        }

        impl Error for BadInput {}

        pub fn parse_kv(s: &str) -> Result<(String, f64), Box<dyn Error>> {
            let (k, v) = s.split_once('=').ok_or_else(|| BadInput(s.to_string()))?;
            let n: i32 = v.trim().parse()?;
            let f: f64 = format!("{n}.5").parse()?;
            if k.is_empty() {
                return Err("empty key".into());
            }
            Ok((k.trim().to_string(), f))
        }

        pub fn run_all(items: &[&str]) -> Result<(), Box<dyn Error>> {
            for it in items {
                parse_kv(it)?;
            }
            Ok(())
        }

        pub fn hexdump(b: &[u8]) -> String {
            b.iter().map(|x| format!("{x:02x}")).collect::<Vec<_>>().join(" ")
        }
    }
    |m| {
        let p = m::Point { x: 1.23456, y: -2.0, label: Some("a") };
        let q = m::Point { x: 0.5, y: 0.25, label: None };
        let t = m::Table(vec![("alpha".into(), 3), ("b".into(), 200)]);
        vec![
            format!("{:?} {:?}", p, q),
            format!("{} {:.3} {:#}", p, q, q),
            format!("{t}"),
            m::report(&[1.0, -22.125, 3.5]),
            format!("{:?}", m::to_bytes(&["a", "bc"]).map(String::from_utf8)),
            format!("{:?}", m::parse_kv("x = 4").map_err(|e| e.to_string())),
            format!("{:?}", m::parse_kv("x4").map_err(|e| e.to_string())),
            format!("{:?}", m::parse_kv("x=y").map_err(|e| e.to_string())),
            format!("{:?}", m::parse_kv("=3").map_err(|e| e.to_string())),
            format!("{:?}", m::run_all(&["a=1", "b=2"]).map_err(|e| e.to_string())),
            format!("{:?}", m::run_all(&["a=1", "b"]).map_err(|e| e.to_string())),
            m::hexdump(&[0, 15, 255, 16]),
        ]
    }
}

strict_group! {
    consts {
        pub trait Bounded {
            const MAX: u32;
            const NAME: &'static str = "bounded";
            fn value(&self) -> u32;
            fn clamp_value(&self) -> u32 {
                if self.value() > Self::MAX { Self::MAX } else { self.value() }
            }
            fn describe(&self) -> String {
                format!("{}<={}", Self::NAME, Self::MAX)
            }
        }

        pub struct Small(pub u32);
        pub struct Big(pub u32);

        impl Bounded for Small {
            const MAX: u32 = 10;
            fn value(&self) -> u32 {
                self.0 * 2
            }
        }

        impl Bounded for Big {
            const MAX: u32 = 1000;
            const NAME: &'static str = "big";
            fn value(&self) -> u32 {
                self.0 + 1
            }
        }

        pub struct Block;

        impl Block {
            pub const SIZE: usize = 4;

            pub fn zeros() -> [u8; Self::SIZE] {
                [0; Self::SIZE]
            }

            pub fn fill(v: u8) -> [u8; Self::SIZE] {
                let mut b = Self::zeros();
                for (i, x) in b.iter_mut().enumerate() {
                    *x = v.wrapping_add(i as u8);
                }
                b
            }
        }

        pub struct Buf<const N: usize> {
            pub data: [i32; N],
        }

        impl<const N: usize> Buf<N> {
            pub fn sum_first(&self, k: usize) -> i32 {
                let k = k.min(N);
                let mut s = 0;
                for i in 0..k {
                    s += self.data[i];
                }
                s
            }

            pub fn reversed(&self) -> [i32; N] {
                let mut out = self.data;
                out.reverse();
                out
            }

            pub const CAP: usize = N * 2;

            pub fn cap(&self) -> usize {
                Self::CAP - 1
            }
        }

        pub const fn square(x: u32) -> u32 {
            x * x
        }

        const TABLE: [u32; 4] = [square(1), square(2), square(3), square(4)];

        #[inline]
        pub fn lookup(i: usize) -> u32 {
            TABLE[i % TABLE.len()] + square(i as u32)
        }

        #[must_use]
        pub fn halve(x: i32) -> i32 {
            x / 2
        }

        #[track_caller]
        pub fn checked(x: i32) -> i32 {
            if x < 0 {
                panic!("negative: {x}");
            }
            x + 1
        }

        #[inline(always)]
        #[allow(clippy::needless_return)]
        pub fn needless(x: u8) -> u8 {
            return x.saturating_mul(3);
        }

        /// Adds with a doc comment on the function.
        pub fn documented(a: i32, b: i32) -> i32 {
            // A comment before a statement with an attribute.
            let s = a + b;
            #[allow(unused_parens)]
            let t = (s * 2);
            // A plain comment.
            #[allow(clippy::let_and_return)]
            let r = t - a;
            r
        }

        pub fn any_display(x: impl fmt::Display, n: usize) -> String {
            let s = x.to_string();
            if s.len() > n { s[..n].to_string() } else { s }
        }

        pub fn static_bound<T: fmt::Debug + 'static>(x: T) -> Box<dyn fmt::Debug> {
            Box::new(x)
        }

        pub fn shadow<T: Copy + Into<u64>>(x: T) -> u64 {
            fn inner<T: Into<u64>>(y: T) -> u64 {
                y.into() + 1
            }
            inner(x) * 2
        }
    }
    |m| {
        use m::Bounded;
        let b = m::Buf { data: [1, 2, 3, 4, 5] };
        let h = m::halve(9);
        vec![
            format!("{:?}", (m::Small(3).clamp_value(), m::Small(30).clamp_value(), m::Big(5).clamp_value())),
            format!("{:?}", (m::Small(0).describe(), m::Big(0).describe())),
            format!("{:?}", (m::Block::zeros(), m::Block::fill(254))),
            format!("{:?}", (b.sum_first(3), b.sum_first(9), b.reversed(), b.cap())),
            format!("{:?}", (m::lookup(1), m::lookup(6))),
            format!("{:?}", (h, m::checked(4), m::needless(100), m::documented(3, 4))),
            format!("{:?}", (m::any_display(12345, 3), m::any_display("ab", 3))),
            format!("{:?}", m::static_bound(vec![1, 2])),
            format!("{:?}", m::shadow(7u8)),
            format!("{:?}", std::panic::catch_unwind(|| m::checked(-1)).is_err()),
        ]
    }
}

strict_group! {
    vm {
        #[derive(Debug, Clone, Copy, PartialEq)]
        pub enum Ins {
            Push(i64),
            Add,
            Sub,
            Mul,
            Dup,
            Swap,
            Jz(usize),
            Jmp(usize),
            Dec,
            Halt,
        }

        #[derive(Debug, PartialEq)]
        pub enum Fault {
            Underflow(usize),
            BadJump(usize),
            Steps,
        }

        pub fn run(prog: &[Ins], max_steps: usize) -> Result<Vec<i64>, Fault> {
            let mut stack: Vec<i64> = Vec::new();
            let mut pc = 0usize;
            let mut steps = 0;
            loop {
                steps += 1;
                if steps > max_steps {
                    return Err(Fault::Steps);
                }
                let Some(&ins) = prog.get(pc) else {
                    return Err(Fault::BadJump(pc));
                };
                pc += 1;
                match ins {
                    Ins::Push(v) => stack.push(v),
                    Ins::Add | Ins::Sub | Ins::Mul => {
                        let b = stack.pop().ok_or(Fault::Underflow(pc))?;
                        let a = stack.pop().ok_or(Fault::Underflow(pc))?;
                        stack.push(match ins {
                            Ins::Add => a.wrapping_add(b),
                            Ins::Sub => a.wrapping_sub(b),
                            _ => a.wrapping_mul(b),
                        });
                    }
                    Ins::Dup => {
                        let top = *stack.last().ok_or(Fault::Underflow(pc))?;
                        stack.push(top);
                    }
                    Ins::Swap => {
                        let n = stack.len();
                        if n < 2 {
                            return Err(Fault::Underflow(pc));
                        }
                        stack.swap(n - 1, n - 2);
                    }
                    Ins::Dec => {
                        let top = stack.last_mut().ok_or(Fault::Underflow(pc))?;
                        *top -= 1;
                    }
                    Ins::Jz(t) => {
                        if stack.pop().ok_or(Fault::Underflow(pc))? == 0 {
                            pc = t;
                        }
                    }
                    Ins::Jmp(t) => pc = t,
                    Ins::Halt => return Ok(stack),
                }
            }
        }

        /// Factorial of n by a loop in the VM: acc n | ...
        pub fn factorial_prog(n: i64) -> Vec<Ins> {
            use Ins::*;
            vec![
                Push(1),
                Push(n),
                // 2: loop head: acc n
                Dup,
                Jz(10),
                Dup,
                Swap,
                // acc n n -> swap -> acc n n; multiply acc by n
                Jmp(7),
                Swap,
                Mul,
                Jmp(11),
                Halt,
                // 11: unreachable padding
                Halt,
            ]
        }

        pub fn countdown_prog(n: i64) -> Vec<Ins> {
            use Ins::*;
            vec![Push(0), Push(n), Dup, Jz(9), Dec, Swap, Push(1), Add, Jmp(10), Halt, Swap, Jmp(2)]
        }

        pub fn rpn(src: &str) -> Result<i64, String> {
            let mut st: Vec<i64> = Vec::with_capacity(8);
            for tok in src.split_whitespace() {
                let v = match tok {
                    "+" | "-" | "*" | "/" => {
                        let (b, a) = (st.pop(), st.pop());
                        let (Some(a), Some(b)) = (a, b) else {
                            return Err(format!("underflow at {tok}"));
                        };
                        match tok {
                            "+" => a + b,
                            "-" => a - b,
                            "*" => a * b,
                            _ => a.checked_div(b).ok_or("div by zero")?,
                        }
                    }
                    n => n.parse().map_err(|e| format!("{n}: {e}"))?,
                };
                st.push(v);
            }
            match st.as_slice() {
                [v] => Ok(*v),
                other => Err(format!("left {}", other.len())),
            }
        }
    }
    |m| {
        use m::Ins::*;
        vec![
            format!("{:?}", m::run(&[Push(2), Push(3), Add, Push(4), Mul, Halt], 100)),
            format!("{:?}", m::run(&[Push(1), Add], 100)),
            format!("{:?}", m::run(&[Jmp(0)], 50)),
            format!("{:?}", m::run(&[Push(1), Jmp(9)], 50)),
            format!("{:?}", m::run(&m::factorial_prog(5), 1000)),
            format!("{:?}", m::run(&m::countdown_prog(6), 1000)),
            format!("{:?}", m::run(&[Push(5), Dup, Dec, Swap, Sub, Halt], 10)),
            format!("{:?}", (m::rpn("3 4 + 2 *"), m::rpn("1 +"), m::rpn("4 0 /"), m::rpn("1 2"), m::rpn("x"))),
        ]
    }
}

strict_group! {
    expr_tree {
        #[derive(Debug, Clone, PartialEq)]
        pub enum Expr {
            Num(i64),
            Var(char),
            Neg(Box<Expr>),
            Add(Box<Expr>, Box<Expr>),
            Mul(Box<Expr>, Box<Expr>),
            Let(char, Box<Expr>, Box<Expr>),
        }

        use Expr::*;

        impl Expr {
            pub fn eval(&self, env: &mut Vec<(char, i64)>) -> Option<i64> {
                Some(match *self {
                    Num(n) => n,
                    Var(c) => env.iter().rev().find(|(k, _)| *k == c)?.1,
                    Neg(ref e) => -e.eval(env)?,
                    Add(ref a, ref b) => a.eval(env)?.checked_add(b.eval(env)?)?,
                    Mul(ref a, ref b) => a.eval(env)?.checked_mul(b.eval(env)?)?,
                    Let(c, ref v, ref body) => {
                        let x = v.eval(env)?;
                        env.push((c, x));
                        let r = body.eval(env);
                        env.pop();
                        r?
                    }
                })
            }

            pub fn simplify(self) -> Expr {
                match self {
                    Add(a, b) => match (a.simplify(), b.simplify()) {
                        (Num(0), e) | (e, Num(0)) => e,
                        (Num(x), Num(y)) => Num(x + y),
                        (x, y) => Add(Box::new(x), Box::new(y)),
                    },
                    Mul(a, b) => match (a.simplify(), b.simplify()) {
                        (Num(0), _) | (_, Num(0)) => Num(0),
                        (Num(1), e) | (e, Num(1)) => e,
                        (x, y) => Mul(Box::new(x), Box::new(y)),
                    },
                    Neg(e) => match e.simplify() {
                        Num(n) => Num(-n),
                        Neg(inner) => *inner,
                        other => Neg(Box::new(other)),
                    },
                    Let(c, v, b) => Let(c, Box::new(v.simplify()), Box::new(b.simplify())),
                    e @ (Num(_) | Var(_)) => e,
                }
            }

            pub fn depth(&self) -> usize {
                match self {
                    Num(_) | Var(_) => 1,
                    Neg(e) => 1 + e.depth(),
                    Add(a, b) | Mul(a, b) | Let(_, a, b) => 1 + a.depth().max(b.depth()),
                }
            }

            pub fn vars(&self, out: &mut Vec<char>) {
                match self {
                    Var(c) if !out.contains(c) => out.push(*c),
                    Var(_) | Num(_) => {}
                    Neg(e) => e.vars(out),
                    Add(a, b) | Mul(a, b) => {
                        a.vars(out);
                        b.vars(out);
                    }
                    Let(_, v, b) => {
                        v.vars(out);
                        b.vars(out);
                    }
                }
            }
        }

        impl fmt::Display for Expr {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                match self {
                    Num(n) if *n < 0 => write!(f, "({n})"),
                    Num(n) => write!(f, "{n}"),
                    Var(c) => write!(f, "{c}"),
                    Neg(e) => write!(f, "-{e}"),
                    Add(a, b) => write!(f, "({a} + {b})"),
                    Mul(a, b) => write!(f, "{a} * {b}"),
                    Let(c, v, b) => write!(f, "let {c} = {v} in {b}"),
                }
            }
        }

        pub fn b(e: Expr) -> Box<Expr> {
            Box::new(e)
        }
    }
    |m| {
        use m::Expr::*;
        let e = Let('x', m::b(Add(m::b(Num(2)), m::b(Num(3)))), m::b(Mul(m::b(Var('x')), m::b(Add(m::b(Var('x')), m::b(Neg(m::b(Num(1)))))))));
        let s = Add(m::b(Mul(m::b(Num(1)), m::b(Var('y')))), m::b(Add(m::b(Num(0)), m::b(Neg(m::b(Neg(m::b(Num(4)))))))));
        let mut vars = Vec::new();
        s.vars(&mut vars);
        vec![
            format!("{:?}", e.eval(&mut Vec::new())),
            format!("{:?}", Var('q').eval(&mut vec![('q', 3)])),
            format!("{:?}", Mul(m::b(Num(i64::MAX)), m::b(Num(2))).eval(&mut Vec::new())),
            e.to_string(),
            s.to_string(),
            s.clone().simplify().to_string(),
            format!("{:?}", (e.depth(), s.depth(), vars)),
        ]
    }
}

strict_group! {
    param_drops {
        thread_local! {
            static LOG: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
        }

        pub struct Loud(pub String);

        impl Drop for Loud {
            fn drop(&mut self) {
                LOG.with(|l| l.borrow_mut().push(self.0.clone()));
            }
        }

        pub fn loud(s: &str) -> Loud {
            Loud(s.to_string())
        }

        pub fn take_log() -> Vec<String> {
            LOG.with(|l| std::mem::take(&mut *l.borrow_mut()))
        }

        pub struct Pair {
            pub x: Loud,
            pub y: Loud,
        }

        /// Parameters drop after the body's locals, last declared first,
        /// whichever of them the body uses and in whatever order.
        pub fn three(a: Loud, b: Loud, c: Loud) -> usize {
            let _local = loud("local");
            a.0.len() + b.0.len() + c.0.len() * 2
        }

        pub fn unused(a: Loud, _b: Loud) -> usize {
            a.0.len()
        }

        pub fn patterns((a, b): (Loud, Loud), Pair { x, y }: Pair, c: Loud) -> usize {
            a.0.len() + x.0.len() + c.0.len() + b.0.len() + y.0.len()
        }

        /// Only a field of `p` is used: the whole of `p` still drops last.
        pub fn field_only(p: Pair, q: Loud) -> usize {
            q.0.len() + p.x.0.len()
        }

        impl Pair {
            pub fn consume(self, other: Loud) -> usize {
                other.0.len() + self.y.0.len()
            }

            pub fn into_parts(self, n: usize) -> (Loud, Loud) {
                if n > 1 { (self.y, self.x) } else { (self.x, self.y) }
            }
        }
    }
    |m| {
        let mut out = Vec::new();
        let n = m::three(m::loud("a"), m::loud("b"), m::loud("c"));
        out.push(format!("{n} {:?}", m::take_log()));
        let n = m::unused(m::loud("a"), m::loud("b"));
        out.push(format!("{n} {:?}", m::take_log()));
        let n = m::patterns(
            (m::loud("a"), m::loud("b")),
            m::Pair { x: m::loud("x"), y: m::loud("y") },
            m::loud("c"),
        );
        out.push(format!("{n} {:?}", m::take_log()));
        let n = m::field_only(m::Pair { x: m::loud("x"), y: m::loud("y") }, m::loud("q"));
        out.push(format!("{n} {:?}", m::take_log()));
        let n = m::Pair { x: m::loud("x"), y: m::loud("y") }.consume(m::loud("o"));
        out.push(format!("{n} {:?}", m::take_log()));
        let (p, q) = m::Pair { x: m::loud("x"), y: m::loud("y") }.into_parts(2);
        out.push(format!("{} {} {:?}", p.0, q.0, m::take_log()));
        drop((p, q));
        out.push(format!("{:?}", m::take_log()));
        out
    }
}

strict_group! {
    syntax2 {
        pub fn fail(msg: &str) -> ! {
            panic!("failed: {msg}")
        }

        pub fn forever(n: u8) -> ! {
            let mut i = n;
            loop {
                i = i.wrapping_add(1);
                if i == n.wrapping_sub(1) {
                    panic!("wrapped {i}");
                }
            }
        }

        pub fn last_bump(v: &mut Vec<i32>) -> i32 {
            let n = v.len();
            v[n - 1] += 1;
            v[n / 2] *= v[n - 1];
            v[0] -= v[v.len() - 1] - 2;
            v.iter().sum()
        }

        pub fn grid(g: &mut [[u8; 3]; 3]) -> u32 {
            for r in 0..3 {
                for c in 1..3 {
                    g[r][c] += g[r][c - 1];
                }
            }
            g.iter().flatten().map(|&x| x as u32).sum()
        }

        pub fn chains(a: Option<i32>, b: Option<i32>) -> i32 {
            if let Some(x) = a
                && x > 3
                && let Some(y) = b
            {
                x * y
            } else if let Some(x) = a
                && x < 0
            {
                -x
            } else {
                0
            }
        }

        pub fn while_chain(v: &[i32]) -> i32 {
            let mut it = v.iter();
            let mut s = 0;
            while let Some(&x) = it.next()
                && x >= 0
            {
                s += x;
            }
            s
        }

        pub fn async_closure(n: i32) -> i32 {
            let f = async |x: i32| x * 2 + n;
            crate::block_on(f(3)) + crate::block_on(async { n - 1 })
        }

        pub fn bitnot(x: u8, b: bool) -> (u8, bool, i32) {
            (!x, !b, -(x as i32))
        }

        pub fn nested_move(a: i32) -> i32 {
            let f = move |x| move |y| a + x * y;
            let g = f(2);
            g(5)
        }

        pub fn struct_lit(x: i32) -> (i32, i32) {
            #[derive(Clone, Copy)]
            struct S {
                a: i32,
                b: i32,
            }
            let base = S { a: x * 2, b: x - 1 };
            let s = S { a: base.a + 1, ..base };
            (s.a, s.b)
        }
    }
    |m| {
        let mut v = vec![1, 2, 3, 4];
        let mut g = [[1, 2, 3], [4, 5, 6], [7, 8, 9]];
        vec![
            format!("{:?}", std::panic::catch_unwind(|| m::fail("x")).is_err()),
            format!("{:?}", std::panic::catch_unwind(|| m::forever(5)).is_err()),
            format!("{:?}", (m::last_bump(&mut v), v)),
            format!("{:?}", (m::grid(&mut g), g)),
            format!("{:?}", (m::chains(Some(5), Some(2)), m::chains(Some(-4), None), m::chains(Some(2), Some(1)))),
            format!("{:?}", m::while_chain(&[1, 2, -3, 4])),
            format!("{:?}", m::async_closure(4)),
            format!("{:?}", m::bitnot(0b1010, false)),
            format!("{:?}", m::nested_move(3)),
            format!("{:?}", m::struct_lit(5)),
        ]
    }
}

/// The attribute on single items: generic functions, impl blocks and
/// traits with generics, a blanket impl.
#[deny(warnings)]
pub mod direct {
    pub const MODULE: &str = module_path!();

    use std::fmt::Debug;
    use std::ops::{Add, Mul};

    #[mu2::mutate]
    pub fn dot<T>(a: &[T], b: &[T]) -> T
    where
        T: Copy + Default + Add<Output = T> + Mul<Output = T>,
    {
        let mut acc = T::default();
        for i in 0..a.len().min(b.len()) {
            acc = acc + a[i] * b[i];
        }
        acc
    }

    #[mu2::mutate]
    pub fn count_where<T, F: Fn(&T) -> bool>(xs: &[T], pred: F) -> usize {
        let mut n = 0;
        for x in xs {
            if pred(x) {
                n += 1;
            }
        }
        n
    }

    pub trait Metric<Rhs = Self> {
        fn dist(&self, other: &Rhs) -> u64;
        fn near(&self, other: &Rhs, eps: u64) -> bool {
            self.dist(other) <= eps
        }
    }

    #[mu2::mutate]
    pub trait Scale<T: Copy> {
        const FACTOR: T;
        fn raw(&self) -> T;
        fn scaled(&self) -> T
        where
            T: Mul<Output = T>,
        {
            self.raw() * Self::FACTOR
        }
        fn again(&self) -> Self
        where
            Self: Clone + Sized,
        {
            self.clone()
        }
    }

    #[derive(Clone, Debug, PartialEq)]
    pub struct P(pub i64, pub i64);

    #[mu2::mutate]
    impl Metric for P {
        fn dist(&self, o: &P) -> u64 {
            self.0.abs_diff(o.0) + self.1.abs_diff(o.1)
        }
    }

    #[mu2::mutate]
    impl Metric<i64> for P {
        fn dist(&self, o: &i64) -> u64 {
            (self.0 - o).unsigned_abs()
        }
    }

    #[mu2::mutate]
    impl Scale<i64> for P {
        const FACTOR: i64 = 3;
        fn raw(&self) -> i64 {
            self.0 - self.1
        }
    }

    pub trait Summary {
        fn summary(&self) -> String;
    }

    #[mu2::mutate]
    impl<T: Debug> Summary for Vec<T> {
        fn summary(&self) -> String {
            if self.len() > 2 {
                format!("{:?}.. ({} more)", self[0], self.len() - 1)
            } else {
                format!("{self:?}")
            }
        }
    }

    pub struct Stack<T, const N: usize> {
        items: [Option<T>; N],
        len: usize,
    }

    #[mu2::mutate]
    impl<T: Copy + Debug, const N: usize> Stack<T, N>
    where
        T: PartialOrd,
    {
        pub fn new() -> Self {
            Stack {
                items: [None; N],
                len: 0,
            }
        }

        pub fn push(&mut self, t: T) -> Result<(), T> {
            if self.len == N {
                return Err(t);
            }
            self.items[self.len] = Some(t);
            self.len += 1;
            Ok(())
        }

        pub fn max(&self) -> Option<T> {
            let mut best = None;
            for x in self.items[..self.len].iter().flatten() {
                match best {
                    Some(b) if b >= *x => {}
                    _ => best = Some(*x),
                }
            }
            best
        }
    }

    pub fn drive() -> Vec<String> {
        use Scale as _;
        let mut s: Stack<u8, 3> = Stack::new();
        let pushed: Vec<_> = [4, 9, 2, 7].iter().map(|&x| s.push(x)).collect();
        vec![
            format!(
                "{:?}",
                (dot(&[1, 2, 3], &[4, 5, 6]), dot(&[1.5], &[2.0, 3.0]))
            ),
            format!("{:?}", count_where(&["a", "bb", "ccc"], |s| s.len() > 1)),
            format!(
                "{:?}",
                (
                    P(1, 2).dist(&P(4, -2)),
                    P(1, 2).near(&P(1, 3), 1),
                    P(5, 0).near(&9, 3)
                )
            ),
            format!("{:?}", (P(7, 2).scaled(), P(1, 1).again())),
            format!("{:?}", (vec![1, 2, 3].summary(), vec!["x"].summary())),
            format!("{:?}", (pushed, s.max())),
        ]
    }

    pub fn expected() -> Vec<String> {
        vec![
            "(32, 3.0)",
            "2",
            "(7, true, false)",
            "(15, P(1, 1))",
            "(\"1.. (2 more)\", \"[\\\"x\\\"]\")",
            "([Ok(()), Ok(()), Ok(()), Err(7)], Some(9))",
        ]
        .into_iter()
        .map(String::from)
        .collect()
    }
}

strict_group! {
    signals {
        use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::SeqCst};
        use std::sync::{Arc, Barrier};

        /// A worker counts until told to stop; the stop is a `store` the
        /// worker spins on, on a thread no budget reaches.
        pub fn stop_worker(n: usize) -> usize {
            let stop = Arc::new(AtomicBool::new(false));
            let seen = Arc::new(AtomicUsize::new(0));
            let (s2, c2) = (Arc::clone(&stop), Arc::clone(&seen));
            let h = std::thread::spawn(move || {
                while !s2.load(SeqCst) {
                    std::thread::yield_now();
                }
                c2.load(SeqCst)
            });
            for i in 0..n {
                seen.fetch_add(i, SeqCst);
            }
            stop.store(true, SeqCst);
            h.join().unwrap()
        }

        pub fn meet(n: u32) -> u32 {
            let barrier = Arc::new(Barrier::new(2));
            let b2 = Arc::clone(&barrier);
            let h = std::thread::spawn(move || {
                b2.wait();
                n + 1
            });
            barrier.wait();
            h.join().unwrap() * 2
        }

        /// The parties of a barrier, counted in another function than the
        /// waits: `workers - 1` parties for `workers + 1` waiters leaves two
        /// of them blocked.
        pub fn gate(workers: usize) -> Arc<Barrier> {
            Arc::new(Barrier::new(workers + 1))
        }

        pub fn meet_all(workers: usize) -> usize {
            let b = gate(workers);
            let hs: Vec<_> = (0..workers)
                .map(|i| {
                    let b = Arc::clone(&b);
                    std::thread::spawn(move || {
                        b.wait();
                        i
                    })
                })
                .collect();
            b.wait();
            hs.into_iter().map(|h| h.join().unwrap()).sum()
        }

        pub fn parked(n: u64) -> u64 {
            let flag = Arc::new(AtomicBool::new(false));
            let f2 = Arc::clone(&flag);
            let h = std::thread::spawn(move || {
                while !f2.load(SeqCst) {
                    std::thread::park();
                }
                n * 3
            });
            flag.store(true, SeqCst);
            h.thread().unpark();
            h.join().unwrap()
        }
    }
    |m| {
        vec![
            format!("{:?}", m::stop_worker(5)),
            format!("{:?}", m::meet(4)),
            format!("{:?}", m::meet_all(4)),
            format!("{:?}", m::parked(7)),
        ]
    }
}

strict_group! {
    odd_items {
        pub trait Show {
            fn label(&self) -> String;
        }

        pub struct A(pub u8);

        impl Show for A {
            fn label(&self) -> String {
                format!("A{}", self.0 + 1)
            }
        }

        pub struct Holder {
            pub inner: A,
        }

        impl Holder {
            pub fn as_show(&self) -> &dyn Show {
                if self.inner.0 > 200 { &BIG } else { &self.inner }
            }
        }

        static BIG: A = A(100);

        pub fn größe(n: u32) -> u32 {
            n * 2 + 1
        }

        pub fn with_cfg(#[cfg(any())] hidden: u8, shown: u8, #[allow(unused_variables)] spare: u8) -> u8 {
            shown.saturating_add(1)
        }

        pub trait Fetch {
            async fn get(&self, k: u32) -> u32;
            async fn get_twice(&self, k: u32) -> u32 {
                let a = self.get(k).await;
                let b = self.get(k + 1).await;
                a * 10 + b
            }
        }

        pub struct Table;

        impl Fetch for Table {
            async fn get(&self, k: u32) -> u32 {
                if k > 5 { k - 5 } else { k + 5 }
            }
        }

        pub fn r#match(r#type: i32) -> i32 {
            r#type - 1
        }
    }
    |m| {
        use m::Fetch;
        let h = m::Holder { inner: m::A(3) };
        let big = m::Holder { inner: m::A(250) };
        vec![
            h.as_show().label(),
            big.as_show().label(),
            format!("{:?}", m::größe(4)),
            format!("{:?}", m::with_cfg(1, 2)),
            format!("{:?}", crate::block_on(m::Table.get_twice(5))),
            format!("{:?}", m::r#match(3)),
        ]
    }
}

strict_group! {
    cfg_statements {
        pub fn checked_sum(v: &[i32]) -> i32 {
            #[cfg(any())]
            for x in v {
                assert!(*x >= 0);
            }
            #[cfg(any())]
            v.iter().for_each(|x| assert!(*x < 100));
            let mut s = 0;
            #[cfg(all())]
            {
                s += 1;
            }
            s + v.iter().sum::<i32>()
        }

        pub fn only_cfg_loop(n: u32) -> u32 {
            #[cfg(any())]
            while n > 0 {
                break;
            }
            n * 2
        }

        pub fn debug_only(v: &mut Vec<u8>) -> usize {
            #[cfg(debug_assertions)]
            for i in 0..2 {
                v.push(i);
            }
            #[cfg(not(debug_assertions))]
            for i in 0..2 {
                v.push(i + 10);
            }
            v.len()
        }
    }
    |m| {
        let mut v = vec![];
        let n = m::debug_only(&mut v);
        vec![
            format!("{:?}", m::checked_sum(&[1, 2, 3])),
            format!("{:?}", m::only_cfg_loop(4)),
            format!("{:?}", (n, v)),
        ]
    }
}

strict_group! {
    scoped_threads {
        use std::sync::Mutex;
        use std::sync::atomic::{AtomicU64, Ordering};

        pub fn par_sum(v: &[u64], parts: usize) -> u64 {
            let size = v.len().div_ceil(parts.max(1)).max(1);
            let total = AtomicU64::new(0);
            std::thread::scope(|s| {
                for chunk in v.chunks(size) {
                    let total = &total;
                    s.spawn(move || {
                        let mut t = 0;
                        for x in chunk {
                            t += x;
                        }
                        total.fetch_add(t, Ordering::Relaxed);
                    });
                }
            });
            total.into_inner()
        }

        pub fn par_max(v: &[i32]) -> Option<i32> {
            let best = Mutex::new(None::<i32>);
            std::thread::scope(|s| {
                let (a, b) = v.split_at(v.len() / 2);
                for half in [a, b] {
                    let best = &best;
                    s.spawn(move || {
                        if let Some(&m) = half.iter().max() {
                            let mut g = best.lock().unwrap();
                            if g.is_none_or(|b| m > b) {
                                *g = Some(m);
                            }
                        }
                    });
                }
            });
            best.into_inner().unwrap()
        }

        pub fn results(n: u32) -> Vec<u32> {
            let mut out: Vec<u32> = std::thread::scope(|s| {
                let hs: Vec<_> = (0..n).map(|i| s.spawn(move || i * i + 1)).collect();
                hs.into_iter().map(|h| h.join().unwrap()).collect()
            });
            out.sort_unstable_by(|a, b| b.cmp(a));
            out
        }
    }
    |m| {
        let v: Vec<u64> = (1..=20).collect();
        vec![
            format!("{:?}", (m::par_sum(&v, 3), m::par_sum(&[], 2))),
            format!("{:?}", (m::par_max(&[3, 9, -1, 4]), m::par_max(&[]))),
            format!("{:?}", m::results(4)),
        ]
    }
}

strict_group! {
    custom_ops {
        use std::iter::Sum;
        use std::ops::{Index, IndexMut, Neg, Not};

        #[derive(Debug, Clone, Copy, PartialEq, Default)]
        pub struct Money(pub i64);

        impl Neg for Money {
            type Output = Money;
            fn neg(self) -> Money {
                Money(-self.0)
            }
        }

        impl Sum for Money {
            fn sum<I: Iterator<Item = Money>>(iter: I) -> Money {
                let mut t = 0;
                for m in iter {
                    t += m.0;
                }
                Money(t)
            }
        }

        impl<'a> Sum<&'a Money> for Money {
            fn sum<I: Iterator<Item = &'a Money>>(iter: I) -> Money {
                iter.copied().sum()
            }
        }

        #[derive(Debug, Clone, Copy, PartialEq)]
        pub struct Flags(pub u8);

        impl Not for Flags {
            type Output = Flags;
            fn not(self) -> Flags {
                Flags(!self.0 & 0x0f)
            }
        }

        #[derive(Debug, Default)]
        pub struct Bag {
            items: Vec<(String, u32)>,
        }

        impl FromIterator<(String, u32)> for Bag {
            fn from_iter<I: IntoIterator<Item = (String, u32)>>(it: I) -> Self {
                let mut b = Bag::default();
                b.extend(it);
                b
            }
        }

        impl Extend<(String, u32)> for Bag {
            fn extend<I: IntoIterator<Item = (String, u32)>>(&mut self, it: I) {
                for (k, n) in it {
                    match self.items.iter_mut().find(|(name, _)| *name == k) {
                        Some((_, c)) => *c += n,
                        None => self.items.push((k, n)),
                    }
                }
            }
        }

        impl Index<&str> for Bag {
            type Output = u32;
            fn index(&self, k: &str) -> &u32 {
                self.items.iter().find(|(n, _)| n == k).map(|(_, c)| c).unwrap_or(&0)
            }
        }

        impl IndexMut<usize> for Bag {
            fn index_mut(&mut self, i: usize) -> &mut u32 {
                let n = self.items.len();
                &mut self.items[i % n].1
            }
        }

        impl Index<usize> for Bag {
            type Output = u32;
            fn index(&self, i: usize) -> &u32 {
                &self.items[i].1
            }
        }

        pub struct Builder {
            name: String,
            size: u32,
            tags: Vec<&'static str>,
        }

        impl Builder {
            pub fn new(name: &str) -> Self {
                Builder { name: name.into(), size: 1, tags: vec![] }
            }
            pub fn size(mut self, s: u32) -> Self {
                self.size = s.max(1) * 2;
                self
            }
            pub fn tag(mut self, t: &'static str) -> Self {
                if !self.tags.contains(&t) {
                    self.tags.push(t);
                }
                self
            }
            pub fn build(self) -> String {
                format!("{}[{}]{}", self.name, self.size, self.tags.join(","))
            }
        }

        pub fn min_by_key<T, K: Ord>(v: &[T], key: impl Fn(&T) -> K) -> Option<&T> {
            let mut best: Option<(&T, K)> = None;
            for x in v {
                let k = key(x);
                match &best {
                    Some((_, bk)) if *bk <= k => {}
                    _ => best = Some((x, k)),
                }
            }
            best.map(|(x, _)| x)
        }

        pub fn evens(v: &[u32]) -> impl Iterator<Item = u32> + '_ {
            v.iter().filter(|&&x| x % 2 == 0).map(|&x| x * 10)
        }

        pub fn dfs(adj: &[Vec<usize>], start: usize) -> Vec<usize> {
            let mut seen = vec![false; adj.len()];
            let mut order = Vec::new();
            let mut stack = vec![start];
            while let Some(n) = stack.pop() {
                if std::mem::replace(&mut seen[n], true) {
                    continue;
                }
                order.push(n);
                for &m in adj[n].iter().rev() {
                    if !seen[m] {
                        stack.push(m);
                    }
                }
            }
            order
        }

        pub fn compare(a: Option<i32>, b: Option<i32>) -> &'static str {
            match (a, b) {
                (Some(x), Some(y)) if x > y => "first",
                (Some(x), Some(y)) if x == y => "tie",
                (Some(_), Some(_)) => "second",
                (Some(i32::MIN..=-1), None) => "neg alone",
                (Some(_), None) | (None, Some(_)) => "alone",
                (None, None) => "none",
            }
        }
    }
    |m| {
        let ms = [m::Money(5), m::Money(-2), m::Money(10)];
        let total: m::Money = ms.iter().sum();
        let neg: m::Money = ms.iter().map(|&x| -x).sum();
        let mut bag: m::Bag = vec![("a".to_string(), 2), ("b".to_string(), 1), ("a".to_string(), 5)].into_iter().collect();
        bag[4] += 10;
        let adj = vec![vec![1, 2], vec![3], vec![3], vec![0]];
        vec![
            format!("{:?}", (total, neg, !m::Flags(0b0101))),
            format!("{:?}", (&bag, bag["a"], bag["zz"], bag[1])),
            m::Builder::new("w").size(3).tag("x").tag("y").tag("x").build(),
            format!("{:?}", (m::min_by_key(&["ccc", "a", "bb"], |s| s.len()), m::min_by_key(&[] as &[u8], |&x| x))),
            format!("{:?}", m::evens(&[1, 2, 3, 4, 6]).collect::<Vec<_>>()),
            format!("{:?}", m::dfs(&adj, 0)),
            format!("{:?}", [(Some(3), Some(1)), (Some(2), Some(2)), (Some(1), Some(5)), (Some(-3), None), (None, Some(1)), (None, None)].map(|(a, b)| m::compare(a, b))),
        ]
    }
}

strict_group! {
    waits {
        use std::sync::mpsc;
        use std::sync::{Arc, Condvar, Mutex};

        /// The `Condvar` example of the standard library's documentation:
        /// the calling thread waits for a worker's signal. A mutant of the
        /// loop condition would wait for a signal that never comes again.
        pub fn started(n: u32) -> u32 {
            let pair = Arc::new((Mutex::new(false), Condvar::new()));
            let pair2 = Arc::clone(&pair);
            let h = std::thread::spawn(move || {
                let (lock, cvar) = &*pair2;
                *lock.lock().unwrap() = true;
                cvar.notify_one();
                n * 2
            });
            let (lock, cvar) = &*pair;
            let mut started = lock.lock().unwrap();
            while !*started {
                started = cvar.wait(started).unwrap();
            }
            drop(started);
            h.join().unwrap() + 1
        }

        pub fn ready_count(k: usize) -> usize {
            let state = Arc::new((Mutex::new(0usize), Condvar::new()));
            let workers: Vec<_> = (0..k)
                .map(|_| {
                    let s = Arc::clone(&state);
                    std::thread::spawn(move || {
                        let (m, c) = &*s;
                        *m.lock().unwrap() += 1;
                        c.notify_all();
                    })
                })
                .collect();
            let (m, c) = &*state;
            let done = c.wait_while(m.lock().unwrap(), |n| *n < k).unwrap();
            let seen = *done;
            drop(done);
            for w in workers {
                w.join().unwrap();
            }
            seen
        }

        /// The calling thread keeps a sender while it counts replies.
        pub fn replies(n: u64) -> u64 {
            let (tx, rx) = mpsc::channel();
            for i in 0..n {
                let tx = tx.clone();
                std::thread::spawn(move || tx.send(i + 1).unwrap());
            }
            let mut total = 0;
            let mut got = 0;
            while got < n {
                total += rx.recv().unwrap();
                got += 1;
            }
            total
        }

        /// No waits here: mutated as usual.
        pub fn expected_replies(n: u64) -> u64 {
            n * (n + 1) / 2
        }
    }
    |m| {
        vec![
            format!("{:?}", m::expected_replies(4)),
            format!("{:?}", m::started(4)),
            format!("{:?}", m::ready_count(3)),
            format!("{:?}", m::replies(4)),
        ]
    }
}

strict_group! {
    futures {
        use std::future::Future;
        use std::pin::Pin;
        use std::task::{Context, Poll};

        /// Ready after `left` polls, waking itself each time.
        pub struct Countdown {
            pub left: u32,
            pub polls: u32,
        }

        impl Future for Countdown {
            type Output = u32;
            fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<u32> {
                self.polls += 1;
                if self.left == 0 {
                    return Poll::Ready(self.polls * 10);
                }
                self.left -= 1;
                cx.waker().wake_by_ref();
                Poll::Pending
            }
        }

        pub struct Join2<A, B> {
            a: Option<A>,
            b: Option<B>,
            out: (Option<u32>, Option<u32>),
        }

        impl<A, B> Join2<A, B> {
            pub fn new(a: A, b: B) -> Self {
                Join2 { a: Some(a), b: Some(b), out: (None, None) }
            }
        }

        impl<A: Future<Output = u32> + Unpin, B: Future<Output = u32> + Unpin> Future for Join2<A, B> {
            type Output = (u32, u32);
            fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<(u32, u32)> {
                let this = &mut *self;
                if let Some(a) = this.a.as_mut() {
                    if let Poll::Ready(v) = Pin::new(a).poll(cx) {
                        this.out.0 = Some(v);
                        this.a = None;
                    }
                }
                if let Some(b) = this.b.as_mut() {
                    if let Poll::Ready(v) = Pin::new(b).poll(cx) {
                        this.out.1 = Some(v + 1);
                        this.b = None;
                    }
                }
                match this.out {
                    (Some(x), Some(y)) => Poll::Ready((x, y)),
                    _ => Poll::Pending,
                }
            }
        }

        pub async fn chain(n: u32) -> u32 {
            let a = Countdown { left: n, polls: 0 }.await;
            let (b, c) = Join2::new(Countdown { left: 1, polls: 0 }, Countdown { left: n + 2, polls: 0 }).await;
            a + b * 2 + c
        }
    }
    |m| {
        vec![
            format!("{:?}", crate::block_on(m::Countdown { left: 3, polls: 0 })),
            format!("{:?}", crate::block_on(m::chain(2))),
        ]
    }
}
