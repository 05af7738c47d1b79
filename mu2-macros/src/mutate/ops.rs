//! The operator table: which alternatives each piece of syntax gets.
//! Mirrors `mu2_runtime::Operator`, whose variant names the generated code uses.

use proc_macro2::TokenStream;
use quote::quote;
use syn::BinOp;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operator {
    ConditionalsBoundary,
    NegateConditionals,
    RemoveConditionals,
    Math,
    Increments,
    InvertNegatives,
    Boolean,
    VoidCalls,
    Returns,
}

impl Operator {
    pub const ALL: [Operator; 9] = [
        Operator::ConditionalsBoundary,
        Operator::NegateConditionals,
        Operator::RemoveConditionals,
        Operator::Math,
        Operator::Increments,
        Operator::InvertNegatives,
        Operator::Boolean,
        Operator::VoidCalls,
        Operator::Returns,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Operator::ConditionalsBoundary => "conditionals_boundary",
            Operator::NegateConditionals => "negate_conditionals",
            Operator::RemoveConditionals => "remove_conditionals",
            Operator::Math => "math",
            Operator::Increments => "increments",
            Operator::InvertNegatives => "invert_negatives",
            Operator::Boolean => "boolean",
            Operator::VoidCalls => "void_calls",
            Operator::Returns => "returns",
        }
    }

    pub fn from_name(name: &str) -> Option<Operator> {
        Operator::ALL.into_iter().find(|o| o.name() == name)
    }

    /// The runtime's variant, for the generated metadata.
    pub fn path(self) -> TokenStream {
        let variant = match self {
            Operator::ConditionalsBoundary => quote!(ConditionalsBoundary),
            Operator::NegateConditionals => quote!(NegateConditionals),
            Operator::RemoveConditionals => quote!(RemoveConditionals),
            Operator::Math => quote!(Math),
            Operator::Increments => quote!(Increments),
            Operator::InvertNegatives => quote!(InvertNegatives),
            Operator::Boolean => quote!(Boolean),
            Operator::VoidCalls => quote!(VoidCalls),
            Operator::Returns => quote!(Returns),
        };
        quote!(::mu2::__rt::Operator::#variant)
    }
}

/// An arithmetic or bitwise operator, or its compound assignment.
pub struct Arith {
    pub original: &'static str,
    pub replacement: &'static str,
    /// The `kind` method that yields the replacement (`__mu2_sub`, ...).
    pub method: &'static str,
    pub assign: bool,
}

pub fn arith(op: &BinOp) -> Option<Arith> {
    let (original, replacement, method, assign) = match op {
        BinOp::Add(_) => ("+", "-", "__mu2_sub", false),
        BinOp::Sub(_) => ("-", "+", "__mu2_add", false),
        BinOp::Mul(_) => ("*", "/", "__mu2_div", false),
        BinOp::Div(_) => ("/", "*", "__mu2_mul", false),
        BinOp::Rem(_) => ("%", "*", "__mu2_mul", false),
        BinOp::BitAnd(_) => ("&", "|", "__mu2_bitor", false),
        BinOp::BitOr(_) => ("|", "&", "__mu2_bitand", false),
        BinOp::BitXor(_) => ("^", "&", "__mu2_bitand", false),
        BinOp::Shl(_) => ("<<", ">>", "__mu2_shr", false),
        BinOp::Shr(_) => (">>", "<<", "__mu2_shl", false),
        BinOp::AddAssign(_) => ("+=", "-=", "__mu2_sub_assign", true),
        BinOp::SubAssign(_) => ("-=", "+=", "__mu2_add_assign", true),
        BinOp::MulAssign(_) => ("*=", "/=", "__mu2_div_assign", true),
        BinOp::DivAssign(_) => ("/=", "*=", "__mu2_mul_assign", true),
        BinOp::RemAssign(_) => ("%=", "*=", "__mu2_mul_assign", true),
        BinOp::BitAndAssign(_) => ("&=", "|=", "__mu2_bitor_assign", true),
        BinOp::BitOrAssign(_) => ("|=", "&=", "__mu2_bitand_assign", true),
        BinOp::BitXorAssign(_) => ("^=", "&=", "__mu2_bitand_assign", true),
        BinOp::ShlAssign(_) => ("<<=", ">>=", "__mu2_shr_assign", true),
        BinOp::ShrAssign(_) => (">>=", "<<=", "__mu2_shl_assign", true),
        _ => return None,
    };
    Some(Arith {
        original,
        replacement,
        method,
        assign,
    })
}

/// A comparison: its runtime name and its alternatives (boundary, then negation).
pub struct Comparison {
    pub original: &'static str,
    pub cmp: &'static str,
    pub ordered: bool,
    pub alts: &'static [(Operator, &'static str, &'static str)],
}

pub fn comparison(op: &BinOp) -> Option<Comparison> {
    use Operator::{ConditionalsBoundary as B, NegateConditionals as N};
    let (original, cmp, ordered, alts): (_, _, _, &'static [_]) = match op {
        BinOp::Lt(_) => ("<", "Lt", true, &[(B, "<=", "Le"), (N, ">=", "Ge")]),
        BinOp::Le(_) => ("<=", "Le", true, &[(B, "<", "Lt"), (N, ">", "Gt")]),
        BinOp::Gt(_) => (">", "Gt", true, &[(B, ">=", "Ge"), (N, "<=", "Le")]),
        BinOp::Ge(_) => (">=", "Ge", true, &[(B, ">", "Gt"), (N, "<", "Lt")]),
        BinOp::Eq(_) => ("==", "Eq", false, &[(N, "!=", "Ne")]),
        BinOp::Ne(_) => ("!=", "Ne", false, &[(N, "==", "Eq")]),
        _ => return None,
    };
    Some(Comparison {
        original,
        cmp,
        ordered,
        alts,
    })
}
