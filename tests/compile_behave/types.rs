//! Return types (Result, Option, Default, references, generics, `Self`),
//! and the attribute on each kind of item outside a module: `fn`, `impl`,
//! `trait`, items made by `macro_rules!`, items inside a function body.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt::Debug;
use std::rc::Rc;

pub fn groups() -> Vec<crate::Group> {
    vec![
        returns::GROUP,
        crate::Group {
            meta_module: standalone::MODULE,
            meta: standalone::drive,
            plain: standalone::expected,
        },
    ]
}

group! {
    returns {
        #[derive(Debug, PartialEq)]
        pub struct NoDefault(pub u8);

        pub type Res<T> = Result<T, String>;

        pub fn result(n: i32) -> Result<Vec<u8>, String> {
            if n < 0 {
                return Err("negative".into());
            }
            Ok(vec![n as u8 + 1])
        }

        pub fn alias(n: u8) -> Res<u8> {
            Ok(n + 1)
        }

        pub fn io(n: u8) -> std::io::Result<u8> {
            Ok(n * 2)
        }

        pub fn unit_result(v: &mut Vec<u8>) -> Result<(), String> {
            v.push(1);
            Ok(())
        }

        pub fn option(n: u8) -> Option<u8> {
            n.checked_sub(1)
        }

        pub fn no_default(n: u8) -> NoDefault {
            NoDefault(n + 1)
        }

        pub fn cow(s: &str) -> Cow<'_, str> {
            if s.contains(' ') { Cow::Owned(s.replace(' ', "_")) } else { Cow::Borrowed(s) }
        }

        pub fn slice(v: &[u8]) -> &[u8] {
            &v[1..]
        }

        pub fn generic<T: Clone + Debug>(x: &T) -> T {
            x.clone()
        }

        pub fn generic_default<T: Default + PartialEq>(x: T) -> T {
            if x == T::default() { T::default() } else { x }
        }

        pub fn tuple(a: u8) -> (u8, bool) {
            (a + 1, a > 3)
        }

        pub fn array(a: u8) -> [u8; 2] {
            [a, a + 1]
        }

        pub fn boxed(a: u8) -> Box<dyn Debug> {
            Box::new(a + 1)
        }

        pub fn rc(a: u8) -> Rc<u8> {
            Rc::new(a * 3)
        }

        pub fn map(n: u8) -> BTreeMap<u8, u8> {
            (0..n).map(|i| (i, i * i)).collect()
        }

        pub fn float(x: f32) -> f32 {
            x * 1.5
        }

        pub fn character(c: char) -> char {
            if c < 'z' { ((c as u8) + 1) as char } else { 'a' }
        }

        pub fn unit(v: &mut Vec<u8>) -> () {
            v.push(9);
        }

        pub fn paren(a: u8) -> (u8) {
            a + 2
        }

        pub fn qualified(a: u8) -> ::core::option::Option<u8> {
            Some(a + 3)
        }

        // `Default` only for `'static`: no `Default` mutant for `Doc<'a>`.
        #[derive(Debug)]
        pub struct Doc<'a>(pub Vec<&'a str>);

        impl Default for Doc<'static> {
            fn default() -> Self {
                Doc(vec![])
            }
        }

        impl<'a> FromIterator<&'a str> for Doc<'a> {
            fn from_iter<I: IntoIterator<Item = &'a str>>(iter: I) -> Self {
                Doc(iter.into_iter().filter(|w| w.len() > 1).collect())
            }
        }

        impl<'a> Doc<'a> {
            pub fn parse(s: &'a str) -> Doc<'a> {
                s.split(' ').collect()
            }
            pub fn first(&self) -> Result<Doc<'a>, ()> {
                Ok(Doc(self.0.iter().take(1).copied().collect()))
            }
        }

        impl Doc<'_> {
            pub fn again(&self) -> Self {
                Doc(self.0.clone())
            }
        }

        pub fn doc(s: &str) -> Option<Doc<'_>> {
            Some(Doc::parse(s))
        }
    }
    |m| {
        let mut v = vec![];
        let _ = m::unit_result(&mut v);
        m::unit(&mut v);
        show![
            m::result(2),
            m::result(-1),
            m::alias(3),
            m::io(4).ok(),
            v,
            m::option(0),
            m::option(5),
            m::no_default(1),
            m::cow("a b"),
            m::cow("ab"),
            m::slice(&[1, 2, 3]),
            m::generic(&"g"),
            m::generic_default(0u8),
            m::generic_default(String::from("s")),
            m::tuple(5),
            m::array(1),
            m::boxed(2),
            m::rc(3),
            m::map(3),
            m::float(2.0),
            m::character('c'),
            m::paren(1),
            m::qualified(1),
            m::Doc::parse("ab c de").first().map(|d| d.again()),
            m::doc("xy z"),
        ]
    }
}

/// The attribute on items one at a time.
#[allow(dead_code)]
pub mod standalone {
    pub const MODULE: &str = module_path!();

    #[mu2::mutate]
    pub fn free(a: i32, b: i32) -> i32 {
        if a > b { a - b } else { b - a }
    }

    pub struct Acc {
        pub total: i64,
    }

    #[mu2::mutate]
    impl Acc {
        pub fn add(&mut self, x: i64) -> &mut Self {
            self.total += x;
            self
        }

        pub fn is_big(&self) -> bool {
            self.total > 100
        }
    }

    #[mu2::mutate]
    pub trait Describe {
        fn size(&self) -> usize;
        fn describe(&self) -> String {
            if self.size() == 0 {
                "empty".into()
            } else {
                format!("{} items", self.size())
            }
        }
    }

    impl Describe for Vec<u8> {
        fn size(&self) -> usize {
            self.len()
        }
    }

    // One annotated item per expansion of a `macro_rules!`: each expansion
    // brings its own metadata `static`, all from the same source line.
    pub trait Inc {
        fn inc(self) -> Self;
    }

    macro_rules! inc_impl {
        ($($t:ty),*) => {$(
            #[mu2::mutate]
            impl Inc for $t {
                fn inc(self) -> Self {
                    self + 1
                }
            }
        )*};
    }

    inc_impl!(u8, u16, i64);

    macro_rules! make_fn {
        ($($name:ident),*) => {$(
            #[mu2::mutate]
            pub fn $name(x: i32) -> i32 {
                x * 2
            }
        )*};
    }

    make_fn!(double_a, double_b);

    macro_rules! same_fn_in_modules {
        ($($module:ident),*) => {$(
            pub mod $module {
                #[mu2::mutate]
                pub fn get(x: u32) -> u32 {
                    x + 7
                }
            }
        )*};
    }

    same_fn_in_modules!(first, second);

    // The attribute on one method of a plain `impl` or `trait`.
    pub struct Methods(pub u32);

    impl Methods {
        #[mu2::mutate]
        pub fn get(&self) -> u32 {
            self.0 + 1
        }

        #[mu2::mutate]
        pub fn generic<T: Into<u32>>(&self, t: T) -> u32 {
            self.0 * t.into()
        }
    }

    pub trait Tr {
        fn t(&self) -> u32;

        #[mu2::mutate]
        fn d(&self) -> u32 {
            self.t() * 2
        }
    }

    impl Tr for Methods {
        #[mu2::mutate]
        fn t(&self) -> u32 {
            self.0 - 1
        }
    }

    pub fn with_local_items(x: u32) -> u32 {
        #[mu2::mutate]
        fn local(y: u32) -> u32 {
            y * 3 + 1
        }
        #[mu2::mutate]
        mod local_mod {
            pub fn f(y: u32) -> u32 {
                y - 1
            }
        }
        local(x) + local_mod::f(x)
    }

    pub fn drive() -> Vec<String> {
        let mut acc = Acc { total: 0 };
        acc.add(60).add(50);
        show![
            free(3, 10),
            free(10, 3),
            acc.total,
            acc.is_big(),
            vec![1u8, 2].describe(),
            Vec::<u8>::new().describe(),
            5u8.inc(),
            5u16.inc(),
            (-5i64).inc(),
            double_a(2),
            double_b(3),
            first::get(1),
            second::get(2),
            with_local_items(4),
            Methods(5).get(),
            Methods(5).generic(2u8),
            Methods(5).d(),
        ]
    }

    pub fn expected() -> Vec<String> {
        show![
            7, 7, 110, true, "2 items", "empty", 6u8, 6u16, -4i64, 4, 6, 8u32, 9u32, 16u32, 6u32,
            10u32, 8u32,
        ]
    }
}
