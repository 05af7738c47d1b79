//! Control flow: match with guards, `if let` / `while let` / let chains,
//! labeled breaks, early returns, let-else, diverging calls, macros,
//! temporaries in conditions.

use std::cell::RefCell;
pub fn groups() -> Vec<crate::Group> {
    vec![
        matching::GROUP,
        loops::GROUP,
        diverging::GROUP,
        macros::GROUP,
        temporaries::GROUP,
    ]
}

group! {
    matching {
        pub enum Shape {
            Circle(f64),
            Rect { w: u32, h: u32 },
            Empty,
        }

        pub fn classify(n: i32) -> &'static str {
            match n {
                i32::MIN..=-1 => "negative",
                0 => "zero",
                x if x % 2 == 0 && x > 100 => "big even",
                x if x % 2 == 0 => "even",
                _ => "odd",
            }
        }

        pub fn area(s: &Shape) -> f64 {
            match s {
                Shape::Circle(r) if *r > 0.0 => 3.0 * r * r,
                Shape::Circle(_) => 0.0,
                Shape::Rect { w, h } => (w * h) as f64,
                Shape::Empty => -1.0,
            }
        }

        pub fn let_chains(o: Option<i32>, p: Option<&str>) -> i32 {
            if let Some(x) = o && x > 0 {
                x * 2
            } else if let Some(s) = p && let Ok(v) = s.parse::<i32>() && v != 3 {
                v + 100
            } else if o.is_none() || p == Some("x") {
                -1
            } else {
                0
            }
        }

        pub fn if_let(o: Option<Vec<i32>>) -> usize {
            let mut n = 0;
            if let Some(v) = &o {
                n += v.len();
            }
            if let Some(v) = o
                && let [first, ..] = v.as_slice()
            {
                n += *first as usize;
            }
            n
        }

        pub fn tuple_match(a: bool, b: bool) -> u8 {
            match (a, b) {
                (true, true) => 3,
                (true, false) | (false, true) => 1,
                (false, false) => 0,
            }
        }

        pub fn let_else(s: &str) -> i32 {
            let Some((a, b)) = s.split_once(',') else {
                return -1;
            };
            let Ok(a) = a.parse::<i32>() else { return -2 };
            let b: i32 = b.parse().unwrap_or(0);
            a - b
        }

        pub fn shadow(x: i32) -> i32 {
            let x = x + 1;
            let x = x * 2;
            {
                let x = x - 100;
                if x > 0 {
                    return x;
                }
            }
            let x = x as i64 as i32;
            x
        }
    }
    |m| {
        show![
            m::classify(-5),
            m::classify(0),
            m::classify(102),
            m::classify(4),
            m::classify(7),
            m::area(&m::Shape::Circle(1.0)),
            m::area(&m::Shape::Circle(-1.0)),
            m::area(&m::Shape::Rect { w: 2, h: 3 }),
            m::area(&m::Shape::Empty),
            m::let_chains(Some(4), None),
            m::let_chains(Some(-4), Some("7")),
            m::let_chains(None, Some("3")),
            m::let_chains(Some(0), Some("x")),
            m::let_chains(Some(0), Some("y")),
            m::if_let(Some(vec![2, 1])),
            m::if_let(None),
            m::tuple_match(true, false),
            m::tuple_match(false, false),
            m::let_else("5,3"),
            m::let_else("5"),
            m::let_else("q,3"),
            m::shadow(3),
            m::shadow(60),
        ]
    }
}

group! {
    loops {
        pub fn find_pair(v: &[i32], target: i32) -> Option<(usize, usize)> {
            let mut found = None;
            'outer: for i in 0..v.len() {
                for j in i + 1..v.len() {
                    if v[i] + v[j] == target {
                        found = Some((i, j));
                        break 'outer;
                    }
                    if v[j] > 1000 {
                        continue 'outer;
                    }
                }
            }
            found
        }

        pub fn labeled_value(limit: u32) -> u32 {
            let mut n = 0;
            let r = 'search: loop {
                n += 1;
                if n * n > limit {
                    break 'search n;
                }
                if n > 1000 {
                    break 0;
                }
            };
            let block = 'b: {
                if r % 2 == 0 {
                    break 'b r / 2;
                }
                r * 3 + 1
            };
            block
        }

        pub fn drain(mut v: Vec<i32>) -> (i32, usize) {
            let mut sum = 0;
            while let Some(x) = v.pop() {
                if x < 0 {
                    continue;
                }
                sum += x;
            }
            let mut k = 10usize;
            let mut steps = 0;
            while k > 1 {
                k = if k % 2 == 0 { k / 2 } else { 3 * k + 1 };
                steps += 1;
                // Keeps the mutants of this loop short (each still ends
                // without it, by the step budget, but slowly).
                if steps > 100 {
                    break;
                }
            }
            (sum, steps)
        }

        pub fn gcd(mut a: u64, mut b: u64) -> u64 {
            while b != 0 {
                let t = b;
                b = a % b;
                a = t;
            }
            a
        }

        pub fn fib(n: u32) -> u64 {
            if n > 12 {
                return 0;
            }
            if n < 2 {
                return n as u64;
            }
            fib(n - 1) + fib(n - 2)
        }
    }
    |m| {
        show![
            m::find_pair(&[1, 5, 3, 7], 10),
            m::find_pair(&[1, 2000, 3], 4),
            m::find_pair(&[1, 2], 100),
            m::labeled_value(50),
            m::labeled_value(10),
            m::drain(vec![1, -2, 3]),
            m::gcd(48, 18),
            m::fib(7),
        ]
    }
}

group! {
    diverging {
        pub fn panic_helper() -> ! {
            panic!("helper")
        }

        pub fn log(v: &mut Vec<String>, s: &str) {
            v.push(s.to_string());
        }

        // The last statement is a diverging call the block's type relies on.
        pub fn positive(x: i32) -> i32 {
            if x > 0 {
                return x;
            }
            panic_helper();
        }

        pub fn unwrap_or_die(o: Option<i32>, v: &mut Vec<String>) -> i32 {
            match o {
                Some(x) => x,
                None => {
                    log(v, "dying");
                    panic_helper();
                }
            }
        }

        pub fn let_else_die(o: Option<u8>) -> u8 {
            let Some(x) = o else {
                panic_helper();
            };
            x + 1
        }

        pub fn if_else_die(c: bool) -> &'static str {
            let s: &str = if c { "yes" } else { panic_helper(); };
            s
        }

        pub fn closure_die(o: Option<u32>) -> u32 {
            let f = |o: Option<u32>| -> u32 {
                match o {
                    Some(v) => v,
                    None => {
                        panic_helper();
                    }
                }
            };
            f(o) * 2
        }

        // The diverging call is not the last statement.
        #[allow(unreachable_code)]
        pub fn diverges_early(c: bool, v: &mut Vec<String>) -> i32 {
            log(v, "early");
            if c {
                return 1;
            }
            panic_helper();
            let _unreached = 0;
        }

        pub fn explicit_return(v: &mut Vec<String>) -> usize {
            log(v, "explicit");
            return v.len();
        }

        pub fn never_loop(n: u32) -> u32 {
            let mut i = 0;
            loop {
                i += 1;
                if i >= n {
                    return i;
                }
                if i > 1000 {
                    return 0;
                }
            }
        }

        pub fn early(v: &[i32]) -> i32 {
            for &x in v {
                if x == 0 {
                    return 0;
                }
            }
            if v.is_empty() {
                return -1;
            }
            v.iter().product()
        }

        pub fn unit_last(v: &mut Vec<String>) {
            log(v, "a");
            log(v, "b");
        }
    }
    |m| {
        let mut v = Vec::new();
        m::unit_last(&mut v);
        show![
            m::positive(3),
            m::unwrap_or_die(Some(2), &mut v),
            m::let_else_die(Some(4)),
            m::if_else_die(true),
            m::closure_die(Some(21)),
            m::never_loop(7),
            m::diverges_early(true, &mut v),
            m::explicit_return(&mut v),
            m::early(&[1, 2, 3]),
            m::early(&[1, 0]),
            m::early(&[]),
            v,
        ]
    }
}

group! {
    macros {
        use std::fmt::Write as _;

        macro_rules! twice {
            ($e:expr) => {
                $e + $e
            };
        }

        pub fn uses_macros(n: usize) -> (Vec<usize>, String, usize, bool) {
            let v = vec![n + 1, n * 2, 0];
            assert!(v.len() == 3, "length {}", v.len());
            assert_eq!(v[2], 0);
            debug_assert!(n < 1000);
            let s = format!("{}-{:>3}", n + 1, v[1] - 1);
            let t = twice!(n - 1);
            (v, s, t, matches!(n % 3, 0 | 1))
        }

        pub fn write_to(n: u32) -> String {
            let mut s = String::new();
            for i in 0..n {
                write!(s, "{}", i * i).unwrap();
                if i + 1 < n {
                    s.push(',');
                }
            }
            s
        }
    }
    |m| {
        show![m::uses_macros(5), m::uses_macros(7), m::write_to(4)]
    }
}

group! {
    temporaries {
        // A guard from the left of `&&` / `||` must be gone before the
        // right side runs, as it is in the original.
        pub fn refcell_and(c: &RefCell<Vec<i32>>) -> bool {
            c.borrow().len() < 5 && {
                c.borrow_mut().push(1);
                true
            }
        }

        pub fn refcell_or(c: &RefCell<Vec<i32>>) -> bool {
            c.borrow().is_empty() || {
                c.borrow_mut().push(2);
                false
            }
        }

        pub fn refcell_if(c: &RefCell<Vec<i32>>) -> usize {
            if c.borrow().len() > 1 {
                c.borrow_mut().push(3);
            }
            let mut guard = 0;
            while c.borrow().len() < 6 {
                c.borrow_mut().push(4);
                guard += 1;
                if guard > 100 {
                    break;
                }
            }
            c.borrow().len()
        }

        pub fn refcell_cmp(c: &RefCell<Vec<i32>>) -> bool {
            let x = c.borrow().len() == 6;
            c.borrow_mut().push(5);
            x
        }

        pub fn extended(a: i32) -> i32 {
            let r = &(a + 1);
            let s = &-a;
            let t = &(a < 3);
            let u = match a {
                0 => &(a * 2),
                _ => &(a * 3),
            };
            *r + *s + *t as i32 + *u
        }
    }
    |m| {
        let c = RefCell::new(vec![]);
        show![
            m::refcell_or(&c),
            m::refcell_and(&c),
            m::refcell_or(&c),
            m::refcell_if(&c),
            m::refcell_cmp(&c),
            c.borrow().clone(),
            m::extended(2),
            m::extended(0),
        ]
    }
}
