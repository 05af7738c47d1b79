//! Groups from the fourth held-out round: constructors behind `&`
//! (promoted to `'static`), comparisons of places whose `PartialEq` looks
//! at the operand itself (its address, a counter in a `Cell`), and operator
//! impls written with the inverse operator, which probing used to evaluate
//! forever; and accumulators whose type rustc learns only after their
//! operators. These groups deny warnings, and the compile-and-behave tests
//! also run in an optimized build.

use std::cell::Cell;

pub fn groups() -> Vec<crate::Group> {
    vec![
        promoted_ctors::GROUP,
        identity::GROUP,
        inverse_ops::GROUP,
        late_types::GROUP,
    ]
}

strict_group! {
    promoted_ctors {
        #[derive(Debug)]
        #[allow(dead_code)] // read by `Debug` only
        pub enum Op {
            Push(i64),
            Add,
            Jmp(usize),
        }

        #[derive(Debug)]
        #[allow(dead_code)]
        pub struct Pt {
            pub x: i32,
            pub y: i32,
        }

        pub fn program() -> &'static [Op] {
            &[Op::Push(6 * 7), Op::Add, Op::Jmp(1 + 1)]
        }

        pub fn origin() -> &'static Pt {
            &Pt { x: 1 - 1, y: 0 }
        }

        pub fn some() -> &'static Option<u32> {
            &Some(2 + 2)
        }

        pub fn scaled(k: i32) -> Pt {
            Pt { x: k * 2, y: k - 1 }
        }
    }
    |m| {
        show![m::program(), m::origin(), m::some(), m::scaled(3)]
    }
}

strict_group! {
    identity {
        /// Two slots are equal only when they are the same slot.
        pub struct Slot {
            pub id: u32,
        }

        impl PartialEq for Slot {
            fn eq(&self, other: &Slot) -> bool {
                std::ptr::eq(self, other)
            }
        }

        /// A value that counts the comparisons made on it.
        pub struct Counted {
            pub seen: Cell<u32>,
            pub v: i32,
        }

        impl PartialEq for Counted {
            fn eq(&self, other: &Counted) -> bool {
                self.seen.set(self.seen.get() + 1);
                self.v == other.v
            }
        }

        impl PartialOrd for Counted {
            fn partial_cmp(&self, other: &Counted) -> Option<std::cmp::Ordering> {
                self.seen.set(self.seen.get() + 1);
                self.v.partial_cmp(&other.v)
            }
        }

        pub fn same(slots: &[Slot], i: usize, j: usize) -> bool {
            slots[i] == slots[j]
        }

        pub fn max_index(v: &[Counted]) -> usize {
            let mut best = 0;
            for i in 1..v.len() {
                if v[i] > v[best] {
                    best = i;
                }
            }
            best
        }

        pub struct Pair {
            pub a: u8,
            pub b: u8,
        }

        impl Pair {
            /// The right side changes the place the left side read.
            pub fn bump(&mut self) -> u8 {
                self.a += 10;
                self.a
            }

            pub fn grew(&mut self) -> bool {
                self.a < self.bump()
            }
        }
    }
    |m| {
        let s = [m::Slot { id: 1 }, m::Slot { id: 2 }];
        let v: Vec<m::Counted> = [3, 9, 4, 9]
            .iter()
            .map(|&v| m::Counted { seen: Cell::new(0), v })
            .collect();
        let best = m::max_index(&v);
        let seen: Vec<u32> = v.iter().map(|c| c.seen.get()).collect();
        let mut p = m::Pair { a: 1, b: 2 };
        show![m::same(&s, 0, 0), m::same(&s, 0, 1), s[1].id, best, seen, p.grew(), p.a, p.b]
    }
}

strict_group! {
    inverse_ops {
        use std::ops::{Add, Div, Mul, Neg, Sub};

        #[derive(Debug, Clone, Copy, PartialEq)]
        pub struct P(pub i64);

        impl Add for P {
            type Output = P;
            fn add(self, o: P) -> P {
                P(self.0 + o.0)
            }
        }

        impl Neg for P {
            type Output = P;
            fn neg(self) -> P {
                P(-self.0)
            }
        }

        impl Sub for P {
            type Output = P;
            fn sub(self, o: P) -> P {
                self + -o
            }
        }

        /// A rational number `n / d`.
        #[derive(Debug, Clone, Copy, PartialEq)]
        pub struct Q(pub i64, pub i64);

        impl Q {
            pub fn recip(self) -> Q {
                Q(self.1, self.0)
            }
        }

        impl Mul for Q {
            type Output = Q;
            fn mul(self, o: Q) -> Q {
                Q(self.0 * o.0, self.1 * o.1)
            }
        }

        impl Div for Q {
            type Output = Q;
            fn div(self, o: Q) -> Q {
                self * o.recip()
            }
        }
    }
    |m| {
        show![m::P(5) - m::P(2), m::P(1) + m::P(1), m::Q(1, 2) / m::Q(3, 4)]
    }
}

strict_group! {
    late_types {
        use std::ops::Add;

        /// `acc` is a `String` only from the `let` below its `+`.
        pub fn joined(words: &[&str]) -> String {
            let mut acc = Default::default();
            for w in words {
                acc = acc + *w;
            }
            let out: String = acc;
            out
        }

        /// The fold's accumulator is typed by `Default::default()`.
        pub fn total<T: Add<Output = T> + Default + Copy>(xs: &[T]) -> T {
            let t = xs.iter().fold(Default::default(), |acc, &x| acc + x);
            t
        }

        /// The same with a `String`, and a comparison on the late local.
        pub fn longest(words: &[&str]) -> (String, bool) {
            let s = words.iter().fold(Default::default(), |acc: String, w| acc + w);
            let mut n = Default::default();
            for w in words {
                n = n + w.len();
            }
            let big = n > 3;
            let n: usize = n;
            (s, big && n > 0)
        }
    }
    |m| {
        show![m::joined(&["a", "b"]), m::total(&[1.5, 2.0]), m::total(&[3u8, 4]), m::longest(&["ab", "cd"])]
    }
}
