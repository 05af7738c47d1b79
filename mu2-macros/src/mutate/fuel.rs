//! The copy of a function body that runs when the active mutant is in
//! another function: the body as written, plus a step of the budget per
//! loop iteration. A mutant elsewhere can make any loop endless (a length it
//! computes, a flag it never sets), so even unmutated code must be able to
//! end in TIMEOUT.

use proc_macro2::TokenStream;
use quote::quote;
use syn::visit_mut::{self, VisitMut};
use syn::{Block, Expr, Item, Stmt};

/// `block` with a budget step at the top of every loop body, and how many
/// steps it counts in the function's local `__mu2_fuel` (zero means the
/// caller need not declare it).
///
/// Loops directly in the body count in the local, a decrement on a register
/// (`Fuel::tick`); loops in closures and `async` blocks, which may run after
/// the call returns and cannot borrow the local, count in the thread's budget
/// (`step()`), as do the closures' calls themselves.
pub fn fueled(mut block: Block) -> (Block, usize) {
    let mut f = Fueler {
        nested: 0,
        local: 0,
    };
    f.visit_block_mut(&mut block);
    (block, f.local)
}

struct Fueler {
    /// Closures and `async` blocks around the current expression.
    nested: u32,
    /// Steps counted in the local.
    local: usize,
}

impl Fueler {
    fn step(&mut self) -> TokenStream {
        if self.nested == 0 {
            self.local += 1;
            quote!(__mu2_fuel.tick();)
        } else {
            quote!(::mu2::__rt::step();)
        }
    }

    fn loop_body(&mut self, body: &mut Block) {
        self.visit_block_mut(body);
        let step = self.step();
        body.stmts.insert(0, Stmt::Item(Item::Verbatim(step)));
    }
}

impl VisitMut for Fueler {
    fn visit_expr_mut(&mut self, e: &mut Expr) {
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
                self.nested += 1;
                self.visit_expr_mut(&mut c.body);
                self.nested -= 1;
                let step = quote!(::mu2::__rt::step(););
                match &mut *c.body {
                    // Into the closure's own block: braces around it would
                    // be "unnecessary" to the `unused_braces` lint.
                    Expr::Block(b) if b.label.is_none() && b.attrs.is_empty() => {
                        b.block.stmts.insert(0, Stmt::Item(Item::Verbatim(step)))
                    }
                    body => *body = Expr::Verbatim(quote!({ #step #body })),
                }
            }
            Expr::Async(a) => {
                self.nested += 1;
                self.visit_block_mut(&mut a.block);
                self.nested -= 1;
            }
            _ => visit_mut::visit_expr_mut(self, e),
        }
    }

    // Items are not copied (see `copyable`), but a `use` may be there.
    fn visit_item_mut(&mut self, _: &mut Item) {}
}
