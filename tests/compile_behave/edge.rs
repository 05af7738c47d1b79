//! Corners: places (`v[v.len() - 1] += 1`, packed fields, derefs), receivers
//! of rewritten operators, async closures, associated consts, blanket impls,
//! unusual return types.

use std::collections::HashMap;
use std::sync::Mutex;

pub fn groups() -> Vec<crate::Group> {
    vec![
        places::GROUP,
        receivers::GROUP,
        traits::GROUP,
        awaits::GROUP,
        comparisons::GROUP,
        returns::GROUP,
        operands::GROUP,
    ]
}

group! {
    places {
        #[repr(C, packed)]
        pub struct Packed {
            pub tag: u8,
            pub value: u32,
        }

        pub fn packed(mut p: Packed) -> (u8, u32) {
            p.value += 5;
            p.value = p.value * 2;
            p.tag -= 1;
            let v = p.value;
            (p.tag, v + (v > 3) as u32)
        }

        pub fn two_phase(mut v: Vec<usize>, mut a: [i32; 3]) -> (Vec<usize>, [i32; 3]) {
            v.push(v.len() + 1);
            let n = v.len();
            v[n - 1] += 1;
            v[n - 2] *= 10;
            a[a.len() - 1] += a[0];
            a[0] = a[1] + a[2];
            (v, a)
        }

        pub fn derefs(b: &mut Box<i32>, r: &mut &mut u8, m: &Mutex<u64>) -> (i32, u8, u64) {
            **b += 1;
            **r *= 3;
            *m.lock().unwrap() += 7;
            let g = *m.lock().unwrap() > 5 && *m.lock().unwrap() < 100;
            (**b, **r, *m.lock().unwrap() + g as u64)
        }

        pub fn maps(words: &[&str]) -> Vec<(String, i32)> {
            let mut m: HashMap<String, i32> = HashMap::new();
            for w in words {
                *m.entry(w.to_string()).or_default() += 1;
                if let Some(c) = m.get_mut("b") {
                    *c -= 10;
                }
            }
            let mut v: Vec<_> = m.into_iter().collect();
            v.sort();
            v
        }

        pub struct Pair {
            pub a: i32,
            pub b: Vec<i32>,
        }

        pub fn make(n: i32) -> Pair {
            Pair { a: n, b: vec![n] }
        }

        // Assignments to parts of temporaries are valid, if pointless.
        pub fn temporaries(n: i32) -> i32 {
            make(n).a += 1;
            make(n).b[0] -= 1;
            Pair { a: 1, b: vec![] }.a *= 2;
            let mut p = make(n);
            p.a += make(1).a;
            p.a
        }

        pub struct Counter {
            pub hits: u32,
            pub log: Vec<u32>,
        }

        impl Counter {
            pub fn hit(&mut self, k: u32) -> u32 {
                self.hits += k;
                self.log.push(self.hits * 2);
                self.log[self.log.len() - 1]
            }
        }
    }
    |m| {
        let mut b = Box::new(1);
        let mut x = 2u8;
        let mut r = &mut x;
        let mx = Mutex::new(0);
        let mut c = m::Counter { hits: 0, log: vec![] };
        let d = m::derefs(&mut b, &mut r, &mx);
        show![
            m::packed(m::Packed { tag: 3, value: 1 }),
            m::two_phase(vec![1], [1, 2, 3]),
            d,
            m::maps(&["a", "b", "a"]),
            m::temporaries(4),
            c.hit(2),
            c.hit(3),
        ]
    }
}

group! {
    receivers {
        pub fn methods(a: u32, b: u32, x: f64) -> (u32, f64, String, i64, Option<u32>, bool) {
            (
                (a + b).pow(2),
                (x * 2.0).sqrt(),
                (a % 7).to_string(),
                (-(a as i64)).abs(),
                (a < b).then(|| b - a),
                (0..b).contains(&(a + 1)),
            )
        }

        pub fn ranges(v: &[i32], k: usize) -> (Vec<i32>, i32) {
            let s = &v[k - 1..k + 1];
            let t: i32 = (k as i32 - 1..=k as i32 + 1).sum();
            (s.to_vec(), t)
        }

        pub async fn async_closure(k: i32) -> i32 {
            let f = async |x: i32| x * k + 1;
            f(2).await + f(3).await
        }

        pub fn fn_pointer(k: i32) -> fn(i32) -> i32 {
            if k > 0 { |x| x + 1 } else { |x| x - 1 }
        }

        pub fn by_pattern(v: &[(i32, i32)]) -> Vec<i32> {
            v.iter().map(|&(a, b)| a * b - 1).filter(|&x| x != 0).collect()
        }

        pub fn typed_let() -> (u8, String) {
            let f: fn(u8) -> u8 = |x| x + 1;
            let g: Box<dyn Fn(String, &str) -> String> = Box::new(|a, b| a + b);
            (f(1), g("a".into(), "b"))
        }
    }
    |m| {
        show![
            m::methods(2, 3, 8.0),
            m::methods(5, 3, 2.0),
            m::ranges(&[1, 2, 3, 4], 2),
            crate::block_on(m::async_closure(5)),
            m::fn_pointer(1)(1),
            m::fn_pointer(-1)(1),
            m::by_pattern(&[(1, 1), (2, 3)]),
            m::typed_let(),
        ]
    }
}

group! {
    traits {
        pub trait Scaled {
            const FACTOR: i32;
            fn raw(&self) -> i32;
            fn scaled(&self) -> i32 {
                self.raw() * Self::FACTOR + Self::FACTOR / 2
            }
            fn bigger<T: Scaled>(&self, other: &T) -> bool
            where
                Self: Sized,
            {
                self.scaled() > other.scaled()
            }
        }

        pub struct A(pub i32);
        pub struct B(pub i32);

        impl Scaled for A {
            const FACTOR: i32 = 2 + 1;
            fn raw(&self) -> i32 {
                self.0 + Self::FACTOR
            }
        }

        impl Scaled for B {
            const FACTOR: i32 = 10;
            fn raw(&self) -> i32 {
                -self.0
            }
            fn scaled(&self) -> i32 {
                self.raw() - 1
            }
        }

        pub trait Double {
            fn double(&self) -> Self;
        }

        impl<T: Clone + std::ops::Add<Output = T>> Double for T {
            fn double(&self) -> Self {
                self.clone() + self.clone()
            }
        }

        pub trait Named {
            fn name(&self) -> String;
        }

        impl<T: std::fmt::Debug> Named for Option<T> {
            fn name(&self) -> String {
                match self {
                    Some(v) if format!("{v:?}").len() > 2 => format!("long {v:?}"),
                    Some(v) => format!("{v:?}"),
                    None => String::new(),
                }
            }
        }

        pub struct Wrapper<T>(pub T);

        impl<T: Default + PartialEq + Copy + std::ops::Sub<Output = T>> Wrapper<T> {
            pub fn new(v: T) -> Self {
                Wrapper(v)
            }
            pub fn take(&mut self) -> T {
                let v = self.0;
                self.0 = T::default();
                v
            }
            pub fn is_zero(&self) -> bool {
                self.0 == T::default()
            }
            pub fn minus(&self, o: T) -> Result<Self, String> {
                if o == T::default() {
                    return Err("zero".into());
                }
                Ok(Wrapper(self.0 - o))
            }
        }
    }
    |m| {
        use m::{Double, Named, Scaled};
        let mut w = m::Wrapper::new(5u16);
        let taken = w.take();
        show![
            m::A(1).scaled(),
            m::B(1).scaled(),
            m::A(1).bigger(&m::B(1)),
            3u8.double(),
            String::from("ab").len().double(),
            Some(5).name(),
            Some("abc").name(),
            None::<u8>.name(),
            taken,
            w.is_zero(),
            m::Wrapper::new(9i8).minus(4).map(|w| w.0),
            m::Wrapper::new(9i8).minus(0).map(|w| w.0),
        ]
    }
}

group! {
    awaits {
        pub async fn value(x: u32) -> u32 {
            x * 2
        }

        pub async fn fallible(x: u32) -> Result<u32, String> {
            if x > 100 { Err("big".into()) } else { Ok(x + 1) }
        }

        pub async fn flag(b: bool) -> bool {
            !b
        }

        // Across awaits: a guard from the left of `&&` is gone before the
        // right side awaits, so this future is `Send`.
        pub async fn across(m: &Mutex<u32>, x: u32) -> Result<u32, String> {
            let a = value(x).await + fallible(x).await?;
            let ok = *m.lock().unwrap() < 10 && flag(false).await;
            if ok || flag(true).await {
                *m.lock().unwrap() += 1;
            }
            Ok(a - 1)
        }

        pub trait Service {
            fn base(&self) -> u32;
            async fn call(&self, x: u32) -> u32 {
                self.base() + value(x).await
            }
        }

        pub struct S;
        impl Service for S {
            fn base(&self) -> u32 {
                3
            }
        }

        pub fn labeled(v: &[i32]) -> i32 {
            let mut total = 0;
            'outer: for &x in v {
                let ok = x > 0 && {
                    if x > 100 {
                        break 'outer;
                    }
                    if x == 5 {
                        continue 'outer;
                    }
                    true
                };
                if ok {
                    total += x;
                }
            }
            total
        }

        pub fn tries(v: &[&str]) -> Option<u32> {
            let a = v.first()?.len() as u32 + v.get(1)?.parse::<u32>().ok()?;
            Some(a * 2)
        }
    }
    |m| {
        fn is_send<T: Send>(t: T) -> T {
            t
        }
        let mx = Mutex::new(1);
        show![
            crate::block_on(is_send(m::across(&mx, 4))),
            crate::block_on(m::across(&mx, 200)),
            *mx.lock().unwrap(),
            crate::block_on(<m::S as m::Service>::call(&m::S, 2)),
            m::labeled(&[1, 5, 2, 200, 7]),
            m::tries(&["ab", "7"]),
            m::tries(&["ab"]),
        ]
    }
}

group! {
    comparisons {
        #[derive(Debug, PartialEq)]
        pub struct Meters(pub f64);

        impl PartialEq<f64> for Meters {
            fn eq(&self, o: &f64) -> bool {
                self.0 == *o
            }
        }

        pub fn all(
            mut a: i32,
            mut b: i32,
            v: Vec<i32>,
            s: &str,
            o: Option<&str>,
            p: *const u8,
        ) -> Vec<bool> {
            let (ra, rb) = (&mut a, &mut b);
            let refs = ra == rb || *ra < *rb;
            let c = s.chars().next().unwrap_or(' ');
            vec![
                refs,
                v == [1, 2],
                &v[..] == [1, 2].as_slice(),
                v[..1] == [1],
                s.as_str_sorted() < "m",
                c >= 'a' && c <= 'z',
                o == Some("x"),
                o != None,
                Meters(2.0) == 2.0,
                Meters(1.0) != Meters(1.5),
                p.is_null() || p == std::ptr::null(),
                (v.len() as i64 - 3) < -1,
                vec![1].len() + 1 > 1,
                format!("{a}").len() >= 1,
                (a < b).then_some(1).is_some(),
            ]
        }

        pub trait Sorted {
            fn as_str_sorted(&self) -> &str;
        }
        impl Sorted for str {
            fn as_str_sorted(&self) -> &str {
                self
            }
        }

        pub fn loop_cond(mut x: u32) -> u32 {
            let mut guard = 0;
            while {
                x += 3;
                x % 7 != 0
            } {
                guard += 1;
                if guard > 50 {
                    break;
                }
            }
            x
        }
    }
    |m| {
        use m::Sorted;
        show![
            m::all(1, 2, vec![1, 2], "abc", Some("x"), std::ptr::null()),
            m::all(3, 3, vec![1], "zz", None, &0u8),
            m::loop_cond(1),
        ]
    }
}

group! {
    returns {
        pub trait Maker {
            fn make() -> Self
            where
                Self: Sized + Default,
            {
                Self::default()
            }
            fn pair(&self) -> (u8, Option<Self>)
            where
                Self: Sized + Clone,
            {
                (1 + 1, Some(self.clone()))
            }
        }

        #[derive(Debug, Default, Clone, PartialEq)]
        pub struct Thing(pub u8);
        impl Maker for Thing {}

        pub fn iter_box<'a>(v: &'a [u8]) -> Box<dyn Iterator<Item = u8> + 'a> {
            Box::new(v.iter().map(|x| x + 1))
        }

        pub fn elided(v: &[u8]) -> Box<dyn Iterator<Item = &u8> + '_> {
            Box::new(v.iter().filter(|x| **x > 1))
        }

        pub fn array<const N: usize>(x: u8) -> [u8; N] {
            [x + 1; N]
        }

        pub fn std_result(x: u8) -> std::result::Result<u8, String> {
            Ok(x + 1)
        }

        pub type Str<'a> = &'a str;
        pub fn alias<'a>(s: Str<'a>) -> Str<'a> {
            &s[1..]
        }

        pub fn mut_slice(v: &mut [u8]) -> &mut [u8] {
            let n = v.len();
            &mut v[n / 2..]
        }

        pub fn fn_ptr(k: bool) -> fn(u8) -> u8 {
            if k { |x| x + 1 } else { |x| x * 2 }
        }

        pub struct D<'a>(pub &'a mut u32);
        impl Drop for D<'_> {
            fn drop(&mut self) {
                *self.0 += 1;
            }
        }

        pub fn with_drop(n: &mut u32) -> u32 {
            {
                let _d = D(n);
            }
            *n * 10
        }
    }
    |m| {
        use m::Maker;
        let mut buf = [1u8, 2, 3, 4];
        let mut n = 1;
        show![
            m::Thing::make(),
            m::Thing(4).pair(),
            m::iter_box(&[1, 2]).collect::<Vec<_>>(),
            m::elided(&[1, 2, 3]).collect::<Vec<_>>(),
            m::array::<3>(1),
            m::std_result(1),
            m::alias("abc"),
            m::mut_slice(&mut buf).to_vec(),
            m::fn_ptr(true)(3),
            m::fn_ptr(false)(3),
            m::with_drop(&mut n),
        ]
    }
}

group! {
    operands {
        #[repr(C, packed)]
        pub struct Header {
            pub tag: u8,
            pub len: u32,
            pub words: [u16; 2],
        }

        pub fn packed(h: &Header) -> (bool, bool, bool) {
            (h.len > 3 && h.tag == 1, h.words[1] != 0, { h.len } <= 4)
        }

        pub struct Counter {
            pub n: u32,
            pub v: Vec<u32>,
        }

        impl Counter {
            pub fn bump(&mut self) -> u32 {
                self.n += 1;
                self.n
            }

            // A primitive is read before the right side runs, which may
            // then change it: valid Rust, as the original borrows nothing.
            pub fn before(&mut self) -> (bool, bool) {
                let a = self.n < self.bump();
                let b = self.v[0] == {
                    self.v[0] += 1;
                    self.v[0] - 1
                };
                (a, b)
            }
        }

        pub struct Tail {
            pub id: u8,
            pub data: [u8],
        }

        pub fn tail(t: &Tail, other: &[u8]) -> bool {
            t.id > 0 && t.data == *other && t.data[0] < 9
        }

        pub fn late() -> usize {
            let mut best = (None, 0);
            let mut hits = 0;
            for w in ["a", "b", "b"] {
                if best.0 == Some(w.to_string()) {
                    hits += 1;
                }
                best = (Some(w.to_string()), best.1 + 1);
            }
            hits + best.1
        }

        pub async fn remote(x: u32) -> u32 {
            x
        }

        pub async fn across(c: &Counter) -> bool {
            c.n == remote(1).await || c.v[0] > remote(0).await
        }

        pub fn strings(a: &Counter, names: &[String]) -> bool {
            names[0] == "x" || names[1] < names[0] || a.v == [1]
        }
    }
    |m| {
        fn is_send<T: Send>(t: T) -> T {
            t
        }
        let h = m::Header { tag: 1, len: 4, words: [0, 7] };
        let mut c = m::Counter { n: 1, v: vec![5] };
        let before = c.before();
        let boxed: Box<[u8]> = Box::new([3, 1, 2]);
        // A `Tail` over the bytes: `id` is the first byte, `data` the rest.
        let tail: &m::Tail = unsafe { &*(std::ptr::slice_from_raw_parts(boxed.as_ptr(), 2) as *const m::Tail) };
        show![
            m::packed(&h),
            before,
            c.n,
            c.v.clone(),
            m::tail(tail, &[1, 2]),
            m::late(),
            crate::block_on(is_send(m::across(&c))),
            m::strings(&c, &["y".to_string(), "a".to_string()]),
        ]
    }
}
