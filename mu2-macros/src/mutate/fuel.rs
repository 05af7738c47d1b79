//! The copy of a function body that runs when the active mutant is in
//! another function: the body as written, plus a step of the budget per
//! loop iteration. A mutant elsewhere can make any loop endless (a length it
//! computes, a flag it never sets), so even unmutated code must be able to
//! end in TIMEOUT.

use proc_macro2::TokenStream;
use quote::quote;
use syn::visit_mut::{self, VisitMut};
use syn::{Block, Expr, Item, Stmt};

use super::carry::Scopes;

/// `block` with a budget step at the top of every loop body, and how many
/// steps it counts in the function's local `__mu2_fuel` (zero means the
/// caller need not declare it).
///
/// Loops directly in the body count in the local, a decrement on a register
/// (`Fuel::tick`); loops in closures and `async` blocks, which may run after
/// the call returns and cannot borrow the local, count in the thread's budget
/// (`step()`), as do the closures' calls themselves.
pub fn fueled(mut block: Block, scopes: &Scopes) -> (Block, usize) {
    let mut f = Fueler { loops: 0, scopes };
    f.visit_block_mut(&mut block);
    (block, f.loops)
}

/// Adds a step of the enclosing body's `__mu2_fuel` to every loop in
/// `block`, in place; returns how many loops it found (closures and `async`
/// blocks inside get counters of their own). For code that is not
/// otherwise instrumented, such as `unsafe` blocks: a mutant elsewhere can
/// still make their loops endless.
pub fn fuel_in_place(block: &mut Block, scopes: &Scopes) -> usize {
    let mut f = Fueler { loops: 0, scopes };
    f.visit_block_mut(block);
    f.loops
}

/// The local that counts a body's loop iterations, for the bodies (function,
/// closure, `async` block) that have loops of their own.
pub fn declare(loops: usize) -> Option<TokenStream> {
    (loops > 0).then(|| quote!(let mut __mu2_fuel = ::mu2::__rt::Fuel::new();))
}

struct Fueler<'a> {
    /// Loops in the current body (not counting those of its closures).
    loops: usize,
    /// Which variables hold thread scopes (see `carry`).
    scopes: &'a Scopes,
}

impl Fueler<'_> {
    fn loop_body(&mut self, body: &mut Block) {
        self.visit_block_mut(body);
        self.loops += 1;
        body.stmts
            .insert(0, Stmt::Item(Item::Verbatim(quote!(__mu2_fuel.tick();))));
    }

    /// A closure's or `async` block's body, with a counter of its own:
    /// it may run after the call returns, and cannot borrow the caller's.
    fn own_body(&mut self, block: &mut Block) {
        let outer = std::mem::replace(&mut self.loops, 0);
        self.visit_block_mut(block);
        if let Some(fuel) = declare(self.loops) {
            block.stmts.insert(0, Stmt::Item(Item::Verbatim(fuel)));
        }
        self.loops = outer;
    }
}

impl VisitMut for Fueler<'_> {
    fn visit_expr_mut(&mut self, e: &mut Expr) {
        if let Some((name, arg)) = super::rewrite::process_call(e) {
            // The copy for a mutant elsewhere runs in a run too.
            let mut arg = arg.clone();
            self.visit_expr_mut(&mut arg);
            *e = super::rewrite::process_call_in_run(name, &arg);
            return;
        }
        match e {
            // Const contexts cannot call the budget; macro bodies are the
            // user's tokens.
            Expr::Const(_) | Expr::Macro(_) | Expr::Verbatim(_) => {}
            Expr::ForLoop(l) => {
                self.visit_expr_mut(&mut l.expr);
                self.loop_body(&mut l.body);
            }
            Expr::While(w) => {
                self.visit_expr_mut(&mut w.cond);
                self.loop_body(&mut w.body);
            }
            Expr::Loop(l) => self.loop_body(&mut l.body),
            Expr::Closure(c) => {
                // Into the closure's own block: braces around it would be
                // "unnecessary" to the `unused_braces` lint.
                if !matches!(&*c.body, Expr::Block(b) if b.label.is_none() && b.attrs.is_empty()) {
                    let body = &c.body;
                    *c.body = syn::parse_quote!({ #body });
                }
                let Expr::Block(b) = &mut *c.body else {
                    unreachable!("made a block above")
                };
                self.own_body(&mut b.block);
                // A closure's call is a step too: an iterator may call it
                // without end.
                b.block
                    .stmts
                    .insert(0, Stmt::Item(Item::Verbatim(quote!(::mu2::__rt::step();))));
            }
            Expr::Async(a) => self.own_body(&mut a.block),
            Expr::Call(_) | Expr::MethodCall(_) => {
                visit_mut::visit_expr_mut(self, e);
                super::carry::spawned(e, self.scopes);
            }
            _ => visit_mut::visit_expr_mut(self, e),
        }
    }

    // Items are not copied (see `copyable`), but a `use` may be there.
    fn visit_item_mut(&mut self, _: &mut Item) {}
}
