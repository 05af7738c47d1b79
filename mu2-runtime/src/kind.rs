//! Compile-time choice between a real alternative and an unviable one.
//!
//! A mutant such as `a - b` for `a + b` only type-checks when the operand
//! types implement `Sub` with the same output. Generated code asks with a
//! method call on a zero-sized token, `o.__mu2_sub()`: method resolution
//! prefers the impl on `Ops<L, R, O>` (which requires `L: Sub<R, Output = O>`)
//! and falls back to the impl on `&Ops<L, R, O>` (no bounds) otherwise. This is
//! autoref-based specialization; it works on stable Rust for concrete, generic,
//! reference and literal operands, and the fallback reports the mutant
//! unviable at run time instead of breaking the build.
//!
//! The traits are brought into scope anonymously with
//! `use ::mu2::__rt::prelude::*;`, so they add no names to the user's code.

use std::marker::PhantomData;
use std::ops::*;

use crate::site::{Cmp, equal, order};

/// Token for a binary operator site with operand types `L`, `R` and output `O`.
pub struct Ops<L, R, O>(PhantomData<fn(L, R) -> O>);
/// Token for a compound assignment `L op= R`.
pub struct Asg<L, R>(PhantomData<fn(&mut L, R)>);
/// Token for a unary operator site `X -> O`.
pub struct Un<X, O>(PhantomData<fn(X) -> O>);
/// Token for a function returning `T`.
pub struct Ret<T>(PhantomData<fn() -> T>);
/// Token for a comparison of an `L` with an `R`.
pub struct Cmps<L: ?Sized, R: ?Sized>(PhantomData<fn(&L, &R)>);

impl<L, R, O> Ops<L, R, O> {
    pub(crate) const NEW: Self = Ops(PhantomData);
}
impl<L, R> Asg<L, R> {
    pub(crate) const NEW: Self = Asg(PhantomData);
}
impl<X, O> Un<X, O> {
    pub(crate) const NEW: Self = Un(PhantomData);
}
impl<T> Ret<T> {
    pub const NEW: Self = Ret(PhantomData);
}
impl<L: ?Sized, R: ?Sized> Cmps<L, R> {
    pub(crate) const NEW: Self = Cmps(PhantomData);
}

/// A binary alternative, or `None` when it is unviable for these types.
pub type BinAlt<L, R, O> = Option<fn(L, R) -> O>;
/// A compound-assignment alternative.
pub type AsgAlt<L, R> = Option<fn(&mut L, R)>;
/// A unary alternative.
pub type UnAlt<X, O> = Option<fn(X) -> O>;
/// How to evaluate the alternatives of a comparison, or `None` when the
/// operands cannot be compared (then the original did not compile either).
pub type CmpAlt<L, R> = Option<fn(Cmp, &L, &R) -> bool>;

/// How to copy the operands and compare results of a binary site, when the
/// types allow it: needed to evaluate alternatives without side effects.
pub struct BinDup<L, R, O> {
    pub(crate) l: fn(&L) -> L,
    pub(crate) r: fn(&R) -> R,
    pub(crate) eq: fn(&O, &O) -> bool,
}
pub struct AsgDup<L, R> {
    pub(crate) l: fn(&L) -> L,
    pub(crate) r: fn(&R) -> R,
    pub(crate) eq: fn(&L, &L) -> bool,
}
pub struct UnDup<X, O> {
    pub(crate) x: fn(&X) -> X,
    pub(crate) eq: fn(&O, &O) -> bool,
}

macro_rules! binary {
    ($($Op:ident $method:ident $Yes:ident $No:ident ($op:tt);)*) => {$(
        pub trait $Yes<L, R, O> { fn $method(&self) -> BinAlt<L, R, O>; }
        impl<L: $Op<R, Output = O>, R, O> $Yes<L, R, O> for Ops<L, R, O> {
            #[cfg_attr(not(debug_assertions), inline(always))]
            fn $method(&self) -> BinAlt<L, R, O> { Some(|l, r| l $op r) }
        }
        pub trait $No<L, R, O> { fn $method(&self) -> BinAlt<L, R, O>; }
        impl<L, R, O> $No<L, R, O> for &Ops<L, R, O> {
            #[cfg_attr(not(debug_assertions), inline(always))]
            fn $method(&self) -> BinAlt<L, R, O> { None }
        }
    )*};
}

binary! {
    Add __mu2_add AddYes AddNo (+);
    Sub __mu2_sub SubYes SubNo (-);
    Mul __mu2_mul MulYes MulNo (*);
    Div __mu2_div DivYes DivNo (/);
    BitAnd __mu2_bitand BitAndYes BitAndNo (&);
    BitOr __mu2_bitor BitOrYes BitOrNo (|);
    Shl __mu2_shl ShlYes ShlNo (<<);
    Shr __mu2_shr ShrYes ShrNo (>>);
}

macro_rules! assign {
    ($($Op:ident $method:ident $Yes:ident $No:ident ($op:tt);)*) => {$(
        pub trait $Yes<L, R> { fn $method(&self) -> AsgAlt<L, R>; }
        impl<L: $Op<R>, R> $Yes<L, R> for Asg<L, R> {
            #[cfg_attr(not(debug_assertions), inline(always))]
            fn $method(&self) -> AsgAlt<L, R> { Some(|l, r| *l $op r) }
        }
        pub trait $No<L, R> { fn $method(&self) -> AsgAlt<L, R>; }
        impl<L, R> $No<L, R> for &Asg<L, R> {
            #[cfg_attr(not(debug_assertions), inline(always))]
            fn $method(&self) -> AsgAlt<L, R> { None }
        }
    )*};
}

assign! {
    AddAssign __mu2_add_assign AddAssignYes AddAssignNo (+=);
    SubAssign __mu2_sub_assign SubAssignYes SubAssignNo (-=);
    MulAssign __mu2_mul_assign MulAssignYes MulAssignNo (*=);
    DivAssign __mu2_div_assign DivAssignYes DivAssignNo (/=);
    BitAndAssign __mu2_bitand_assign BitAndAssignYes BitAndAssignNo (&=);
    BitOrAssign __mu2_bitor_assign BitOrAssignYes BitOrAssignNo (|=);
    ShlAssign __mu2_shl_assign ShlAssignYes ShlAssignNo (<<=);
    ShrAssign __mu2_shr_assign ShrAssignYes ShrAssignNo (>>=);
}

/// `-x` -> `x` and `!b` -> `b` need the operand's type to be the output's.
pub trait IdYes<X, O> {
    fn __mu2_id(&self) -> UnAlt<X, O>;
}
impl<X> IdYes<X, X> for Un<X, X> {
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn __mu2_id(&self) -> UnAlt<X, X> {
        Some(|x| x)
    }
}
pub trait IdNo<X, O> {
    fn __mu2_id(&self) -> UnAlt<X, O>;
}
impl<X, O> IdNo<X, O> for &Un<X, O> {
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn __mu2_id(&self) -> UnAlt<X, O> {
        None
    }
}

pub trait BinDupYes<L, R, O> {
    fn __mu2_dup(&self) -> Option<BinDup<L, R, O>>;
}
impl<L: Copy, R: Copy, O: PartialEq> BinDupYes<L, R, O> for Ops<L, R, O> {
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn __mu2_dup(&self) -> Option<BinDup<L, R, O>> {
        Some(BinDup {
            l: |l| *l,
            r: |r| *r,
            eq: |a, b| a == b,
        })
    }
}
pub trait BinDupNo<L, R, O> {
    fn __mu2_dup(&self) -> Option<BinDup<L, R, O>>;
}
impl<L, R, O> BinDupNo<L, R, O> for &Ops<L, R, O> {
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn __mu2_dup(&self) -> Option<BinDup<L, R, O>> {
        None
    }
}

pub trait AsgDupYes<L, R> {
    fn __mu2_dup(&self) -> Option<AsgDup<L, R>>;
}
impl<L: Copy + PartialEq, R: Copy> AsgDupYes<L, R> for Asg<L, R> {
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn __mu2_dup(&self) -> Option<AsgDup<L, R>> {
        Some(AsgDup {
            l: |l| *l,
            r: |r| *r,
            eq: |a, b| a == b,
        })
    }
}
pub trait AsgDupNo<L, R> {
    fn __mu2_dup(&self) -> Option<AsgDup<L, R>>;
}
impl<L, R> AsgDupNo<L, R> for &Asg<L, R> {
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn __mu2_dup(&self) -> Option<AsgDup<L, R>> {
        None
    }
}

pub trait UnDupYes<X, O> {
    fn __mu2_dup(&self) -> Option<UnDup<X, O>>;
}
impl<X: Copy, O: PartialEq> UnDupYes<X, O> for Un<X, O> {
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn __mu2_dup(&self) -> Option<UnDup<X, O>> {
        Some(UnDup {
            x: |x| *x,
            eq: |a, b| a == b,
        })
    }
}
pub trait UnDupNo<X, O> {
    fn __mu2_dup(&self) -> Option<UnDup<X, O>>;
}
impl<X, O> UnDupNo<X, O> for &Un<X, O> {
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn __mu2_dup(&self) -> Option<UnDup<X, O>> {
        None
    }
}

/// The alternatives of `<`, `<=`, `>`, `>=` need `PartialOrd`.
pub trait OrdYes<L: ?Sized, R: ?Sized> {
    fn __mu2_ord(&self) -> CmpAlt<L, R>;
}
impl<L: ?Sized + PartialOrd<R>, R: ?Sized> OrdYes<L, R> for Cmps<L, R> {
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn __mu2_ord(&self) -> CmpAlt<L, R> {
        Some(order::<L, R>)
    }
}
pub trait OrdNo<L: ?Sized, R: ?Sized> {
    fn __mu2_ord(&self) -> CmpAlt<L, R>;
}
impl<L: ?Sized, R: ?Sized> OrdNo<L, R> for &Cmps<L, R> {
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn __mu2_ord(&self) -> CmpAlt<L, R> {
        None
    }
}

/// The alternatives of `==` and `!=` need `PartialEq`.
pub trait EqYes<L: ?Sized, R: ?Sized> {
    fn __mu2_eq(&self) -> CmpAlt<L, R>;
}
impl<L: ?Sized + PartialEq<R>, R: ?Sized> EqYes<L, R> for Cmps<L, R> {
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn __mu2_eq(&self) -> CmpAlt<L, R> {
        Some(equal::<L, R>)
    }
}
pub trait EqNo<L: ?Sized, R: ?Sized> {
    fn __mu2_eq(&self) -> CmpAlt<L, R>;
}
impl<L: ?Sized, R: ?Sized> EqNo<L, R> for &Cmps<L, R> {
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn __mu2_eq(&self) -> CmpAlt<L, R> {
        None
    }
}

/// Whether `T` is one of the language's primitive scalars (or a reference
/// to one), whose operators are built in or std's: evaluating them calls no
/// user code, and a comparison reads them at once, by value. Decided by the
/// type's name, which optimized builds fold to a constant (a test checks
/// the names).
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn builtin<T: ?Sized>() -> bool {
    // `&i32 + &i32` and `&&str`-like references to them are std's own
    // forwarding impls.
    matches!(
        std::any::type_name::<T>().trim_start_matches('&'),
        "i8" | "i16"
            | "i32"
            | "i64"
            | "i128"
            | "isize"
            | "u8"
            | "u16"
            | "u32"
            | "u64"
            | "u128"
            | "usize"
            | "f32"
            | "f64"
            | "bool"
            | "char"
    )
}

/// A comparison operand that is a place reached through a field or an
/// index (`p.x`, `v[i]`), taken by address with `&raw const`: a field of a
/// `#[repr(packed)]` struct cannot be borrowed, only read.
///
/// [`PlaceSized::__mu2_read`] then reads a primitive scalar ([`builtin`])
/// at once, as a builtin comparison does, so the right side may even
/// change the place afterwards (`a.n < a.bump()`), and so an unaligned
/// place; anything else is compared where it is, through the pointer, as
/// the original borrowed it.
pub struct Place<L: ?Sized>(pub *const L);

/// A read comparison operand; dereferences to the value.
pub enum Operand<L> {
    Value(std::mem::ManuallyDrop<L>),
    At(*const L),
}

/// An unsized place operand (a slice or `str` tail field), compared where it is.
pub struct UnsizedOperand<L: ?Sized>(*const L);

pub trait PlaceSized<L> {
    fn __mu2_read(&self) -> Operand<L>;
}
impl<L> PlaceSized<L> for Place<L> {
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn __mu2_read(&self) -> Operand<L> {
        let p = self.0;
        if p.is_aligned() && !builtin::<L>() {
            // Compared where it is, as the original borrowed it: a
            // `PartialEq` may look at the address, or count comparisons in
            // a `Cell` of the value.
            Operand::At(p)
        } else {
            // SAFETY: `p` is `&raw const` of a live place (see `Place`). The
            // copy is never dropped, and only read through `&`.
            Operand::Value(std::mem::ManuallyDrop::new(unsafe { p.read_unaligned() }))
        }
    }
}
pub trait PlaceUnsized<L: ?Sized> {
    fn __mu2_read(&self) -> UnsizedOperand<L>;
}
impl<L: ?Sized> PlaceUnsized<L> for &Place<L> {
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn __mu2_read(&self) -> UnsizedOperand<L> {
        UnsizedOperand(self.0)
    }
}

impl<L> std::ops::Deref for Operand<L> {
    type Target = L;
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn deref(&self) -> &L {
        match self {
            Operand::Value(v) => v,
            // SAFETY: aligned, and the place is live and not written while
            // the comparison runs: the original held a shared borrow of it
            // for as long (only primitives are compared without one, and
            // they are copied above).
            Operand::At(p) => unsafe { &**p },
        }
    }
}
impl<L: ?Sized> std::ops::Deref for UnsizedOperand<L> {
    type Target = L;
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn deref(&self) -> &L {
        // SAFETY: as for `Operand::At`; an unsized place is aligned (a
        // packed struct cannot end in one).
        unsafe { &*self.0 }
    }
}

// Held across an `.await` in the other operand, these must be `Send` when
// the `&L` the original held there was.
// SAFETY: each is used as a `&L` only.
unsafe impl<L: ?Sized + Sync> Send for Place<L> {}
unsafe impl<L: ?Sized + Sync> Sync for Place<L> {}
unsafe impl<L: Sync> Send for Operand<L> {}
unsafe impl<L: Sync> Sync for Operand<L> {}
unsafe impl<L: ?Sized + Sync> Send for UnsizedOperand<L> {}
unsafe impl<L: ?Sized + Sync> Sync for UnsizedOperand<L> {}

/// `Default::default()` as a return value, where the type has it.
pub trait DefaultYes<T> {
    fn __mu2_default(&self) -> Option<fn() -> T>;
}
impl<T: Default> DefaultYes<T> for Ret<T> {
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn __mu2_default(&self) -> Option<fn() -> T> {
        Some(T::default)
    }
}
pub trait DefaultNo<T> {
    fn __mu2_default(&self) -> Option<fn() -> T>;
}
impl<T> DefaultNo<T> for &Ret<T> {
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn __mu2_default(&self) -> Option<fn() -> T> {
        None
    }
}

/// A driver's generated input, shown with `Debug` where its type has it.
pub struct Show<'a, T>(pub &'a T);

pub trait ShowYes {
    fn __mu2_show(&self) -> Option<String>;
}
impl<T: std::fmt::Debug> ShowYes for Show<'_, T> {
    fn __mu2_show(&self) -> Option<String> {
        Some(format!("{:#?}", self.0))
    }
}
pub trait ShowNo {
    fn __mu2_show(&self) -> Option<String>;
}
impl<T> ShowNo for &Show<'_, T> {
    fn __mu2_show(&self) -> Option<String> {
        None
    }
}

/// The traits above, imported anonymously by generated code.
pub mod prelude {
    pub use super::{
        AddAssignNo as _, AddAssignYes as _, AddNo as _, AddYes as _, AsgDupNo as _,
        AsgDupYes as _, BinDupNo as _, BinDupYes as _, BitAndAssignNo as _, BitAndAssignYes as _,
        BitAndNo as _, BitAndYes as _, BitOrAssignNo as _, BitOrAssignYes as _, BitOrNo as _,
        BitOrYes as _, DefaultNo as _, DefaultYes as _, DivAssignNo as _, DivAssignYes as _,
        DivNo as _, DivYes as _, EqNo as _, EqYes as _, IdNo as _, IdYes as _, MulAssignNo as _,
        MulAssignYes as _, MulNo as _, MulYes as _, OrdNo as _, OrdYes as _, PlaceSized as _,
        PlaceUnsized as _, ShlAssignNo as _, ShlAssignYes as _, ShlNo as _, ShlYes as _,
        ShrAssignNo as _, ShrAssignYes as _, ShrNo as _, ShrYes as _, SubAssignNo as _,
        SubAssignYes as _, SubNo as _, SubYes as _, UnDupNo as _, UnDupYes as _,
    };
    pub use super::{ShowNo as _, ShowYes as _};
    pub use crate::site::QOther as _;

    /// Named by generated code (`let _: __Mu2Prelude;`) right after the
    /// import, so that the import counts as used even when every site that
    /// calls a method of the traits above is configured out.
    ///
    /// ```
    /// use mu2_runtime::__rt::prelude::*;
    /// let _: __Mu2Prelude;
    /// ```
    #[allow(non_camel_case_types)]
    pub struct __Mu2Prelude;
}

#[cfg(test)]
mod tests {
    use super::builtin;

    #[test]
    fn primitive_scalars_are_told_by_name() {
        assert!(builtin::<i32>() && builtin::<u128>() && builtin::<usize>());
        assert!(builtin::<f64>() && builtin::<bool>() && builtin::<char>());
        struct Slot;
        assert!(builtin::<&i32>() && builtin::<&&u8>());
        assert!(!builtin::<Slot>() && !builtin::<&Slot>() && !builtin::<str>());
        assert!(!builtin::<String>() && !builtin::<[u8]>() && !builtin::<(i32,)>());
    }
}
