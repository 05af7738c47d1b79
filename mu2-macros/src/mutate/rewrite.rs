//! The rewriter: walks an annotated item, turns every mutation site into a
//! call into `::mu2::__rt`, and records each site's metadata in the item's
//! [`UnitBuilder`].
//!
//! Children are rewritten before their parent, so an operand that holds
//! another site arrives already rewritten. The original operator is kept,
//! spelled as the user wrote it with the user's span, inside a closure passed
//! to the runtime: the compiler's own rules for that operator (integer
//! literal inference, coercions, overloaded impls) decide the types exactly
//! as they did before, and type errors still point at the user's code.

use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::visit_mut::{self, VisitMut};
use syn::{
    Attribute, BinOp, Block, Expr, ExprBinary, ExprClosure, ExprIf, ExprMatch, ExprUnary,
    GenericArgument, ImplItem, Item, ItemImpl, ItemMod, ItemTrait, Local, Pat, PathArguments,
    ReturnType, Signature, Stmt, TraitItem, Type, UnOp,
};

use super::args::Config;
use super::ops::{self, Operator};
use super::text;
use super::{carry, fuel};

/// One site's metadata, as it will appear in the `static` unit.
struct SiteMeta {
    line: u32,
    column: u32,
    function: String,
    original: String,
    alts: Vec<(Operator, String)>,
    /// The `cfg` predicates of the code around the site, inside the item.
    cfg: Vec<TokenStream>,
}

/// The `static` that describes one annotated item (or nested module).
pub struct UnitBuilder {
    ident: syn::Ident,
    sites: Vec<SiteMeta>,
    mutants: u32,
    branches: u32,
    /// The `cfg` predicates of the code being walked (a stack).
    cfg: Vec<TokenStream>,
}

impl UnitBuilder {
    /// `item` is the annotated item's source: its hash keeps apart the
    /// statics of items that share a name and a line, as the expansions of
    /// one `macro_rules!` do (`impl Inc for $t`).
    pub fn new(name: &str, span: Span, item: &TokenStream) -> UnitBuilder {
        let (line, _) = text::location(span);
        let hash = text::hash(&item.to_string());
        // Upper-case ASCII only, so that `non_upper_case_globals` never
        // fires and needs no `allow` (which a crate forbidding the lint
        // rejects).
        let clean: String = name
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() {
                    c.to_ascii_uppercase()
                } else {
                    '_'
                }
            })
            .collect();
        UnitBuilder {
            ident: format_ident!("__MU2_UNIT_{}_L{}_{:08X}", clean, line, hash as u32),
            sites: Vec::new(),
            mutants: 0,
            branches: 0,
            cfg: Vec::new(),
        }
    }

    /// Registers a site; returns the unit-local index of its first mutant.
    fn site(
        &mut self,
        span: Span,
        function: &str,
        original: String,
        alts: Vec<(Operator, String)>,
    ) -> u32 {
        let (line, column) = text::location(span);
        let first = self.mutants;
        self.mutants += alts.len() as u32;
        self.sites.push(SiteMeta {
            line,
            column,
            function: function.to_string(),
            original,
            alts,
            cfg: self.cfg.clone(),
        });
        first
    }

    /// Reserves `n` branch probes; returns the first.
    fn branches(&mut self, n: u32) -> u32 {
        let first = self.branches;
        self.branches += n;
        first
    }

    /// The unit's statics: the metadata, and its entry in the registry.
    pub fn statics(&self) -> TokenStream {
        let ident = &self.ident;
        let reg = format_ident!("{}_REG", ident);
        let branches = self.branches;
        let sites = self.sites.iter().map(|s| {
            let (line, column, function, original) = (s.line, s.column, &s.function, &s.original);
            let alts = s.alts.iter().map(|(op, replacement)| {
                let op = op.path();
                quote!(::mu2::__rt::Alt { operator: #op, replacement: #replacement })
            });
            // A site in code that a `cfg` configures out is listed, but
            // cannot run: its mutants are left out of reports and scores.
            let compiled = if s.cfg.is_empty() {
                quote!(true)
            } else {
                let cfg = &s.cfg;
                quote!(::core::cfg!(all(#(#cfg),*)))
            };
            quote! {
                ::mu2::__rt::Site {
                    line: #line, column: #column, function: #function, original: #original,
                    alts: &[#(#alts),*], compiled: #compiled,
                }
            }
        });
        quote! {
            #[doc(hidden)]
            static #ident: ::mu2::__rt::Unit = ::mu2::__rt::Unit::new(
                ::core::file!(),
                ::core::module_path!(),
                &[#(#sites),*],
                #branches,
            );
            #[doc(hidden)]
            #[::mu2::__rt::linkme::distributed_slice(::mu2::__rt::UNITS)]
            #[linkme(crate = ::mu2::__rt::linkme)]
            static #reg: &::mu2::__rt::Unit = &#ident;
        }
    }
}

/// What kind of block is being walked: whether its value is discarded, so
/// that removing its last call statement cannot change its type.
#[derive(Clone, Copy, PartialEq, Eq)]
enum BlockKind {
    DiscardsValue,
    /// The body of a function that returns a value.
    Returns,
    Other,
}

pub struct Rewriter {
    config: Config,
    pub unit: UnitBuilder,
    /// The enclosing function, as `name`, `Type::name` or `outer::inner`.
    function: String,
    /// Operator mutations need the operand types to be known where they
    /// stand. Inside a closure with untyped parameters they may be inferred
    /// only later (`let f = |a, b| a + b;`, `Some(|a, b| a + b)`), so there
    /// only probes are added; unless the closure is an argument of a method
    /// or function call, whose bounds give rustc the parameter types first.
    typed: bool,
    /// The current function body calls `kind` methods and needs the prelude.
    needs_prelude: bool,
    /// Inside a body whose prologue binds `__mu2` (a function, a closure or
    /// an `async` block).
    framed: bool,
    /// Loops in the current body, whose iterations count in its local
    /// `__mu2_fuel` (declared when there is at least one).
    loops: usize,
    /// Inside an `impl` whose `Self` has lifetime parameters.
    self_lifetimes: bool,
    /// Inside an `impl Default for ..`, whose `default()` would only call
    /// itself as its `Default::default()` mutant.
    in_default_impl: bool,
    /// The current function has an `unsafe` block, whose soundness its safe
    /// code likely upholds (an index it checked, a table it filled): a
    /// mutant there could be undefined behaviour, which in one process with
    /// the fuzzer would corrupt or abort it. Such a function gets probes
    /// and no mutants.
    has_unsafe: bool,
    /// The current function waits for another thread (`cvar.wait(g)`,
    /// `rx.recv()`, `barrier.wait()`, `thread::park()`): a mutant of the
    /// loop around the wait, or of what it waits for, could have it wait
    /// for a signal that never comes, blocked where no budget reaches. Such
    /// a function gets probes and no mutants; so does one that sizes what
    /// others wait on (`Barrier::new(n)`, `sync_channel(n)`).
    waits: bool,
    /// The current function takes a lock (`m.lock()`, `rw.write()`) or is
    /// handed a guard: a call statement that moves a local into a function
    /// (`finish(guard);`) may be what releases the lock, and without it the
    /// next `lock()` on this thread would block forever. Such calls are
    /// not removed.
    locks: bool,
    /// The current function's variables that hold thread scopes.
    scopes: carry::Scopes,
    /// The current function's variables made by an unannotated
    /// `let x = Default::default();`, whose type rustc learns only from
    /// later code (see `late_typed`).
    late: Vec<syn::Ident>,
    /// Errors for code the attribute was put on but cannot mutate.
    pub errors: Vec<syn::Error>,
}

impl Rewriter {
    pub fn new(config: Config, unit: UnitBuilder) -> Rewriter {
        Rewriter {
            config,
            unit,
            function: String::new(),
            typed: true,
            needs_prelude: false,
            framed: false,
            loops: 0,
            self_lifetimes: false,
            in_default_impl: false,
            has_unsafe: false,
            waits: false,
            locks: false,
            scopes: carry::Scopes::default(),
            late: Vec::new(),
            errors: Vec::new(),
        }
    }

    fn enabled(&self, op: Operator) -> bool {
        !self.has_unsafe && !self.waits && self.config.enabled(op)
    }

    /// Runs `f` with the `cfg` predicates of `attrs` on the stack that the
    /// sites it registers record.
    fn with_cfg<R>(&mut self, attrs: &[Attribute], f: impl FnOnce(&mut Self) -> R) -> R {
        let preds: Vec<TokenStream> = attrs
            .iter()
            .filter(|a| a.path().is_ident("cfg"))
            .filter_map(|a| a.meta.require_list().ok().map(|l| l.tokens.clone()))
            .collect();
        let n = preds.len();
        self.unit.cfg.extend(preds);
        let r = f(self);
        let len = self.unit.cfg.len() - n;
        self.unit.cfg.truncate(len);
        r
    }

    /// Whether `e` is a variable made by `let x = Default::default();`.
    fn late_typed(&self, e: &Expr) -> bool {
        match unparen(e) {
            Expr::Path(p) => p.qself.is_none() && self.late.iter().any(|l| p.path.is_ident(l)),
            _ => false,
        }
    }

    /// What a site gets as its first argument: the switch as the enclosing
    /// function or closure read it at entry (`__mu2`, bound in its prologue).
    fn unit_ref(&self) -> TokenStream {
        if self.framed {
            quote!(__mu2)
        } else {
            self.entry()
        }
    }

    /// `::mu2::__rt::here(&UNIT)`: the switch as a call sees it.
    fn entry(&self) -> TokenStream {
        let ident = &self.unit.ident;
        quote!(::mu2::__rt::here(&#ident))
    }

    // ----- items ---------------------------------------------------------

    /// Rewrites one function: its body's sites, then the prologue (prelude,
    /// depth guard, return-value mutants).
    pub fn function(
        &mut self,
        sig: &Signature,
        attrs: &[Attribute],
        block: &mut Block,
        name: String,
    ) {
        self.with_cfg(attrs, |rw| rw.function_body(sig, attrs, block, name))
    }

    fn function_body(
        &mut self,
        sig: &Signature,
        attrs: &[Attribute],
        block: &mut Block,
        name: String,
    ) {
        let saved = (
            std::mem::replace(&mut self.function, name),
            std::mem::replace(&mut self.needs_prelude, false),
            std::mem::replace(&mut self.typed, true),
            std::mem::replace(&mut self.has_unsafe, contains_unsafe(block)),
            std::mem::replace(&mut self.waits, waits_on_others(block)),
            std::mem::replace(&mut self.locks, takes_locks(sig, block)),
            std::mem::replace(&mut self.scopes, carry::Scopes::of(Some(sig), block)),
            std::mem::replace(&mut self.framed, true),
            std::mem::replace(&mut self.loops, 0),
            std::mem::take(&mut self.late),
        );
        // The function's mutants, its closures' included, are a range of
        // the unit's: `first..first + count`.
        let first = self.unit.mutants;
        let returns = self.returns(sig);
        // The body as written, run when nothing is switched on (below).
        let original = copyable(sig, block).then(|| block.clone());
        let kind = match &sig.output {
            ReturnType::Default => BlockKind::DiscardsValue,
            ReturnType::Type(_, ty) if is_unit(ty) => BlockKind::DiscardsValue,
            _ => BlockKind::Returns,
        };
        self.block(block, kind);
        let count = self.unit.mutants - first;

        let mut prologue = Vec::new();
        if self.needs_prelude {
            // The marker keeps the import used when every site that calls a
            // `kind` method is configured out. Not an `allow`: a crate that
            // forbids `unused_imports` rejects any `allow` of it (E0453).
            prologue.push(quote!(
                use ::mu2::__rt::prelude::*;
                let _: __Mu2Prelude;
            ));
        }
        if sig.asyncness.is_none() {
            // Counts the call against the depth budget; not for async fns,
            // whose frames outlive the call.
            prologue.push(quote!(let __mu2_depth = ::mu2::__rt::enter();));
        } else {
            // An async fn's body runs when polled: checks the depth and the
            // stack there and then. A future that awaits itself
            // (`Box::pin(f(n - 1)).await`) nests polls without any other
            // annotated call, and a mutant that makes that endless would
            // overflow the stack, which aborts.
            prologue.push(quote!(::core::mem::drop(::mu2::__rt::enter());));
        }
        if let Some(original) = &original {
            // When the active mutant is in another function and no probe is
            // on, every site here would run its original: run the body as
            // written instead, counting loop iterations against the budget
            // (a mutant elsewhere can make this loop endless). Optimized
            // builds only, as for `idle()` below.
            let (copy, loops) = fuel::fueled(original.clone(), &self.scopes);
            let fuel = fuel::declare(loops);
            let copy = returned(copy);
            let unit = &self.unit.ident;
            prologue.push(quote! {
                #[cfg(not(debug_assertions))]
                #[allow(unreachable_code)] // `return` of a body that diverges
                if ::mu2::__rt::elsewhere(&#unit, #first, #count) {
                    #fuel
                    return #copy;
                }
            });
        }
        // Read after that test: only the instrumented body needs it.
        let entry = self.entry();
        prologue.push(quote!(let __mu2 = #entry;));
        prologue.extend(fuel::declare(self.loops));
        prologue.extend(returns);
        block.stmts.splice(
            0..0,
            prologue.into_iter().map(|t| Stmt::Item(Item::Verbatim(t))),
        );
        if let Some(original) = original.map(returned) {
            // Everything but the plain copy goes out of line, in every build
            // (so that debug builds, where tests run, type-check the same
            // closure that optimized builds run): the function itself is
            // then the test below and the body as written, small enough to
            // inline. Not for `async fn` (a closure cannot `.await`) nor
            // `#[track_caller]` (the closure would be the caller).
            if sig.asyncness.is_none() && !has_attr(attrs, "track_caller") {
                let mut rest = std::mem::take(&mut block.stmts);
                // The closure takes every parameter whole, last declared
                // first: its captures drop in that order when it returns,
                // after the body's locals, as the function's own parameters
                // would. (Left to capture analysis, it would take them in
                // the order the body mentions them, only the fields it uses,
                // and none it does not use.)
                let params = param_bindings(sig);
                if !params.is_empty() {
                    rest.insert(
                        0,
                        Stmt::Item(Item::Verbatim(quote!(let _ = (#(&#params,)*);))),
                    );
                }
                let ret = match &sig.output {
                    ReturnType::Type(_, ty) if !is_unit(ty) => quote!(-> #ty),
                    _ => TokenStream::new(),
                };
                block.stmts.push(Stmt::Expr(
                    Expr::Verbatim(quote! {
                        ::mu2::__rt::outlined(move || #ret { #(#rest)* })
                    }),
                    None,
                ));
            }
            // One thread-local read at entry: with no mutant, probe or budget
            // on, the body runs exactly as written, at the speed of
            // unannotated code; otherwise the instrumented copy runs. Only
            // in optimized builds: unoptimized code keeps both copies' locals
            // in one frame (deep recursion would overflow sooner), and there
            // a type error in the user's code is then reported once.
            block.stmts.insert(
                0,
                Stmt::Item(Item::Verbatim(quote! {
                    #[cfg(not(debug_assertions))]
                    #[allow(unreachable_code)] // `return` of a body that diverges
                    if ::mu2::__rt::idle() {
                        return #original;
                    }
                })),
            );
        }
        (
            self.function,
            self.needs_prelude,
            self.typed,
            self.has_unsafe,
            self.waits,
            self.locks,
            self.scopes,
            self.framed,
            self.loops,
            self.late,
        ) = saved;
    }

    /// A nested item inside the annotated code.
    fn item(&mut self, item: &mut Item) {
        let Some(attrs) = item_attrs(item) else {
            return;
        };
        let config = match item_config(attrs, &self.config) {
            Ok(Some(config)) => config,
            Ok(None) => return,
            Err(e) => {
                self.errors.push(e);
                return;
            }
        };
        let saved = std::mem::replace(&mut self.config, config);
        match item {
            Item::Fn(f) if mutable_sig(&f.sig) => {
                let name = self.qualified(&f.sig.ident.to_string());
                self.function(&f.sig.clone(), &f.attrs.clone(), &mut f.block, name);
            }
            Item::Impl(i) => {
                let attrs = i.attrs.clone();
                self.with_cfg(&attrs, |rw| rw.impl_block(i))
            }
            Item::Trait(t) => {
                let attrs = t.attrs.clone();
                self.with_cfg(&attrs, |rw| rw.trait_def(t))
            }
            Item::Mod(m) => {
                if let Err(e) = nested_module(&self.config, m) {
                    self.errors.push(e)
                }
            }
            _ => {}
        }
        self.config = saved;
    }

    fn qualified(&self, name: &str) -> String {
        if self.function.is_empty() {
            name.to_string()
        } else {
            format!("{}::{}", self.function, name)
        }
    }

    pub fn impl_block(&mut self, i: &mut ItemImpl) {
        if i.unsafety.is_some() {
            return;
        }
        let self_lifetimes = std::mem::replace(
            &mut self.self_lifetimes,
            i.generics.lifetimes().next().is_some() || region_args(&i.self_ty, false),
        );
        let in_default_impl = std::mem::replace(
            &mut self.in_default_impl,
            i.trait_
                .as_ref()
                .and_then(|(_, path, _)| path.segments.last())
                .is_some_and(|s| s.ident == "Default"),
        );
        let self_ty = text::type_name(&i.self_ty.to_token_stream());
        let owner = match &i.trait_ {
            Some((_, path, _)) => format!(
                "<{} as {}>",
                self_ty,
                text::type_name(&path.to_token_stream())
            ),
            None => self_ty,
        };
        for item in &mut i.items {
            let ImplItem::Fn(f) = item else { continue };
            let config = match item_config(&mut f.attrs, &self.config) {
                Ok(Some(config)) => config,
                Ok(None) => continue,
                Err(e) => {
                    self.errors.push(e);
                    continue;
                }
            };
            if !mutable_sig(&f.sig) {
                continue;
            }
            let saved = std::mem::replace(&mut self.config, config);
            let name = self.qualified(&format!("{}::{}", owner, f.sig.ident));
            self.function(&f.sig.clone(), &f.attrs.clone(), &mut f.block, name);
            self.config = saved;
        }
        self.self_lifetimes = self_lifetimes;
        self.in_default_impl = in_default_impl;
    }

    pub fn trait_def(&mut self, t: &mut ItemTrait) {
        if t.unsafety.is_some() {
            return;
        }
        let owner = t.ident.to_string();
        for item in &mut t.items {
            let TraitItem::Fn(f) = item else { continue };
            let config = match item_config(&mut f.attrs, &self.config) {
                Ok(Some(config)) => config,
                Ok(None) => continue,
                Err(e) => {
                    self.errors.push(e);
                    continue;
                }
            };
            let Some(block) = &mut f.default else {
                continue;
            };
            if !mutable_sig(&f.sig) {
                continue;
            }
            let saved = std::mem::replace(&mut self.config, config);
            let name = self.qualified(&format!("{}::{}", owner, f.sig.ident));
            self.function(&f.sig.clone(), &f.attrs.clone(), block, name);
            self.config = saved;
        }
    }

    // ----- return values -------------------------------------------------

    /// The return-value mutants of a function, as a prologue statement.
    fn returns(&mut self, sig: &Signature) -> Option<TokenStream> {
        if !self.enabled(Operator::Returns) {
            return None;
        }
        let alts = match &sig.output {
            ReturnType::Default => vec![Ret::Unit],
            ReturnType::Type(_, ty) => {
                let mut alts = ret_alternatives(ty, self.self_lifetimes);
                if self.in_default_impl && sig.ident == "default" {
                    alts.retain(|a| !matches!(a, Ret::Default(_)));
                }
                alts
            }
        };
        if alts.is_empty() {
            return None;
        }
        let u = self.unit_ref();
        let span = sig.ident.span();
        let original = "{ ... }".to_string();
        let meta = alts
            .iter()
            .map(|a| (Operator::Returns, a.replacement()))
            .collect();
        let m = self.unit.site(span, &self.function, original, meta);
        let n = alts.len() as u32;
        if let [Ret::Unit] = alts.as_slice() {
            return Some(quote! {
                if ::mu2::__rt::ret(#u, #m, #n).is_some() { return; }
            });
        }
        let arms = alts.iter().enumerate().map(|(k, alt)| {
            let k32 = k as u32;
            let mk = m + k32;
            let value = match alt {
                Ret::Unit => quote!(()),
                Ret::Literal(lit) => lit.parse().expect("literal tokens"),
                Ret::Default(ty) => {
                    self.needs_prelude = true;
                    quote!(::mu2::__rt::made(#u, #mk, (&::mu2::__rt::Ret::<#ty>::NEW).__mu2_default()))
                }
                Ret::OkDefault(ty) => {
                    self.needs_prelude = true;
                    quote!(::core::result::Result::Ok(
                        ::mu2::__rt::made(#u, #mk, (&::mu2::__rt::Ret::<#ty>::NEW).__mu2_default())
                    ))
                }
            };
            if k + 1 == alts.len() {
                quote!(_ => #value,)
            } else {
                quote!(#k32 => #value,)
            }
        });
        Some(quote! {
            if let ::core::option::Option::Some(__mu2_k) = ::mu2::__rt::ret(#u, #m, #n) {
                return match __mu2_k { #(#arms)* };
            }
        })
    }

    // ----- blocks and statements -----------------------------------------

    fn block(&mut self, block: &mut Block, kind: BlockKind) {
        let n = block.stmts.len();
        // A function body with a value but no tail gets its type by
        // diverging: in its last statement (`return x;`), or else in some
        // call statement (`fail(); let _y = 0;`), which must then stay.
        let keep_calls = kind == BlockKind::Returns
            && match block.stmts.last() {
                None | Some(Stmt::Expr(_, None) | Stmt::Macro(_)) => false,
                Some(Stmt::Expr(e, Some(_))) => !matches!(
                    e,
                    Expr::Return(_) | Expr::Break(_) | Expr::Continue(_) | Expr::Macro(_)
                ),
                Some(_) => true,
            };
        for i in 0..n {
            let stmt = &mut block.stmts[i];
            match stmt_skip(stmt) {
                Ok(true) => continue,
                Ok(false) => {}
                Err(e) => {
                    self.errors.push(e);
                    continue;
                }
            }
            let original = match stmt {
                Stmt::Expr(call @ (Expr::Call(_) | Expr::MethodCall(_)), Some(_))
                    if !synchronizes(call) && !(self.locks && moves_a_local(call)) =>
                {
                    Some(Original::of(call))
                }
                _ => None,
            };
            let last = i + 1 == n;
            let attrs = match &mut *stmt {
                Stmt::Local(l) => l.attrs.clone(),
                Stmt::Expr(e, _) => expr_attrs(e).cloned().unwrap_or_default(),
                _ => Vec::new(),
            };
            self.with_cfg(&attrs, |rw| {
                rw.visit_stmt_mut(stmt);
                if let (Some(original), Stmt::Expr(call, Some(semi))) = (original, &mut *stmt) {
                    // The last statement of a block whose value is used may
                    // be a diverging call the block's type relies on: left
                    // alone.
                    if rw.enabled(Operator::VoidCalls)
                        && !keep_calls
                        && (!last || kind == BlockKind::DiscardsValue)
                    {
                        let tokens = quote!(#call #semi);
                        let u = rw.unit_ref();
                        let m = rw.unit.site(
                            original.span,
                            &rw.function,
                            format!("{};", original.text),
                            vec![(Operator::VoidCalls, String::new())],
                        );
                        *stmt = Stmt::Expr(
                            Expr::Verbatim(quote!(if ::mu2::__rt::keep(#u, #m) { #tokens })),
                            None,
                        );
                    }
                }
            });
        }
    }

    /// A loop body: walked as a block whose value is discarded, then given a
    /// tick (a branch probe, and one step of the budget) as its first statement.
    fn loop_body(&mut self, body: &mut Block) {
        self.block(body, BlockKind::DiscardsValue);
        let u = self.unit_ref();
        let b = self.unit.branches(1);
        let tick = if self.framed {
            self.loops += 1;
            quote!(::mu2::__rt::tick(#u, #b, &mut __mu2_fuel);)
        } else {
            quote!(::mu2::__rt::tick(#u, #b, &mut ::mu2::__rt::Fuel::new());)
        };
        body.stmts.insert(0, Stmt::Item(Item::Verbatim(tick)));
    }

    fn probe_stmt(&mut self, b: u32) -> Stmt {
        let u = self.unit_ref();
        Stmt::Item(Item::Verbatim(quote!(::mu2::__rt::hit(#u, #b);)))
    }

    // ----- expressions ---------------------------------------------------

    fn expr(&mut self, e: &mut Expr) {
        if let Some((name, arg)) = process_call(e) {
            // In a run, `exit` must not end the process, nor `sleep` outlast
            // the budget (see `__rt::exit`, `__rt::sleep`).
            let mut arg = arg.clone();
            self.expr(&mut arg);
            *e = process_call_in_run(name, &arg);
            return;
        }
        match e {
            // Not mutated: macro bodies, const and unsafe blocks.
            Expr::Macro(_) | Expr::Const(_) | Expr::Verbatim(_) => return,
            Expr::Unsafe(u) => {
                // No sites or probes, but its loops still count against
                // the budget, as they do in the `elsewhere` copy.
                if self.framed {
                    self.loops += fuel::fuel_in_place(&mut u.block, &self.scopes);
                }
                return;
            }
            Expr::Repeat(r) => {
                // `[x; N]`: N is a const context.
                self.expr(&mut r.expr);
                return;
            }
            Expr::Reference(r) if r.mutability.is_none() && promotable(&r.expr) => return,
            Expr::Closure(c) => {
                let typed = self.typed && c.inputs.iter().all(|p| matches!(p, Pat::Type(_)));
                self.closure(c, typed);
                return;
            }
            Expr::Async(a) => {
                // A future may be polled after the call that made it has
                // returned: like a closure, it reads the switch itself.
                let saved = (
                    std::mem::replace(&mut self.framed, true),
                    std::mem::replace(&mut self.loops, 0),
                );
                self.block(&mut a.block, BlockKind::Other);
                let entry = self.entry();
                let fuel = fuel::declare(self.loops);
                (self.framed, self.loops) = saved;
                a.block.stmts.insert(
                    0,
                    Stmt::Item(Item::Verbatim(quote!(let __mu2 = #entry; #fuel))),
                );
                return;
            }
            Expr::MethodCall(call) => {
                self.expr(&mut call.receiver);
                // `fold(Default::default(), |acc, x| acc + x)`: the
                // closure's parameter is typed by an argument whose type
                // comes later.
                let deduces = !call.args.iter().any(is_default_call);
                for arg in &mut call.args {
                    self.call_arg(arg, deduces);
                }
                carry::spawned(e, &self.scopes);
                return;
            }
            Expr::Call(call) => {
                let deduces =
                    deduces_closure_types(&call.func) && !call.args.iter().any(is_default_call);
                self.expr(&mut call.func);
                for arg in &mut call.args {
                    self.call_arg(arg, deduces);
                }
                carry::spawned(e, &self.scopes);
                return;
            }
            Expr::ForLoop(f) => {
                self.expr(&mut f.expr);
                self.loop_body(&mut f.body);
                return;
            }
            Expr::Loop(l) => {
                self.loop_body(&mut l.body);
                return;
            }
            Expr::While(w) => {
                let original = Original::of(&w.cond);
                self.expr(&mut w.cond);
                self.loop_body(&mut w.body);
                if !contains_let(&w.cond) {
                    self.condition(&mut w.cond, original);
                }
                return;
            }
            Expr::If(i) => {
                self.if_expr(i);
                return;
            }
            Expr::Match(m) => {
                self.match_expr(m);
                return;
            }
            Expr::Block(b) => {
                self.block(&mut b.block, BlockKind::Other);
                return;
            }
            _ => {}
        }
        let operand = match e {
            Expr::Unary(u) => Some(Original::of(&u.expr)),
            _ => None,
        };
        visit_mut::visit_expr_mut(self, e);
        match e {
            Expr::Binary(b) => {
                if let Some(new) = self.binary(b) {
                    *e = Expr::Verbatim(new);
                }
            }
            Expr::Unary(u) => {
                if let Some(new) = self.unary(u, operand.expect("captured above")) {
                    *e = Expr::Verbatim(new);
                }
            }
            // In an untyped closure the operand's type may not be known yet,
            // and then `Q(x).__mu2_q()` could not pick its impl.
            Expr::Try(t) if self.typed => {
                let u = self.unit_ref();
                let b = self.unit.branches(2);
                let inner = unparen(&t.expr);
                let q = &t.question_token;
                self.needs_prelude = true;
                *e = Expr::Verbatim(quote!(::mu2::__rt::Q(#inner).__mu2_q(#u, #b)#q));
            }
            _ => {}
        }
    }

    /// An argument of a call: a closure there gets its parameter types from
    /// the callee's bounds when `deduces`.
    fn call_arg(&mut self, arg: &mut Expr, deduces: bool) {
        match arg {
            Expr::Closure(c) if deduces => self.closure(c, self.typed),
            _ => self.expr(arg),
        }
    }

    /// A closure: its body, which then counts one step of the budget per
    /// call (`site::step`).
    fn closure(&mut self, c: &mut ExprClosure, typed: bool) {
        let saved = (
            std::mem::replace(&mut self.typed, typed),
            std::mem::replace(&mut self.framed, true),
            std::mem::replace(&mut self.loops, 0),
        );
        self.expr(&mut c.body);
        // A closure may run after the call that made it has returned, in
        // another run: it reads the switch itself, and counts its loops in
        // a counter of its own.
        let entry = self.entry();
        let fuel = fuel::declare(self.loops);
        (self.typed, self.framed, self.loops) = saved;
        let step = quote!(::mu2::__rt::step(); let __mu2 = #entry; #fuel);
        match &mut *c.body {
            // The closure's own block (`|x| -> T { .. }`) takes the step as
            // its first statement: a block around it would make the user's
            // braces "unnecessary" to the `unused_braces` lint.
            Expr::Block(b) if b.label.is_none() && b.attrs.is_empty() => {
                b.block.stmts.insert(0, Stmt::Item(Item::Verbatim(step)));
            }
            body => *body = Expr::Verbatim(quote!({ #step #body })),
        }
    }

    fn if_expr(&mut self, i: &mut ExprIf) {
        let original = Original::of(&i.cond);
        self.expr(&mut i.cond);
        self.block(&mut i.then_branch, BlockKind::Other);
        if let Some((_, else_branch)) = &mut i.else_branch {
            self.expr(else_branch);
        }
        if !contains_let(&i.cond) {
            self.condition(&mut i.cond, original);
            return;
        }
        // `if let`: a probe on each branch, adding an empty `else` if needed.
        let b = self.unit.branches(2);
        let taken = self.probe_stmt(b);
        i.then_branch.stmts.insert(0, taken);
        let not_taken = self.probe_stmt(b + 1);
        match &mut i.else_branch {
            Some((_, else_branch)) => {
                if let Expr::Block(block) = &mut **else_branch {
                    block.block.stmts.insert(0, not_taken);
                }
            }
            None => {
                let block: Expr = syn::parse_quote!({ #not_taken });
                i.else_branch = Some((Default::default(), Box::new(block)));
            }
        }
    }

    /// An `if` / `while` condition: coverage of both outcomes, and the
    /// remove-conditionals mutants `true` and `false`.
    fn condition(&mut self, cond: &mut Expr, original: Original) {
        let u = self.unit_ref();
        let b = self.unit.branches(2);
        let c = unparen(cond);
        let new = if self.enabled(Operator::RemoveConditionals) {
            let m = self.unit.site(
                original.span,
                &self.function,
                original.text,
                vec![
                    (Operator::RemoveConditionals, "true".into()),
                    (Operator::RemoveConditionals, "false".into()),
                ],
            );
            quote!(::mu2::__rt::cond(#u, #m, #b, #c))
        } else {
            quote!(::mu2::__rt::branch(#u, #b, #c))
        };
        *cond = Expr::Verbatim(new);
    }

    fn match_expr(&mut self, m: &mut ExprMatch) {
        self.expr(&mut m.expr);
        for arm in &mut m.arms {
            let attrs = arm.attrs.clone();
            self.with_cfg(&attrs, |rw| {
                if let Some((_, guard)) = &mut arm.guard {
                    rw.expr(guard);
                }
                rw.expr(&mut arm.body);
            });
        }
        let b = self.unit.branches(m.arms.len() as u32);
        for (k, arm) in m.arms.iter_mut().enumerate() {
            let probe = self.probe_stmt(b + k as u32);
            let body = &arm.body;
            // Arm bodies are temporary scopes already, so a block around one
            // changes no lifetimes.
            *arm.body = Expr::Verbatim(quote!({ #probe #body }));
        }
    }

    fn binary(&mut self, b: &ExprBinary) -> Option<TokenStream> {
        let (l, r, op) = (&b.left, &b.right, &b.op);
        // The operands become arguments: their own parentheses would draw
        // `unused_parens` warnings there.
        let (lv, rv) = (unparen(l), unparen(r));
        let u = self.unit_ref();
        let span = op.span();
        if let Some(a) = ops::arith(op) {
            if self.late_typed(l) || self.late_typed(r) {
                // Its alternatives (and copies) would be picked before
                // rustc knows the operand's type, which then may not have
                // them (see the README). A comparison's alternatives need
                // what the original needs, so comparisons stay.
                return None;
            }
            let operator = match op {
                BinOp::AddAssign(_) | BinOp::SubAssign(_) if is_literal(r) => Operator::Increments,
                _ => Operator::Math,
            };
            if !self.typed || !self.enabled(operator) {
                return None;
            }
            let m = self.unit.site(
                span,
                &self.function,
                a.original.into(),
                vec![(operator, a.replacement.into())],
            );
            let method = format_ident!("{}", a.method, span = span);
            let (li, ri) = operand_idents(l, r);
            self.needs_prelude = true;
            // `&raw mut` reaches a field of a packed struct, which `&mut`
            // cannot; but not a field of a temporary (`make().n += 1`).
            let place = if rooted_place(l) {
                quote!(&raw mut #l)
            } else {
                quote!(&mut #l)
            };
            // Spanned at the operator: when rustc knows an operand's type
            // only after it (`let mut acc = Default::default();`), the pick
            // fails, and the error then points here (see the README).
            let kinds = quote_spanned!(span=> |__mu2_o| (__mu2_o.__mu2_dup(), [__mu2_o.#method()]));
            return Some(if a.assign {
                quote! {
                    ::mu2::__rt::assign(#u, #m, #rv, #place, |#li, #ri| *#li #op #ri, #kinds)
                }
            } else {
                quote! {
                    ::mu2::__rt::bin(#u, #m, #lv, #rv, |#li, #ri| #li #op #ri, #kinds)
                }
            });
        }
        if let Some(c) = ops::comparison(op) {
            let alts: Vec<_> = c.alts.iter().filter(|(o, _, _)| self.enabled(*o)).collect();
            if alts.is_empty() {
                return None;
            }
            let meta = alts
                .iter()
                .map(|(o, text, _)| (*o, text.to_string()))
                .collect();
            let m = self
                .unit
                .site(span, &self.function, c.original.into(), meta);
            let cmp = format_ident!("{}", c.cmp);
            let alt_cmps = alts.iter().map(|(_, _, name)| format_ident!("{}", name));
            let (func, eval) = if c.ordered {
                (quote!(ord), format_ident!("__mu2_ord", span = span))
            } else {
                (quote!(eq), format_ident!("__mu2_eq", span = span))
            };
            let (lr, rr) = (operand(lv), operand(rv));
            let (li, ri) = operand_idents(l, r);
            self.needs_prelude = true;
            let kinds = quote_spanned!(span=> |__mu2_o| __mu2_o.#eval());
            return Some(quote! {
                ::mu2::__rt::#func(#u, #m, ::mu2::__rt::Cmp::#cmp,
                    &[#(::mu2::__rt::Cmp::#alt_cmps),*], #lr, #rr,
                    |#li, #ri| *#li #op *#ri, #kinds)
            });
        }
        let and = match op {
            BinOp::And(_) => true,
            BinOp::Or(_) => false,
            _ => return None,
        };
        // `let` chains (`if let Some(x) = y && x > 0`) only allow `&&` with a `let`.
        if !self.enabled(Operator::Boolean) || contains_let(l) || contains_let(r) {
            return None;
        }
        let replacement = if and { "||" } else { "&&" };
        let original = if and { "&&" } else { "||" };
        let m = self.unit.site(
            span,
            &self.function,
            original.into(),
            vec![(Operator::Boolean, replacement.into())],
        );
        let br = self.unit.branches(2);
        // The left side is evaluated in a `let` of its own: as an operand of
        // `&&` its temporaries (a `RefCell` or `Mutex` guard) are dropped
        // before the right side runs, and in a match scrutinee they would not be.
        Some(quote! {
            match ::mu2::__rt::logic(#u, #m, #br, #and, { let __mu2_lhs: bool = #lv; __mu2_lhs }) {
                ::core::option::Option::Some(__mu2_v) => __mu2_v,
                ::core::option::Option::None => ::mu2::__rt::logic_rhs(#u, #m, #and, #rv),
            }
        })
    }

    fn unary(&mut self, e: &ExprUnary, operand: Original) -> Option<TokenStream> {
        let operator = match e.op {
            UnOp::Neg(_) if !is_literal(&e.expr) => Operator::InvertNegatives,
            UnOp::Not(_) => Operator::Boolean,
            _ => return None,
        };
        if !self.typed || !self.enabled(operator) || self.late_typed(&e.expr) {
            return None;
        }
        let (op, x) = (&e.op, unparen(&e.expr));
        let original = format!("{}{}", op.to_token_stream(), operand.text);
        let m = self.unit.site(
            op.span(),
            &self.function,
            original,
            vec![(operator, operand.text)],
        );
        let u = self.unit_ref();
        let xi = syn::Ident::new("__mu2_x", x.span());
        self.needs_prelude = true;
        let kinds =
            quote_spanned!(op.span()=> |__mu2_o| (__mu2_o.__mu2_dup(), [__mu2_o.__mu2_id()]));
        Some(quote! {
            ::mu2::__rt::un(#u, #m, #x, |#xi| #op #xi, #kinds)
        })
    }
}

impl VisitMut for Rewriter {
    fn visit_expr_mut(&mut self, e: &mut Expr) {
        self.expr(e)
    }

    fn visit_block_mut(&mut self, b: &mut Block) {
        self.block(b, BlockKind::Other)
    }

    fn visit_item_mut(&mut self, i: &mut Item) {
        self.item(i)
    }

    fn visit_local_mut(&mut self, local: &mut Local) {
        let Some(init) = &mut local.init else { return };
        if let Pat::Ident(p) = &local.pat {
            if is_default_call(&init.expr) {
                self.late.push(p.ident.clone());
            }
        }
        match (&local.pat, &mut *init.expr) {
            // `let f: fn(u8) -> u8 = |x| x + 1;`: typed by the annotation
            // (unless it leaves types to infer: `fn(_) -> _`).
            (Pat::Type(t), Expr::Closure(c)) if !contains_impl_trait(&t.ty) => {
                self.closure(c, self.typed)
            }
            (_, e) => self.expr(e),
        }
        if let Some((_, diverge)) = &mut init.diverge {
            self.expr(diverge);
        }
    }

    // Patterns, types, generic arguments, attributes and macro bodies hold
    // const contexts or no code: never entered.
    fn visit_field_value_mut(&mut self, f: &mut syn::FieldValue) {
        let attrs = f.attrs.clone();
        self.with_cfg(&attrs, |rw| visit_mut::visit_field_value_mut(rw, f))
    }
    fn visit_pat_mut(&mut self, _: &mut Pat) {}
    fn visit_type_mut(&mut self, _: &mut Type) {}
    fn visit_generic_argument_mut(&mut self, _: &mut GenericArgument) {}
    fn visit_attribute_mut(&mut self, _: &mut Attribute) {}
    fn visit_macro_mut(&mut self, _: &mut syn::Macro) {}
}

/// Rewrites an inline module as a unit of its own, its static inside it.
pub fn nested_module(config: &Config, m: &mut ItemMod) -> syn::Result<()> {
    let unit = UnitBuilder::new(&m.ident.to_string(), m.ident.span(), &m.to_token_stream());
    let Some((_, items)) = &mut m.content else {
        return Err(syn::Error::new(
            m.ident.span(),
            "#[mu2::mutate] cannot see into an out-of-line `mod name;`: put the attribute on the items inside the module's file, or make the module inline",
        ));
    };
    let mut rw = Rewriter::new(config.clone(), unit);
    for item in items.iter_mut() {
        rw.item(item);
    }
    if let Some(e) = rw.errors.into_iter().reduce(|mut a, b| {
        a.combine(b);
        a
    }) {
        return Err(e);
    }
    items.insert(0, Item::Verbatim(rw.unit.statics()));
    Ok(())
}

/// The source text and position of an expression, taken before its
/// children are rewritten.
struct Original {
    text: String,
    span: Span,
}

impl Original {
    fn of(e: &Expr) -> Original {
        Original {
            text: text::snippet(&e.to_token_stream()),
            span: e.span(),
        }
    }
}

/// A return-value alternative.
enum Ret {
    Unit,
    Literal(&'static str),
    /// `Default::default()` of this type, unviable where it has none.
    Default(Box<Type>),
    /// `Ok(Default::default())` with this `Ok` type.
    OkDefault(Box<Type>),
}

impl Ret {
    fn replacement(&self) -> String {
        match self {
            Ret::Unit => "()".into(),
            Ret::Literal(l) => l.to_string(),
            Ret::Default(ty) => match last_segment(ty).as_deref() {
                Some("Option") => "None".into(),
                Some("String") => "String::new()".into(),
                Some("Vec") => "vec![]".into(),
                _ => "Default::default()".into(),
            },
            Ret::OkDefault(_) => "Ok(Default::default())".into(),
        }
    }
}

/// The return-value alternatives for type `ty`. `Default` is left out when
/// the type has a lifetime argument (`Doc<'a>`, `Self` in `impl Doc<'a>`):
/// type checking picks an impl regardless of lifetimes, so an impl only for
/// `Doc<'static>` would be picked, and borrow checking would then fail.
fn ret_alternatives(ty: &Type, self_lifetimes: bool) -> Vec<Ret> {
    let mut alts = ret_kinds(ty);
    alts.retain(|a| match a {
        Ret::Default(t) | Ret::OkDefault(t) => !region_args(t, self_lifetimes),
        _ => true,
    });
    alts
}

fn ret_kinds(ty: &Type) -> Vec<Ret> {
    if contains_impl_trait(ty) {
        return vec![];
    }
    match ty {
        Type::Never(_) => vec![],
        Type::Paren(p) => ret_kinds(&p.elem),
        Type::Tuple(t) if t.elems.is_empty() => vec![Ret::Unit],
        // `io::Result<T>`, `std::result::Result<T, E>`: `Ok(Default::default())`
        // of the first argument. (`fmt::Result` has none: `Default`, unviable.)
        Type::Path(p)
            if p.qself.is_none()
                && p.path.segments.len() > 1
                && p.path.segments.last().is_some_and(|s| {
                    s.ident == "Result" && matches!(s.arguments, PathArguments::AngleBracketed(_))
                }) =>
        {
            match &p.path.segments.last().expect("checked above").arguments {
                PathArguments::AngleBracketed(a) => match a.args.first() {
                    Some(GenericArgument::Type(ok)) => vec![Ret::OkDefault(Box::new(ok.clone()))],
                    _ => vec![Ret::Default(Box::new(ty.clone()))],
                },
                _ => vec![Ret::Default(Box::new(ty.clone()))],
            }
        }
        Type::Path(p) if p.qself.is_none() && p.path.segments.len() == 1 => {
            let seg = &p.path.segments[0];
            match seg.ident.to_string().as_str() {
                "bool" => vec![Ret::Literal("true"), Ret::Literal("false")],
                "i8" | "i16" | "i32" | "i64" | "i128" | "isize" | "u8" | "u16" | "u32" | "u64"
                | "u128" | "usize" => vec![Ret::Literal("0"), Ret::Literal("1")],
                "f32" | "f64" => vec![Ret::Literal("0.0"), Ret::Literal("1.0")],
                "Result" => match &seg.arguments {
                    PathArguments::AngleBracketed(a) => match a.args.first() {
                        Some(GenericArgument::Type(ok)) => {
                            vec![Ret::OkDefault(Box::new(ok.clone()))]
                        }
                        _ => vec![Ret::Default(Box::new(ty.clone()))],
                    },
                    _ => vec![Ret::Default(Box::new(ty.clone()))],
                },
                _ => vec![Ret::Default(Box::new(ty.clone()))],
            }
        }
        _ => vec![Ret::Default(Box::new(ty.clone()))],
    }
}

/// Whether a function body has an `unsafe` block (in a closure or macro
/// call too; a nested `fn` is a function of its own).
/// Whether a function body blocks until another thread signals it:
/// `cvar.wait(guard)`, `cvar.wait_while(..)`, `rx.recv()`, `barrier.wait()`,
/// `thread::park()` (not the variants with a timeout, which end).
fn waits_on_others(block: &Block) -> bool {
    struct Finder(bool);
    impl syn::visit::Visit<'_> for Finder {
        fn visit_expr_method_call(&mut self, m: &syn::ExprMethodCall) {
            self.0 |= matches!(
                m.method.to_string().as_str(),
                "wait" | "wait_while" | "recv"
            );
            syn::visit::visit_expr_method_call(self, m);
        }
        fn visit_expr_call(&mut self, c: &syn::ExprCall) {
            if let Expr::Path(p) = &*c.func {
                let names = segment_names(&p.path);
                // Also the functions that size what others wait on: a
                // barrier's parties, a bounded channel's capacity. A
                // mutated count there blocks the waits, wherever they are.
                self.0 |= match names.as_slice() {
                    [.., last] if last == "park" || last == "sync_channel" => true,
                    [.., ty, new] => ty == "Barrier" && new == "new",
                    _ => false,
                };
            }
            syn::visit::visit_expr_call(self, c);
        }
        fn visit_item(&mut self, _: &Item) {}
    }
    let mut f = Finder(false);
    syn::visit::Visit::visit_block(&mut f, block);
    f.0
}

/// Whether a function may hold a lock: its body calls `lock`, `read`,
/// `write` (or their `try_` forms), or a parameter's type names a guard
/// (`MutexGuard<'_, T>`). Over-approximate: `io::Read::read` counts too.
fn takes_locks(sig: &Signature, block: &Block) -> bool {
    struct Finder(bool);
    impl syn::visit::Visit<'_> for Finder {
        fn visit_expr_method_call(&mut self, m: &syn::ExprMethodCall) {
            self.0 |= matches!(
                m.method.to_string().as_str(),
                "lock" | "try_lock" | "read" | "try_read" | "write" | "try_write"
            );
            syn::visit::visit_expr_method_call(self, m);
        }
        fn visit_path_segment(&mut self, s: &syn::PathSegment) {
            self.0 |= s.ident.to_string().ends_with("Guard");
            syn::visit::visit_path_segment(self, s);
        }
        fn visit_item(&mut self, _: &Item) {}
    }
    let mut f = Finder(false);
    syn::visit::Visit::visit_signature(&mut f, sig);
    syn::visit::Visit::visit_block(&mut f, block);
    f.0
}

/// Whether a call passes a local variable by value (`finish(guard)`),
/// which moves it into the callee, to be dropped there.
fn moves_a_local(call: &Expr) -> bool {
    let args = match call {
        Expr::Call(c) => &c.args,
        Expr::MethodCall(m) => &m.args,
        _ => return false,
    };
    args.iter().any(|a| match a {
        Expr::Path(p) => {
            p.qself.is_none()
                && p.path.segments.len() == 1
                && p.path.segments[0]
                    .ident
                    .to_string()
                    .starts_with(|c: char| c.is_lowercase() || c == '_')
        }
        _ => false,
    })
}

/// Whether `&e` may be promoted to a `'static` constant: literals,
/// constants and unit variants (`MAX`, `u32::MAX`, `None`, `Op::Halt`), and
/// operators, casts, arrays, tuples, struct literals and constructor calls
/// (`Some(..)`, `Op::Push(..)`) of them. Its operators stay as written: a
/// site would make the value a run-time one, and
/// `fn f() -> &'static [Op] { &[Op::Push(1 << 10)] }` would no longer
/// compile. Erring towards "promotable" only leaves a site unmutated.
fn promotable(e: &Expr) -> bool {
    match e {
        Expr::Lit(_) => true,
        Expr::Paren(p) => promotable(&p.expr),
        Expr::Group(g) => promotable(&g.expr),
        Expr::Unary(u) => !matches!(u.op, UnOp::Deref(_)) && promotable(&u.expr),
        Expr::Binary(b) => promotable(&b.left) && promotable(&b.right),
        Expr::Cast(c) => promotable(&c.expr),
        Expr::Array(a) => a.elems.iter().all(promotable),
        Expr::Tuple(t) => t.elems.iter().all(promotable),
        Expr::Repeat(r) => promotable(&r.expr),
        Expr::Struct(s) => {
            s.fields.iter().all(|f| promotable(&f.expr)) && s.rest.as_deref().is_none_or(promotable)
        }
        // A tuple struct or an enum variant: named in upper camel case.
        Expr::Call(c) => {
            matches!(&*c.func, Expr::Path(p) if p.qself.is_none() && p.path.segments.last()
                .is_some_and(|s| s.ident.to_string().starts_with(|c: char| c.is_ascii_uppercase())))
                && c.args.iter().all(promotable)
        }
        // Anything but a local variable (one segment in lower case).
        Expr::Path(p) => {
            p.qself.is_some()
                || p.path.segments.len() > 1
                || !p.path.segments[0]
                    .ident
                    .to_string()
                    .starts_with(|c: char| c.is_lowercase() || c == '_')
        }
        _ => false,
    }
}

/// `Default::default()` (or `std::default::Default::default()`), whose
/// type rustc learns from where its value goes.
fn is_default_call(e: &Expr) -> bool {
    match unparen(e) {
        Expr::Call(c) => c.args.is_empty() && carry::path_ends(&c.func, &["Default", "default"]),
        _ => false,
    }
}

fn contains_unsafe(block: &Block) -> bool {
    struct Finder(bool);
    impl syn::visit::Visit<'_> for Finder {
        fn visit_expr_unsafe(&mut self, _: &syn::ExprUnsafe) {
            self.0 = true;
        }
        fn visit_macro(&mut self, m: &syn::Macro) {
            fn has(tokens: TokenStream) -> bool {
                tokens.into_iter().any(|t| match t {
                    proc_macro2::TokenTree::Ident(i) => i == "unsafe",
                    proc_macro2::TokenTree::Group(g) => has(g.stream()),
                    _ => false,
                })
            }
            self.0 |= has(m.tokens.clone());
        }
        fn visit_item(&mut self, _: &Item) {}
    }
    let mut f = Finder(false);
    syn::visit::Visit::visit_block(&mut f, block);
    f.0
}

/// Whether `ty` passes a lifetime other than `'static` as a generic argument
/// (`Doc<'a>`, `Doc<'_>`; not `&'a str`, nor `Cow<'a, str>`, whose `Default`
/// holds for every lifetime), or is `Self` when `self_lifetimes`.
fn region_args(ty: &Type, self_lifetimes: bool) -> bool {
    // `Default` for these holds whatever their arguments are.
    if let Some(
        "Option" | "Vec" | "VecDeque" | "String" | "HashMap" | "HashSet" | "BTreeMap" | "BTreeSet"
        | "Cow",
    ) = last_segment(ty).as_deref()
    {
        return false;
    }
    struct Finder(bool, bool);
    impl syn::visit::Visit<'_> for Finder {
        fn visit_path_segment(&mut self, seg: &syn::PathSegment) {
            if seg.ident == "Self" && self.1 {
                self.0 = true;
            }
            if seg.ident != "Cow" {
                if let PathArguments::AngleBracketed(a) = &seg.arguments {
                    for arg in &a.args {
                        if let GenericArgument::Lifetime(l) = arg {
                            self.0 |= l.ident != "static";
                        }
                    }
                }
            }
            syn::visit::visit_path_segment(self, seg)
        }
    }
    let mut f = Finder(false, self_lifetimes);
    syn::visit::Visit::visit_type(&mut f, ty);
    f.0
}

fn last_segment(ty: &Type) -> Option<String> {
    match ty {
        Type::Path(p) => p.path.segments.last().map(|s| s.ident.to_string()),
        _ => None,
    }
}

fn contains_impl_trait(ty: &Type) -> bool {
    struct Finder(bool);
    impl syn::visit::Visit<'_> for Finder {
        fn visit_type_impl_trait(&mut self, _: &syn::TypeImplTrait) {
            self.0 = true;
        }
        fn visit_type_infer(&mut self, _: &syn::TypeInfer) {
            self.0 = true;
        }
    }
    let mut f = Finder(false);
    syn::visit::Visit::visit_type(&mut f, ty);
    f.0
}

fn is_unit(ty: &Type) -> bool {
    matches!(ty, Type::Tuple(t) if t.elems.is_empty())
}

fn is_literal(e: &Expr) -> bool {
    match e {
        Expr::Lit(_) => true,
        Expr::Paren(p) => is_literal(&p.expr),
        Expr::Group(g) => is_literal(&g.expr),
        _ => false,
    }
}

fn contains_let(e: &Expr) -> bool {
    match e {
        Expr::Let(_) => true,
        Expr::Binary(b) if matches!(b.op, BinOp::And(_)) => {
            contains_let(&b.left) || contains_let(&b.right)
        }
        Expr::Paren(p) => contains_let(&p.expr),
        Expr::Group(g) => contains_let(&g.expr),
        _ => false,
    }
}

/// The original operator's closure parameters, spanned like the operands:
/// a panic in the original (an overflow, say) then reports the user's line.
fn operand_idents(l: &Expr, r: &Expr) -> (syn::Ident, syn::Ident) {
    (
        syn::Ident::new("__mu2_l", l.span()),
        syn::Ident::new("__mu2_r", r.span()),
    )
}

/// `e` without the parentheses around it.
fn unparen(e: &Expr) -> &Expr {
    match e {
        Expr::Paren(p) => unparen(&p.expr),
        _ => e,
    }
}

/// A place reached from a variable or through a dereference by fields and
/// indexing: `&raw mut` can take its address (it is not in a temporary).
///
/// A path counts only when it names a local variable (or `self`): one
/// segment, not in upper case. A `const` (`LIMITS.max`, `PRIMES[i]`,
/// `Self::ZERO.x`) is a value, and a field of it is a field of a temporary,
/// whose address `&raw` cannot take; syntax cannot tell a `const` from a
/// `static`, but a `static` is borrowed by `&` as well.
fn rooted_place(e: &Expr) -> bool {
    match e {
        Expr::Path(p) => {
            p.qself.is_none()
                && p.path.leading_colon.is_none()
                && p.path.segments.len() == 1
                && p.path.segments[0].arguments.is_none()
                && p.path.segments[0]
                    .ident
                    .to_string()
                    .chars()
                    .any(|c| c.is_lowercase())
        }
        Expr::Unary(u) => matches!(u.op, UnOp::Deref(_)),
        Expr::Field(f) => rooted_place(&f.base),
        Expr::Index(i) => rooted_place(&i.expr),
        Expr::Paren(p) => rooted_place(&p.expr),
        Expr::Group(g) => rooted_place(&g.expr),
        _ => false,
    }
}

/// A comparison operand by reference: `&e`, or for a place reached by a
/// field or an index (which may be a field of a packed struct, that `&`
/// cannot borrow), its address read by `kind::Place`.
fn operand(e: &Expr) -> TokenStream {
    if rooted_place(e) && projects(e) {
        quote!(&*(&::mu2::__rt::Place(&raw const #e)).__mu2_read())
    } else {
        by_ref(e)
    }
}

/// Whether a place expression goes through a field or an index.
fn projects(e: &Expr) -> bool {
    match e {
        Expr::Field(_) | Expr::Index(_) => true,
        Expr::Paren(p) => projects(&p.expr),
        Expr::Group(g) => projects(&g.expr),
        _ => false,
    }
}

/// `&e`, parenthesized where `&` would bind tighter than `e`'s operator.
fn by_ref(e: &Expr) -> TokenStream {
    match e {
        Expr::Binary(_)
        | Expr::Cast(_)
        | Expr::Range(_)
        | Expr::Closure(_)
        | Expr::Assign(_)
        | Expr::Let(_)
        | Expr::Return(_)
        | Expr::Break(_)
        | Expr::Yield(_) => quote!(&(#e)),
        _ => quote!(&#e),
    }
}

/// Whether a call's callee gives a closure argument its parameter types
/// before the closure is checked: a function (`apply(|x| x + 1)`), whose
/// bounds do, and not a constructor or a generic container (`Some(|a, b| a + b)`,
/// `Box::new(..)`, `Wrapper(..)`), whose parameter is any `T`.
fn deduces_closure_types(func: &Expr) -> bool {
    match func {
        Expr::Path(p) => {
            p.qself.is_none()
                && p.path
                    .segments
                    .iter()
                    .all(|s| !s.ident.to_string().starts_with(|c: char| c.is_uppercase()))
        }
        Expr::Paren(p) => deduces_closure_types(&p.expr),
        Expr::Group(g) => deduces_closure_types(&g.expr),
        _ => false,
    }
}

/// Whether a call statement releases or signals something another party
/// may be waiting for: `drop(guard)`, `drop(sender)`, `tx.send(x).unwrap()`,
/// `cvar.notify_one()`, `stop.store(true, SeqCst)`, `barrier.wait()`,
/// `t.unpark()`, `token.cancel()`, `waker.wake()`. Removed, it could block
/// the thread for good (a `Mutex` locked again, a receiver that never sees
/// the channel close, a `join` on a worker that spins or parks until told
/// to stop, on a thread no budget reaches), which no budget can stop: such
/// calls are not `void_calls` sites.
fn synchronizes(e: &Expr) -> bool {
    match e {
        Expr::Call(c) => match &*c.func {
            Expr::Path(p) => p.path.segments.last().is_some_and(|s| s.ident == "drop"),
            _ => false,
        },
        Expr::MethodCall(m) => {
            matches!(
                m.method.to_string().as_str(),
                "send"
                    | "try_send"
                    | "notify_one"
                    | "notify_all"
                    | "unlock"
                    | "store"
                    | "wait"
                    | "unpark"
                    | "cancel"
                    | "wake"
                    | "wake_by_ref"
            ) || synchronizes(&m.receiver)
        }
        Expr::Try(t) => synchronizes(&t.expr),
        Expr::Await(a) => synchronizes(&a.base),
        Expr::Paren(p) => synchronizes(&p.expr),
        _ => false,
    }
}

/// Const and unsafe functions are not mutated, nor functions whose ABI
/// cannot unwind (`extern "C" fn`): a mutant's panic or timeout there would
/// abort the process.
fn mutable_sig(sig: &Signature) -> bool {
    sig.constness.is_none() && sig.unsafety.is_none() && unwinds(sig)
}

/// Whether a panic can unwind out of a function with this signature's ABI:
/// the Rust ABI, or an `extern "..-unwind"` one.
pub fn unwinds(sig: &Signature) -> bool {
    match &sig.abi {
        None => true,
        Some(abi) => abi.name.as_ref().is_some_and(|name| {
            let name = name.value();
            name == "Rust" || name.ends_with("-unwind")
        }),
    }
}

fn item_attrs(item: &mut Item) -> Option<&mut Vec<Attribute>> {
    match item {
        Item::Fn(i) => Some(&mut i.attrs),
        Item::Impl(i) => Some(&mut i.attrs),
        Item::Trait(i) => Some(&mut i.attrs),
        Item::Mod(i) => Some(&mut i.attrs),
        _ => None,
    }
}

fn is_mu2_attr(attr: &Attribute, name: &str) -> bool {
    let segs: Vec<String> = attr
        .path()
        .segments
        .iter()
        .map(|s| s.ident.to_string())
        .collect();
    matches!(segs.as_slice(), [m, n] if m == "mu2" && n == name)
}

/// The configuration for an inner item, or `None` when it is not mutated:
/// tests, `#[cfg(test)]`, drivers, and `#[mu2::mutate(skip)]`. A nested
/// `#[mu2::mutate(...)]` is taken here (and removed) so it is not applied twice.
fn item_config(attrs: &mut Vec<Attribute>, outer: &Config) -> syn::Result<Option<Config>> {
    let mut config = outer.clone();
    let mut result = Ok(());
    attrs.retain(|attr| {
        if !is_mu2_attr(attr, "mutate") {
            return true;
        }
        let tokens = match &attr.meta {
            syn::Meta::List(list) => list.tokens.clone(),
            _ => TokenStream::new(),
        };
        match Config::parse_tokens(tokens) {
            Ok(c) => config = c,
            Err(e) => result = Err(e),
        }
        false
    });
    result?;
    if config.skip || attrs.iter().any(test_only) {
        return Ok(None);
    }
    Ok(Some(config))
}

/// `#[test]`, `#[tokio::test]`, `#[cfg(test)]`, `#[mu2::diff]`, ...
fn test_only(attr: &Attribute) -> bool {
    let path = attr.path();
    let last = path
        .segments
        .last()
        .map(|s| s.ident.to_string())
        .unwrap_or_default();
    if last == "test"
        || ["diff", "fuzz", "compare"]
            .iter()
            .any(|n| is_mu2_attr(attr, n))
    {
        return true;
    }
    if !path.is_ident("cfg") {
        return false;
    }
    let Ok(meta) = attr.parse_args::<syn::Meta>() else {
        return false;
    };
    cfg_requires_test(&meta)
}

fn cfg_requires_test(meta: &syn::Meta) -> bool {
    match meta {
        syn::Meta::Path(p) => p.is_ident("test"),
        syn::Meta::List(list) if list.path.is_ident("all") => list
            .parse_args_with(
                syn::punctuated::Punctuated::<syn::Meta, syn::Token![,]>::parse_terminated,
            )
            .is_ok_and(|metas| metas.iter().any(cfg_requires_test)),
        _ => false,
    }
}

/// A statement marked `#[mu2::mutate(skip)]` is left as it is (the marker is
/// removed); returns whether it was.
fn stmt_skip(stmt: &mut Stmt) -> syn::Result<bool> {
    let attrs = match stmt {
        Stmt::Local(l) => &mut l.attrs,
        Stmt::Macro(m) => &mut m.attrs,
        Stmt::Expr(e, _) => match expr_attrs(e) {
            Some(a) => a,
            None => return Ok(false),
        },
        Stmt::Item(_) => return Ok(false),
    };
    let mut skip = false;
    let mut result = Ok(());
    attrs.retain(|attr| {
        if !is_mu2_attr(attr, "mutate") {
            return true;
        }
        let tokens = match &attr.meta {
            syn::Meta::List(list) => list.tokens.clone(),
            _ => TokenStream::new(),
        };
        match Config::parse_tokens(tokens) {
            Ok(c) if c.skip => skip = true,
            Ok(_) => {
                result = Err(syn::Error::new_spanned(
                    attr,
                    "on a statement, #[mu2::mutate] takes only `skip`",
                ))
            }
            Err(e) => result = Err(e),
        }
        false
    });
    result.map(|()| skip)
}

fn expr_attrs(e: &mut Expr) -> Option<&mut Vec<Attribute>> {
    Some(match e {
        Expr::Assign(x) => &mut x.attrs,
        Expr::Binary(x) => &mut x.attrs,
        Expr::Call(x) => &mut x.attrs,
        Expr::MethodCall(x) => &mut x.attrs,
        Expr::If(x) => &mut x.attrs,
        Expr::Match(x) => &mut x.attrs,
        Expr::While(x) => &mut x.attrs,
        Expr::ForLoop(x) => &mut x.attrs,
        Expr::Loop(x) => &mut x.attrs,
        Expr::Block(x) => &mut x.attrs,
        Expr::Return(x) => &mut x.attrs,
        Expr::Unary(x) => &mut x.attrs,
        Expr::Try(x) => &mut x.attrs,
        _ => return None,
    })
}

/// Whether a function body can be kept twice (as written, and instrumented)
/// without changing what it means or breaking the build. Not when it defines
/// items (two copies of a `static` or a `thread_local!` would be two
/// variables; two copies of an `impl` collide), holds mu2 attributes of its
/// own, or returns `impl Trait` (two copies of a closure are two types).
fn copyable(sig: &Signature, block: &Block) -> bool {
    struct Check(bool);
    impl syn::visit::Visit<'_> for Check {
        fn visit_item(&mut self, item: &Item) {
            if !matches!(item, Item::Use(_)) {
                self.0 = false;
            }
        }
        fn visit_macro(&mut self, mac: &syn::Macro) {
            let name = mac
                .path
                .segments
                .last()
                .map(|s| s.ident.to_string())
                .unwrap_or_default();
            if matches!(
                name.as_str(),
                "thread_local" | "lazy_static" | "macro_rules"
            ) {
                self.0 = false;
            }
        }
        fn visit_attribute(&mut self, attr: &Attribute) {
            if attr
                .path()
                .segments
                .first()
                .is_some_and(|s| s.ident == "mu2")
            {
                self.0 = false;
            }
        }
    }
    if let ReturnType::Type(_, ty) = &sig.output {
        if contains_impl_trait(ty) {
            return false;
        }
    }
    let mut check = Check(true);
    syn::visit::Visit::visit_block(&mut check, block);
    check.0
}

/// The names of `path`'s segments, in order (`std::process::exit` ->
/// `["std", "process", "exit"]`).
/// What `return` takes to return a body as written: the body's one
/// expression without its braces when that is all it has (`return { x * 2 };`
/// draws `unused_braces` when the function was written on one line), else
/// the block.
fn returned(body: Block) -> TokenStream {
    match body.stmts.as_slice() {
        [Stmt::Expr(e, None)] => e.to_token_stream(),
        _ => body.to_token_stream(),
    }
}

fn segment_names(path: &syn::Path) -> Vec<String> {
    path.segments.iter().map(|s| s.ident.to_string()).collect()
}

/// A call that a run must not let end or stall the process, and its one
/// argument: `process::exit(code)` and `thread::sleep(duration)` (also with
/// `std::` or `::std::` in front). Both become the runtime's own
/// (`__rt::exit`, `__rt::sleep`), which behave as written outside runs.
pub(crate) fn process_call(e: &Expr) -> Option<(&'static str, &Expr)> {
    let Expr::Call(call) = e else { return None };
    let Expr::Path(p) = &*call.func else {
        return None;
    };
    let names = segment_names(&p.path);
    let (module, name) = match names.as_slice() {
        [module, name] | [_, module, name] => (module.as_str(), name.as_str()),
        _ => return None,
    };
    if names.len() == 3 && names[0] != "std" {
        return None;
    }
    let known = match (module, name) {
        ("process", "exit") => "exit",
        ("thread", "sleep") => "sleep",
        _ => return None,
    };
    (p.qself.is_none() && call.args.len() == 1).then(|| (known, &call.args[0]))
}

/// The variables a function's parameters bind, last declared first:
/// `self`, and every identifier in each parameter's pattern (not `_`);
/// not those of a parameter under `#[cfg(..)]`, which may not exist.
fn param_bindings(sig: &Signature) -> Vec<TokenStream> {
    fn idents(p: &Pat, out: &mut Vec<TokenStream>) {
        match p {
            Pat::Ident(i) => {
                out.push(i.ident.to_token_stream());
                if let Some((_, sub)) = &i.subpat {
                    idents(sub, out);
                }
            }
            Pat::Tuple(t) => t.elems.iter().for_each(|p| idents(p, out)),
            Pat::TupleStruct(t) => t.elems.iter().for_each(|p| idents(p, out)),
            Pat::Struct(s) => s.fields.iter().for_each(|f| idents(&f.pat, out)),
            Pat::Slice(s) => s.elems.iter().for_each(|p| idents(p, out)),
            Pat::Reference(r) => idents(&r.pat, out),
            Pat::Paren(p) => idents(&p.pat, out),
            Pat::Type(t) => idents(&t.pat, out),
            _ => {}
        }
    }
    let mut out = Vec::new();
    for input in &sig.inputs {
        let attrs = match input {
            syn::FnArg::Receiver(r) => &r.attrs,
            syn::FnArg::Typed(t) => &t.attrs,
        };
        if has_attr(attrs, "cfg") {
            continue;
        }
        match input {
            syn::FnArg::Receiver(r) => out.push(r.self_token.to_token_stream()),
            syn::FnArg::Typed(t) => idents(&t.pat, &mut out),
        }
    }
    out.reverse();
    out
}

/// `::mu2::__rt::exit(code)`, what a `process::exit(code)` call becomes
/// (`sleep` likewise).
pub(crate) fn process_call_in_run(name: &str, arg: &Expr) -> Expr {
    let name = format_ident!("{name}");
    Expr::Verbatim(quote!(::mu2::__rt::#name(#arg)))
}

/// Whether `attrs` has `#[name]` (or `#[name(..)]`, `#[name = ..]`).
fn has_attr(attrs: &[Attribute], name: &str) -> bool {
    attrs.iter().any(|a| a.path().is_ident(name))
}

#[cfg(test)]
mod tests {
    use super::{
        moves_a_local, param_bindings, process_call, promotable, rooted_place, synchronizes,
        unwinds, waits_on_others,
    };

    fn expr(src: &str) -> syn::Expr {
        syn::parse_str(src).expect("an expression")
    }

    #[test]
    fn constant_operands_behind_a_reference_stay_constant() {
        for e in [
            "1 << 10",
            "[1 << 10, 3 * 4, LIMIT + 1]",
            "(-1, 0 + 1)",
            "u8::MAX as u32 - 1",
            "[0u8 + 1; 4]",
            "1 < 2",
            "[Op::Push(6 * 7), Op::Add]",
            "Pt { x: 1 - 1, y: 0 }",
            "Some(2 + 2)",
            "Max + 1",
        ] {
            assert!(promotable(&expr(e)), "{e}");
        }
        for e in [
            "k * 3",
            "[x + 1]",
            "f(1) + 2",
            "*p + 1",
            "self.n + 1",
            "Some(x + 1)",
            "Pt { x: k - 1, y: 0 }",
            "make(1 + 1)",
        ] {
            assert!(!promotable(&expr(e)), "{e}");
        }
    }

    #[test]
    fn process_level_calls_are_recognized() {
        for (e, name) in [
            ("std::process::exit(1)", "exit"),
            ("process::exit(code)", "exit"),
            ("::std::process::exit(2)", "exit"),
            ("std::thread::sleep(d)", "sleep"),
            ("thread::sleep(Duration::from_millis(5))", "sleep"),
        ] {
            assert_eq!(process_call(&expr(e)).map(|(n, _)| n), Some(name), "{e}");
        }
        for e in [
            "exit(1)",
            "sleep(d)",
            "tokio::time::sleep(d)",
            "my::process::exit(1)",
            "thread::sleep(a, b)",
        ] {
            assert!(process_call(&expr(e)).is_none(), "{e}");
        }
    }

    #[test]
    fn calls_that_move_a_local() {
        for e in ["finish(g)", "pool.release(guard, 1)", "consume(_g)"] {
            assert!(moves_a_local(&expr(e)), "{e}");
        }
        for e in ["v.push(1)", "finish(&g)", "f(MAX)", "g.unlock()", "f(a.b)"] {
            assert!(!moves_a_local(&expr(e)), "{e}");
        }
    }

    #[test]
    fn places_rooted_in_locals_only() {
        for e in [
            "x", "self.a", "p.value", "v[i].0", "(*b).x", "*r", "r#type.n",
        ] {
            assert!(rooted_place(&expr(e)), "{e}");
        }
        // Consts are values: a field of one is a field of a temporary.
        for e in [
            "LIMITS.max",
            "PRIMES[i]",
            "Self::ZERO.x",
            "m::C.v[0]",
            "make().n",
        ] {
            assert!(!rooted_place(&expr(e)), "{e}");
        }
    }

    #[test]
    fn parameters_last_declared_first() {
        let names = |src: &str| {
            let sig = syn::parse_str::<syn::ImplItemFn>(src).expect("a fn").sig;
            param_bindings(&sig)
                .iter()
                .map(|t| t.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        };
        assert_eq!(names("fn f(&self, a: u8, mut b: u8) {}"), "b a self");
        assert_eq!(
            names("fn f((a, _): (u8, u8), P { x, y: ref z }: P, c @ 1..: u8, _: u8) {}"),
            "c z x a"
        );
        assert_eq!(
            names("fn f(#[cfg(x)] a: u8, #[allow(unused)] b: u8) {}"),
            "b"
        );
    }

    #[test]
    fn bodies_that_wait_for_other_threads() {
        let body = |src: &str| syn::parse_str::<syn::Block>(src).expect("a block");
        for b in [
            "{ while !*g { g = cvar.wait(g).unwrap(); } }",
            "{ let g = c.wait_while(m.lock().unwrap(), |n| *n < k).unwrap(); }",
            "{ for _ in 0..n { t += rx.recv().unwrap(); } }",
            "{ barrier.wait(); }",
            "{ while !f.load(SeqCst) { std::thread::park(); } }",
        ] {
            assert!(waits_on_others(&body(b)), "{b}");
        }
        for b in [
            "{ h.join().unwrap(); }",
            "{ let (g, _) = cvar.wait_timeout(g, d).unwrap(); }",
            "{ rx.try_recv().ok(); }",
            "{ fn inner() { rx.recv(); } }",
        ] {
            assert!(!waits_on_others(&body(b)), "{b}");
        }
    }

    #[test]
    fn abis_that_unwind() {
        let sig = |src: &str| syn::parse_str::<syn::ItemFn>(src).expect("a fn").sig;
        assert!(unwinds(&sig("fn f() {}")));
        assert!(unwinds(&sig("extern \"Rust\" fn f() {}")));
        assert!(unwinds(&sig("extern \"C-unwind\" fn f() {}")));
        assert!(!unwinds(&sig("extern \"C\" fn f() {}")));
        assert!(!unwinds(&sig("extern fn f() {}")));
    }

    #[test]
    fn calls_that_release_or_signal() {
        for e in [
            "drop(g)",
            "std::mem::drop(tx)",
            "tx.send(1).unwrap()",
            "cvar.notify_all()",
            "stop.store(true, SeqCst)",
            "barrier.wait()",
            "h.thread().unpark()",
            "token.cancel()",
            "cx.waker().wake_by_ref()",
        ] {
            assert!(synchronizes(&expr(e)), "{e}");
        }
        for e in ["v.push(1)", "log(x)", "h.join().unwrap()", "dropped(x)"] {
            assert!(!synchronizes(&expr(e)), "{e}");
        }
    }
}
