//! A third round, from code written to break the macro: one-line bodies
//! (a release-only lint), constants behind `&` (promoted to `'static`), a
//! guard handed to a function that releases it, and sleeps whose length a
//! mutant can make endless. These groups deny warnings, and the
//! compile-and-behave tests also run in an optimized build.

use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

pub fn groups() -> Vec<crate::Group> {
    vec![
        one_liners::GROUP,
        promoted::GROUP,
        guards::GROUP,
        sleeps::GROUP,
        spawn_apis::GROUP,
    ]
}

strict_group! {
    one_liners {
        pub struct V(pub f64);

        impl V {
            pub fn get(&self) -> f64 { self.0 + 1.0 }
            pub fn twice(&self) -> Self { V(self.0 * 2.0) }
        }

        pub fn one(x: u32) -> u32 { x * 2 }
        pub fn sum3(a: i64, b: i64, c: i64) -> i64 { a + b - c }
        pub fn is_small(x: i32) -> bool { x < 10 && x > -10 }
        pub fn nothing(v: &mut Vec<u8>) { v.push(1) }
    }
    |m| {
        let mut v = Vec::new();
        m::nothing(&mut v);
        show![m::V(1.5).get(), m::V(2.0).twice().0, m::one(3), m::sum3(1, 2, 3), m::is_small(4), m::is_small(40), v]
    }
}

strict_group! {
    promoted {
        pub const LIMIT: u32 = 7;

        pub fn size() -> &'static u32 {
            &(1 << 10)
        }

        pub fn table() -> &'static [u32] {
            &[1 << 10, 1 << 20, 3 * 4, LIMIT + 1, u8::MAX as u32 - 1]
        }

        pub fn pairs() -> &'static [(i32, i32)] {
            &[(-1, 0), (0, 1 + 1), (2 * 3, -(4))]
        }

        pub fn flags() -> &'static [bool; 2] {
            &[1 < 2, 3 >= 4]
        }

        // Not promoted (a variable): mutated as usual.
        pub fn scaled(k: u32) -> u32 {
            let r = &(k * 3);
            *r + size() + table()[3]
        }
    }
    |m| { show![m::size(), m::table(), m::pairs(), m::flags(), m::scaled(2)] }
}

strict_group! {
    guards {
        fn finish(_g: MutexGuard<'_, Vec<u32>>) {}

        fn release<T>(g: T) -> usize {
            std::mem::drop(g);
            1
        }

        /// The guard goes to `finish`, which drops it; without that call
        /// the second `lock()` would wait for this thread forever.
        pub fn record(m: &Mutex<Vec<u32>>, x: u32) -> usize {
            let mut g = m.lock().unwrap();
            g.push(x * 2);
            finish(g);
            m.lock().unwrap().len()
        }

        pub fn record_twice(m: &Mutex<Vec<u32>>, x: u32) -> usize {
            let mut g = m.lock().unwrap();
            if x > 1 {
                g.push(x);
            }
            release(g);
            let mut again = m.lock().unwrap();
            again.push(x + 1);
            again.len()
        }
    }
    |m| {
        let shared = Mutex::new(Vec::new());
        let a = m::record(&shared, 3);
        let b = m::record_twice(&shared, 4);
        show![a, b, shared.lock().unwrap()]
    }
}

strict_group! {
    sleeps {
        /// Sleeps for what is left of an interval. `<` -> `>=` makes the
        /// subtraction wrap around (in an optimized build) to a sleep of
        /// 584 million years.
        pub fn pace(start: Instant, interval_ms: u64) -> bool {
            let elapsed = start.elapsed().as_millis() as u64;
            if elapsed < interval_ms {
                std::thread::sleep(Duration::from_millis(interval_ms - elapsed));
            }
            elapsed >= interval_ms
        }

        pub fn backoff(attempt: u32) -> Duration {
            Duration::from_micros(10u64 << attempt.min(4))
        }

        pub fn retry(n: u32) -> u32 {
            let mut tries = 0;
            for k in 0..n {
                std::thread::sleep(backoff(k));
                tries += 1;
            }
            tries
        }
    }
    |m| {
        show![m::pace(Instant::now() - Duration::from_millis(50), 2), m::retry(3)]
    }
}

strict_group! {
    spawn_apis {
        use std::fmt::Debug;

        /// A pool whose `spawn` takes a function pointer: a closure literal
        /// must still coerce to it.
        pub struct Pool;

        impl Pool {
            pub fn spawn(&self, job: fn() -> u32) -> u32 {
                job() + 1
            }
        }

        pub fn join(a: fn() -> u32, b: fn() -> u32) -> u32 {
            a() * 10 + b()
        }

        pub fn spawn_copy<F: Fn() -> u32 + Copy>(f: F) -> u32 {
            let g = f;
            f() + g()
        }

        /// The bound's return type drives the closure's coercions.
        pub fn spawn_boxed<F: FnOnce() -> Box<dyn Debug + Send>>(f: F) -> String {
            format!("{:?}", f())
        }

        pub fn describe(c: bool) -> String {
            spawn_boxed(move || if c { Box::new(1 + 2) } else { Box::new("three") })
        }

        pub fn pooled() -> u32 {
            Pool.spawn(|| 6 * 7) + join(|| 1 + 1, || 3) + spawn_copy(|| 2 + 3)
        }

        /// `FnMut` closures on scoped threads, and a closure that moves its
        /// capture out (`FnOnce`).
        pub fn tallies(words: &[&str]) -> (usize, usize, String) {
            let (mut short, mut long) = (0, 0);
            let owned = words.join("-");
            let joined = std::thread::scope(|s| {
                s.spawn(|| {
                    for w in words {
                        if w.len() < 4 {
                            short += 1;
                        }
                    }
                });
                s.spawn(|| long = words.iter().filter(|w| w.len() >= 4).count());
                s.spawn(move || owned).join().unwrap()
            });
            (short, long, joined)
        }
    }
    |m| {
        show![m::pooled(), m::describe(true), m::describe(false), m::tallies(&["a", "word", "is", "here"])]
    }
}
