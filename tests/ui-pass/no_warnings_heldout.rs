//! Warning-free code of the kinds the heldout groups cover stays
//! warning-free under the attribute: consts read in comparisons, `Drop`
//! impls, `extern "C"` functions, async recursion, `drop` calls, operator
//! impls, slice patterns, labeled breaks.
#![deny(warnings)]

#[mu2::mutate]
mod code {
    use std::cell::RefCell;
    use std::ops::{Add, AddAssign, Neg};
    use std::sync::{Mutex, mpsc};

    pub struct Limits {
        pub max: i32,
        pub steps: [u8; 3],
    }

    pub const LIMITS: Limits = Limits {
        max: 10,
        steps: [1, 2, 4],
    };
    pub const PRIMES: [u32; 3] = [2, 3, 5];

    pub fn within(n: i32, i: usize) -> bool {
        n < LIMITS.max && PRIMES[i] > 1 && LIMITS.steps[i] != 0
    }

    pub struct Guard<'a> {
        pub log: &'a RefCell<Vec<i64>>,
        pub id: usize,
    }

    impl Drop for Guard<'_> {
        fn drop(&mut self) {
            let i = self.id - 1;
            self.log.borrow_mut()[i] += 1;
        }
    }

    pub extern "C" fn count_up(n: u32) -> u32 {
        let mut i = 0;
        while i < n {
            i += 1;
        }
        i
    }

    pub async fn depth(n: i64) -> i64 {
        if n <= 0 {
            0
        } else {
            Box::pin(depth(n - 1)).await + 1
        }
    }

    pub fn squares(n: u64) -> u64 {
        let (tx, rx) = mpsc::channel();
        for i in 0..n {
            tx.send(i * i).unwrap();
        }
        drop(tx);
        rx.iter().sum()
    }

    pub fn relock(m: &Mutex<Vec<u8>>) -> usize {
        let mut g = m.lock().unwrap();
        g.push(1);
        drop(g);
        m.lock().unwrap().len() + 1
    }

    #[derive(Clone, Copy, Debug, PartialEq)]
    pub struct V2 {
        pub x: i64,
        pub y: i64,
    }

    impl Add for V2 {
        type Output = V2;
        fn add(self, o: V2) -> V2 {
            V2 {
                x: self.x + o.x,
                y: self.y + o.y,
            }
        }
    }

    impl Neg for V2 {
        type Output = V2;
        fn neg(self) -> V2 {
            V2 {
                x: -self.x,
                y: -self.y,
            }
        }
    }

    impl AddAssign for V2 {
        fn add_assign(&mut self, o: V2) {
            self.x += o.x;
            self.y += o.y;
        }
    }

    pub fn ends(v: &[i32]) -> i32 {
        match v {
            [] => 0,
            [x] => *x,
            [first, .., last] if first == last => first * 10,
            [first, rest @ ..] => first + rest.len() as i32,
        }
    }

    pub fn first_neg(grid: &[Vec<i32>]) -> Option<(usize, usize)> {
        'outer: {
            for (i, row) in grid.iter().enumerate() {
                for (j, &x) in row.iter().enumerate() {
                    if x < 0 {
                        break 'outer Some((i, j));
                    }
                }
            }
            None
        }
    }
}

fn main() {
    let log = std::cell::RefCell::new(vec![0, 0]);
    {
        let _g = code::Guard { log: &log, id: 1 };
    }
    let mut v = code::V2 { x: 1, y: 2 };
    v += -v + v;
    let _ = (
        code::within(3, 1),
        code::count_up(3),
        code::depth(2),
        code::squares(3),
        code::relock(&Default::default()),
        code::ends(&[1, 2]),
        code::first_neg(&[vec![1, -1]]),
        v,
    );
}
