//! Whether a call's function is, in the caller's own module, a plain `fn`
//! without `#[differentiable]`.
//!
//! The sweeps call a helper through the items its attribute generates
//! (`helper::__vjp_full`). For a helper without the attribute rustc then
//! says "cannot find module or crate `helper`", which names it but does not
//! say what to do, and stable Rust has no way to put a message of ours on a
//! path that does not resolve. The macro cannot ask the compiler what a name
//! resolves to, but it can read the source file the call is written in
//! (spans know their file since Rust 1.88). Where the caller's module
//! declares `fn helper` itself, once, plainly and without the attribute,
//! and neither the module nor the caller's body, nor any body the caller
//! is declared in, binds the name otherwise (an item in a block shadows
//! the module's), the call can only be to that function, and the macro
//! says to annotate it. Everything less certain (an import, a glob,
//! another file, a `cfg`, a macro, a caller's name in two modules) is left
//! to rustc: a false answer here would reject valid code.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::rc::Rc;
use std::time::SystemTime;

use syn::visit::Visit;

use crate::enclosing::Enclosing;

/// Whether the function a call names (`helper`, `self::helper`,
/// `helpers::square` of an inline `mod helpers`), called from the function
/// `caller`, is a plain function written without the attribute.
pub fn is_plain_function(caller: &str, path: &syn::Path) -> bool {
    if !proc_macro::is_available() || path.leading_colon.is_some() {
        return false;
    }
    let mut segments: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
    if segments.len() > 1 && segments[0] == "self" {
        segments.remove(0);
    }
    let Some((callee, modules)) = segments.split_last() else {
        return false;
    };
    let Some(source) = path
        .segments
        .last()
        .and_then(|s| s.ident.span().unwrap().local_file())
    else {
        return false;
    };
    let Some(file) = summary(source) else {
        return false;
    };
    // The caller's name in two modules of the file: which one this is, the
    // file alone does not tell.
    let mut declaring = file
        .modules
        .iter()
        .filter(|m| m.callers.contains_key(caller));
    let (Some(mut module), None) = (declaring.next(), declaring.next()) else {
        return false;
    };
    let first = modules.first().unwrap_or(callee);
    if module.callers[caller].iter().any(|body| body.binds(first)) {
        return false;
    }
    for name in modules {
        let Some(&inner) = module.children.get(name) else {
            return false;
        };
        module = &file.modules[inner];
    }
    module.plain.contains(callee)
}

/// The functions of `autograd::prelude` (src/prelude.rs), which a body
/// calls by their bare name once the prelude is imported.
const PRELUDE_FUNCTIONS: [&str; 2] = ["relu", "sigmoid"];

/// The error at a call `sigmoid(x)` of a function of `autograd::prelude`
/// that nothing in scope names, where the file shows it: the caller's
/// module declares and imports nothing by that name, has no glob import
/// and no item macro, and no body around the caller binds it. rustc would
/// report the name once in the function and again in each generated item
/// (one suggesting `cargo add sigmoid`); this is the one error instead.
pub fn unresolved_prelude_function(caller: &str, path: &syn::Path) -> Option<String> {
    let name = path.get_ident()?.to_string();
    if !PRELUDE_FUNCTIONS.contains(&name.as_str()) || !proc_macro::is_available() {
        return None;
    }
    let source = path.segments[0].ident.span().unwrap().local_file()?;
    let file = summary(source)?;
    let mut declaring = file
        .modules
        .iter()
        .filter(|m| m.callers.contains_key(caller));
    let (Some(module), None) = (declaring.next(), declaring.next()) else {
        return None;
    };
    let bound = module.unknown
        || module.bound.contains(&name)
        || module.callers[caller].iter().any(|body| body.binds(&name));
    (!bound).then(|| {
        format!(
            "`{name}` is not in scope: it is autograd's, import it with `use autograd::prelude::*;` (or call it as `autograd::prelude::{name}(..)`)"
        )
    })
}

/// What a name called in the function `caller` is bound to, as far as its
/// source file shows.
#[derive(Debug, PartialEq, Eq)]
pub enum Binding {
    /// An item of the caller's module or body (a function, a type, ..).
    Own,
    /// An explicit import, from this path.
    Imported(Vec<String>),
    /// Nothing the file shows: a glob import, the prelude, or a file the
    /// macro cannot read.
    Unknown,
}

/// What the first segment of a called path is bound to in the caller's
/// module (see [`Binding`]).
pub fn binding(caller: &str, name: &syn::Ident) -> Binding {
    if !proc_macro::is_available() {
        return Binding::Unknown;
    }
    let Some(file) = name.span().unwrap().local_file().and_then(summary) else {
        return Binding::Unknown;
    };
    let mut declaring = file
        .modules
        .iter()
        .filter(|m| m.callers.contains_key(caller));
    let (Some(module), None) = (declaring.next(), declaring.next()) else {
        return Binding::Unknown;
    };
    let name = name.to_string();
    for body in &module.callers[caller] {
        if let Some(path) = body.imports.get(&name) {
            return Binding::Imported(path.clone());
        }
        if body.names.contains(&name) {
            return Binding::Own;
        }
    }
    if let Some(path) = module.imports.get(&name) {
        return Binding::Imported(path.clone());
    }
    if module.own.contains(&name) {
        return Binding::Own;
    }
    Binding::Unknown
}

/// Whether a call names an associated function of a type (`Model::g`,
/// `Self::g`: a type's name is capitalised). A free function's generated
/// code reaches a callee through the items its attribute puts next to it
/// (`g::__vjp_full`), which an associated function does not have.
pub fn is_associated_function(path: &syn::Path) -> bool {
    let n = path.segments.len();
    n >= 2 && {
        let ty = path.segments[n - 2].ident.to_string();
        ty == "Self" || ty.starts_with(|c: char| c.is_ascii_uppercase())
    }
}

/// The error at a call of such a function (or of an associated function
/// with an argument that carries a derivative), and the call as written
/// (one error per function called).
pub fn error(path: &syn::Path) -> (String, String) {
    let written = quote::ToTokens::to_token_stream(path)
        .to_string()
        .replace(' ', "");
    let name = &path.segments.last().expect("a called path").ident;
    if is_associated_function(path) {
        let message = format!(
            "`{written}` is an associated function: a `#[differentiable]` body differentiates calls of free functions (`{name}(..)`) and of methods of the same `#[differentiable] impl` block; make `{name}` a free `#[differentiable]` function, or, if its value does not depend on the differentiable arguments, compute it outside and pass it in as a `#[constant]` argument"
        );
        return (written, message);
    }
    let message = format!(
        "`{written}` is not `#[differentiable]`, so it has no derivative to call: put `#[differentiable]` on `fn {name}`; or, if its value does not depend on the differentiable arguments, compute it outside and pass it in as a `#[constant]` argument"
    );
    (written, message)
}

/// What the check needs to know of one source file, as strings: a parsed
/// tree cannot outlive its expansion (its identifiers hold that
/// expansion's symbols), and parsing the file at every call made a file of
/// many functions calling each other quadratic to expand (300 random
/// programs, 1.9 MB: 40 s at 60, 11 min at 300).
struct FileSummary {
    /// The file's modules, its root first, then every inline module.
    modules: Vec<ModuleSummary>,
    /// Where each function with its own attribute stands.
    places: HashMap<String, Enclosing>,
    /// The `#[derive(Tangent)]` structs declared in the file (its modules
    /// at any depth), by name: each field with the name of its type where
    /// the derive takes it as a nested `Tangent` struct. `None` for a name
    /// declared twice, which the file alone does not tell apart.
    tangent_structs: HashMap<String, Option<TangentFields>>,
    /// The names of the structs the file declares `pub` (in any of its
    /// modules), and of those it declares otherwise.
    public_structs: HashSet<String>,
    other_structs: HashSet<String>,
}

/// A `Tangent` struct's fields, each with the name of its type if the
/// derive takes it as a nested struct, and whether it is a differentiable
/// `f64`.
type TangentFields = Vec<(String, Option<String>, bool)>;

#[derive(Default)]
struct ModuleSummary {
    /// Functions the module declares plainly: once, without the attribute
    /// or any but inert attributes, and nothing else by that name.
    plain: HashSet<String>,
    /// Inline modules a path may go through (the only binding of their name
    /// in the module, with inert attributes only), by name,
    /// as indices into `FileSummary::modules`.
    children: HashMap<String, usize>,
    /// Every name the module's items and imports bind.
    bound: HashSet<String>,
    /// A glob import, an item macro or an item the file does not show:
    /// any name may be bound.
    unknown: bool,
    /// The bodies of the functions declared here, free, in an `impl` or
    /// `trait` block or in another function's body at any depth, by name.
    callers: HashMap<String, Vec<BodyBindings>>,
    /// Names an item of the module itself binds (a function of any
    /// attributes, a type, a constant, ..), not an import.
    own: HashSet<String>,
    /// Names the module imports explicitly, with the path each comes from.
    imports: HashMap<String, Vec<String>>,
    /// Functions with the attribute, declared once, taking no struct and
    /// returning one by value (`fn make(a: f64) -> Pair`): the name of the
    /// struct returned.
    struct_results: HashMap<String, String>,
}

/// The names a function body's own items and imports bind, and those of
/// every body it is declared in.
#[derive(Clone, Default)]
struct BodyBindings {
    names: HashSet<String>,
    /// The names among them the body imports, with their paths.
    imports: HashMap<String, Vec<String>>,
    /// A glob import or an opaque item: any name may be bound.
    any: bool,
}

impl BodyBindings {
    fn binds(&self, name: &str) -> bool {
        self.any || self.names.contains(name)
    }

    /// Everything unknown: a function whose scope the file does not show.
    fn anything() -> Self {
        BodyBindings {
            any: true,
            ..BodyBindings::default()
        }
    }
}

/// When a file was read: a file edited since (an IDE expands on every
/// keystroke) is read again.
type Stamp = (u64, Option<SystemTime>);

thread_local! {
    static SUMMARIES: RefCell<HashMap<PathBuf, (Stamp, Rc<FileSummary>)>> =
        RefCell::new(HashMap::new());
}

/// Where the function `name` with `#[differentiable]` on itself alone
/// stands in the source file `file` (see `enclosing`).
pub fn enclosing(file: Option<PathBuf>, name: &str) -> Enclosing {
    file.and_then(summary)
        .and_then(|s| s.places.get(name).cloned())
        .unwrap_or(Enclosing::Unknown)
}

/// The summary of a source file, read once per version of the file.
fn summary(path: PathBuf) -> Option<Rc<FileSummary>> {
    let meta = std::fs::metadata(&path).ok()?;
    let stamp = (meta.len(), meta.modified().ok());
    if let Some(found) = SUMMARIES.with_borrow(|cache| {
        cache
            .get(&path)
            .filter(|(seen, _)| *seen == stamp)
            .map(|(_, s)| Rc::clone(s))
    }) {
        return Some(found);
    }
    let text = std::fs::read_to_string(&path).ok()?;
    let file = syn::parse_file(&text).ok()?;
    let mut modules = Vec::new();
    summarize(&file.items, &mut modules);
    let mut tangent_structs = HashMap::new();
    record_tangent_structs(&file.items, &mut tangent_structs);
    let (mut public_structs, mut other_structs) = (HashSet::new(), HashSet::new());
    record_struct_visibility(&file.items, &mut public_structs, &mut other_structs);
    let summary = Rc::new(FileSummary {
        modules,
        places: crate::enclosing::places(&file),
        tangent_structs,
        public_structs,
        other_structs,
    });
    SUMMARIES.with_borrow_mut(|cache| cache.insert(path, (stamp, Rc::clone(&summary))));
    Some(summary)
}

/// The name of the nested `Tangent` struct a field chain names (`inner`
/// in `p.inner` with `p: &Params`, `b` in `p.a.b`), where the source file
/// of `path` declares `struct Params` once with `#[derive(Tangent)]` and
/// the field's type is one the derive takes as a nested struct, itself so
/// declared for a longer chain. `None` wherever the file does not show it
/// (a struct declared in another file, a collection or float field): a
/// field read then stays a read of its elements or value.
pub fn nested_tangent_field(ty: &str, path: &[syn::Ident]) -> Option<String> {
    if !proc_macro::is_available() {
        return None;
    }
    let file = path
        .first()?
        .span()
        .unwrap()
        .local_file()
        .and_then(summary)?;
    let mut ty = ty.to_string();
    for field in path {
        let fields = file.tangent_structs.get(&ty)?.as_ref()?;
        let (_, nested, _) = fields.iter().find(|(name, _, _)| field == name)?;
        ty = nested.clone()?;
    }
    Some(ty)
}

/// The fields of the `#[derive(Tangent)]` struct `ty`, where the source
/// file of `ty` declares it once and every field is a differentiable
/// `f64`: what a function returning it returns as an array.
pub fn f64_tangent_fields(ty: &syn::Ident) -> Option<Vec<String>> {
    if !proc_macro::is_available() {
        return None;
    }
    let file = ty.span().unwrap().local_file().and_then(summary)?;
    f64_fields(&file, &ty.to_string())
}

/// Whether the source file of `ty` declares a struct of that name, and
/// only as `pub`: what an item as public as a `pub` function may name in a
/// trait impl's associated type (E0446 otherwise).
pub fn declared_pub(ty: &syn::Ident) -> bool {
    if !proc_macro::is_available() {
        return false;
    }
    let Some(file) = ty.span().unwrap().local_file().and_then(summary) else {
        return false;
    };
    let name = ty.to_string();
    file.public_structs.contains(&name) && !file.other_structs.contains(&name)
}

fn record_struct_visibility(
    items: &[syn::Item],
    public: &mut HashSet<String>,
    other: &mut HashSet<String>,
) {
    for item in items {
        match item {
            syn::Item::Struct(s) if matches!(s.vis, syn::Visibility::Public(_)) => {
                public.insert(s.ident.to_string());
            }
            syn::Item::Struct(s) => {
                other.insert(s.ident.to_string());
            }
            syn::Item::Mod(m) => {
                if let Some((_, inner)) = &m.content {
                    record_struct_visibility(inner, public, other);
                }
            }
            _ => {}
        }
    }
}

fn f64_fields(file: &FileSummary, ty: &str) -> Option<Vec<String>> {
    let fields = file.tangent_structs.get(ty)?.as_ref()?;
    (!fields.is_empty() && fields.iter().all(|(_, _, float)| *float))
        .then(|| fields.iter().map(|(name, _, _)| name.clone()).collect())
}

/// What a call `make(..)` in the function `caller` returns, where the
/// caller's module declares `make` with the attribute, taking no struct
/// and returning a `Tangent` struct of `f64` fields (see
/// [`f64_tangent_fields`]): the struct's name and fields.
pub fn struct_result(caller: &str, path: &syn::Path) -> Option<(String, Vec<String>)> {
    if !proc_macro::is_available() || path.leading_colon.is_some() {
        return None;
    }
    let mut segments: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
    if segments.len() > 1 && segments[0] == "self" {
        segments.remove(0);
    }
    let (callee, modules) = segments.split_last()?;
    let source = path.segments.last()?.ident.span().unwrap().local_file()?;
    let file = summary(source)?;
    let mut declaring = file
        .modules
        .iter()
        .filter(|m| m.callers.contains_key(caller));
    let (Some(mut module), None) = (declaring.next(), declaring.next()) else {
        return None;
    };
    let first = modules.first().unwrap_or(callee);
    if module.callers[caller].iter().any(|body| body.binds(first)) {
        return None;
    }
    for name in modules {
        module = &file.modules[*module.children.get(name)?];
    }
    let ty = module.struct_results.get(callee)?;
    Some((ty.clone(), f64_fields(&file, ty)?))
}

/// Records the `#[derive(Tangent)]` structs of `items` and of their inline
/// modules (see [`FileSummary::tangent_structs`]).
fn record_tangent_structs(items: &[syn::Item], out: &mut HashMap<String, Option<TangentFields>>) {
    for item in items {
        match item {
            syn::Item::Struct(s) => {
                let derives_tangent = s.attrs.iter().any(|a| {
                    a.path().is_ident("derive")
                        && quote::ToTokens::to_token_stream(&a.meta)
                            .into_iter()
                            .any(|t| matches!(t, proc_macro2::TokenTree::Group(g) if g.stream().into_iter().any(|t| matches!(t, proc_macro2::TokenTree::Ident(i) if i == "Tangent"))))
                });
                let name = s.ident.to_string();
                let fields = match &s.fields {
                    syn::Fields::Named(named) if derives_tangent => named
                        .named
                        .iter()
                        .filter_map(|f| {
                            let constant = f.attrs.iter().any(crate::sig::is_constant_attr);
                            let nested = crate::sig::nested_tangent_type(&f.ty)
                                .filter(|_| !constant)
                                .map(|t| t.to_string());
                            let float = !constant
                                && matches!(&f.ty, syn::Type::Path(p) if p.path.is_ident("f64"));
                            Some((f.ident.as_ref()?.to_string(), nested, float))
                        })
                        .collect(),
                    _ => Vec::new(),
                };
                // Any struct of the name counts, so that two of one name
                // (only one a `Tangent` struct) are not taken for certain.
                out.entry(name)
                    .and_modify(|seen| *seen = None)
                    .or_insert(Some(fields));
            }
            syn::Item::Mod(m) => {
                if let Some((_, inner)) = &m.content {
                    record_tangent_structs(inner, out);
                }
            }
            _ => {}
        }
    }
}

/// Appends the summary of a module and of every inline module in it to
/// `modules`; returns the module's index.
fn summarize(items: &[syn::Item], modules: &mut Vec<ModuleSummary>) -> usize {
    let index = modules.len();
    modules.push(ModuleSummary::default());
    // How many items other than functions bind each name, and the
    // functions of each name with whether all their attributes are inert.
    let mut others: HashMap<String, usize> = HashMap::new();
    let mut opaque = false;
    let mut functions: HashMap<String, Vec<bool>> = HashMap::new();
    let (mut own, mut imports) = (HashSet::new(), HashMap::new());
    for item in items {
        match item {
            syn::Item::Use(u) => use_paths(&u.tree, &mut Vec::new(), &mut imports),
            syn::Item::Fn(_) => {}
            _ => {
                if let OtherBinding::Names(names) = other_binding(item) {
                    own.extend(names);
                }
            }
        }
        match item {
            syn::Item::Fn(f) => functions
                .entry(f.sig.ident.to_string())
                .or_default()
                .push(f.attrs.iter().all(is_inert)),
            _ => match other_binding(item) {
                OtherBinding::Names(names) => {
                    for name in names {
                        *others.entry(name).or_default() += 1;
                    }
                }
                OtherBinding::Any => opaque = true,
                OtherBinding::Nothing => {}
            },
        }
    }
    let mut summary = ModuleSummary {
        bound: functions.keys().chain(others.keys()).cloned().collect(),
        unknown: opaque
            || items.iter().any(|item| match item {
                syn::Item::Use(u) => has_glob(&u.tree),
                syn::Item::Macro(m) => m.ident.is_none(),
                _ => false,
            }),
        ..ModuleSummary::default()
    };
    // Declared once, with the attribute, taking no struct.
    summary.struct_results = items
        .iter()
        .filter_map(|item| {
            let syn::Item::Fn(f) = item else { return None };
            let name = f.sig.ident.to_string();
            let marked = f.attrs.iter().any(|a| {
                a.path()
                    .segments
                    .last()
                    .is_some_and(|s| s.ident == "differentiable")
            });
            let takes_struct = f.sig.inputs.iter().any(|a| match a {
                syn::FnArg::Typed(pt) => {
                    !pt.attrs.iter().any(crate::sig::is_constant_attr)
                        && crate::sig::is_struct_type(&pt.ty, &f.sig.generics)
                }
                syn::FnArg::Receiver(_) => true,
            });
            let syn::ReturnType::Type(_, ty) = &f.sig.output else {
                return None;
            };
            let Some((syn::Type::Path(p), false)) = crate::sig::struct_type(ty, &f.sig.generics)
            else {
                return None;
            };
            let ty = p.path.segments.last()?.ident.to_string();
            (marked && !takes_struct && functions[&name].len() == 1 && !others.contains_key(&name))
                .then_some((name, ty))
        })
        .collect();
    own.extend(functions.keys().cloned());
    summary.own = own;
    summary.imports = imports;
    if !opaque {
        // Declared once, as a function without the attribute, `cfg` or an
        // attribute macro, and nothing else by that name.
        summary.plain = functions
            .into_iter()
            .filter(|(name, inert)| *inert == [true] && !others.contains_key(name))
            .map(|(name, _)| name)
            .collect();
    }
    let all: Vec<&syn::Item> = items.iter().collect();
    record_callers(&all, None, &mut summary.callers);
    for item in items {
        if let syn::Item::Mod(m) = item
            && let Some((_, inner)) = &m.content
        {
            let child = summarize(inner, modules);
            // A path goes through a module only if nothing else in its
            // parent has its name.
            let name = m.ident.to_string();
            if !opaque && others[&name] == 1 && m.attrs.iter().all(is_inert) {
                summary.children.insert(name, child);
            }
        }
    }
    modules[index] = summary;
    index
}

/// Records, under their names, the bodies of the functions `items`
/// declare (free, in `impl` and `trait` blocks), and of the functions
/// declared inside those bodies at any depth: a function declared in a
/// body sees the items of every body around it, which shadow the
/// module's, so each is recorded with the names they bind too. `enclosing`
/// is `None` for a module's own items (its inline modules are summarized
/// on their own).
fn record_callers(
    items: &[&syn::Item],
    enclosing: Option<&BodyBindings>,
    callers: &mut HashMap<String, Vec<BodyBindings>>,
) {
    let record =
        |callers: &mut HashMap<String, Vec<BodyBindings>>, name: &syn::Ident, body: &syn::Block| {
            let mut own = bindings(body);
            if let Some(outer) = enclosing {
                own.names.extend(outer.names.iter().cloned());
                own.any |= outer.any;
            }
            callers
                .entry(name.to_string())
                .or_default()
                .push(own.clone());
            let mut nested = NestedItems(Vec::new());
            nested.visit_block(body);
            record_callers(&nested.0, Some(&own), callers);
        };
    for &item in items {
        match item {
            syn::Item::Fn(f) => record(callers, &f.sig.ident, &f.block),
            syn::Item::Impl(imp) => {
                for inner in &imp.items {
                    if let syn::ImplItem::Fn(f) = inner {
                        record(callers, &f.sig.ident, &f.block);
                    }
                }
            }
            syn::Item::Trait(t) => {
                for inner in &t.items {
                    if let syn::TraitItem::Fn(f) = inner
                        && let Some(body) = &f.default
                    {
                        record(callers, &f.sig.ident, body);
                    }
                }
            }
            // A module declared in a body: its functions resolve names in
            // a module this summary does not keep. Their names are
            // recorded as unknown, so a caller of the same name elsewhere
            // is not taken for certain.
            syn::Item::Mod(m) if enclosing.is_some() => {
                struct AllFunctions<'c>(&'c mut HashMap<String, Vec<BodyBindings>>);
                impl<'ast> Visit<'ast> for AllFunctions<'_> {
                    fn visit_signature(&mut self, sig: &'ast syn::Signature) {
                        self.0
                            .entry(sig.ident.to_string())
                            .or_default()
                            .push(BodyBindings::anything());
                    }
                }
                AllFunctions(callers).visit_item_mod(m);
            }
            _ => {}
        }
    }
}

/// The items a body declares at any depth (in its blocks, closures and
/// constants), not those inside the functions it declares, which their
/// own bodies hold.
struct NestedItems<'ast>(Vec<&'ast syn::Item>);

impl<'ast> Visit<'ast> for NestedItems<'ast> {
    fn visit_item(&mut self, item: &'ast syn::Item) {
        match item {
            syn::Item::Fn(_) | syn::Item::Impl(_) | syn::Item::Trait(_) | syn::Item::Mod(_) => {
                self.0.push(item)
            }
            other => syn::visit::visit_item(self, other),
        }
    }
}

/// Attributes that leave a function as written: anything else (the
/// attribute itself, under any path, `cfg`, `cfg_attr`, another macro)
/// may make it something this file does not show.
fn is_inert(attr: &syn::Attribute) -> bool {
    let path = attr.path();
    let first = path.segments.first().map(|s| s.ident.to_string());
    matches!(first.as_deref(), Some("rustfmt" | "clippy"))
        || [
            "doc",
            "inline",
            "cold",
            "must_use",
            "track_caller",
            "deprecated",
            "allow",
            "warn",
            "deny",
            "forbid",
            "expect",
        ]
        .iter()
        .any(|inert| path.is_ident(inert))
}

/// The names an item other than a function binds: a module, type,
/// constant or import of a function's name would take the call or its
/// hidden items.
enum OtherBinding {
    Names(Vec<String>),
    /// An item whose names the file does not show (an `extern` block,
    /// tokens syn does not parse).
    Any,
    Nothing,
}

fn other_binding(item: &syn::Item) -> OtherBinding {
    let ident = match item {
        syn::Item::Mod(i) => &i.ident,
        syn::Item::Struct(i) => &i.ident,
        syn::Item::Enum(i) => &i.ident,
        syn::Item::Union(i) => &i.ident,
        syn::Item::Trait(i) => &i.ident,
        syn::Item::Type(i) => &i.ident,
        syn::Item::Const(i) => &i.ident,
        syn::Item::Static(i) => &i.ident,
        syn::Item::ExternCrate(i) => i.rename.as_ref().map_or(&i.ident, |(_, r)| r),
        syn::Item::Use(u) => {
            let mut names = HashSet::new();
            use_names(&u.tree, &mut names);
            return OtherBinding::Names(names.into_iter().collect());
        }
        syn::Item::ForeignMod(_) | syn::Item::Verbatim(_) => return OtherBinding::Any,
        _ => return OtherBinding::Nothing,
    };
    OtherBinding::Names(vec![ident.to_string()])
}

/// The names a `use` tree imports explicitly (in a module a glob never
/// shadows an item, so it is no matter there).
fn use_names(tree: &syn::UseTree, names: &mut HashSet<String>) {
    match tree {
        syn::UseTree::Path(p) => use_names(&p.tree, names),
        syn::UseTree::Name(n) => {
            names.insert(n.ident.to_string());
        }
        syn::UseTree::Rename(r) => {
            names.insert(r.rename.to_string());
        }
        syn::UseTree::Glob(_) => {}
        syn::UseTree::Group(g) => g.items.iter().for_each(|t| use_names(t, names)),
    }
}

/// The names a `use` tree imports explicitly, each with the path it comes
/// from (`use a::b as c;` gives `c` → `a::b`; `use a::{self}` gives `a`).
fn use_paths(
    tree: &syn::UseTree,
    prefix: &mut Vec<String>,
    out: &mut HashMap<String, Vec<String>>,
) {
    let path_of = |ident: &syn::Ident| {
        let mut path = prefix.clone();
        if ident != "self" {
            path.push(ident.to_string());
        }
        path
    };
    match tree {
        syn::UseTree::Path(p) => {
            prefix.push(p.ident.to_string());
            use_paths(&p.tree, prefix, out);
            prefix.pop();
        }
        syn::UseTree::Name(n) => {
            let path = path_of(&n.ident);
            if let Some(name) = path.last() {
                out.insert(name.clone(), path);
            }
        }
        syn::UseTree::Rename(r) => {
            out.insert(r.rename.to_string(), path_of(&r.ident));
        }
        syn::UseTree::Glob(_) => {}
        syn::UseTree::Group(g) => g.items.iter().for_each(|t| use_paths(t, prefix, out)),
    }
}

fn has_glob(tree: &syn::UseTree) -> bool {
    match tree {
        syn::UseTree::Path(p) => has_glob(&p.tree),
        syn::UseTree::Glob(_) => true,
        syn::UseTree::Group(g) => g.items.iter().any(has_glob),
        syn::UseTree::Name(_) | syn::UseTree::Rename(_) => false,
    }
}

/// What a function body's own items and imports bind (a glob too: in a
/// block it is the nearer scope).
fn bindings(body: &syn::Block) -> BodyBindings {
    struct Finder(BodyBindings);
    impl<'ast> Visit<'ast> for Finder {
        fn visit_item(&mut self, item: &'ast syn::Item) {
            let found = &mut self.0;
            match item {
                syn::Item::Fn(f) => {
                    found.names.insert(f.sig.ident.to_string());
                }
                syn::Item::Use(u) if has_glob(&u.tree) => found.any = true,
                syn::Item::Use(u) => {
                    use_paths(&u.tree, &mut Vec::new(), &mut found.imports);
                    found.names.extend(found.imports.keys().cloned());
                }
                syn::Item::Macro(m) if m.ident.is_none() && !binds_nothing(&m.mac) => {
                    found.any = true
                }
                other => match other_binding(other) {
                    OtherBinding::Names(names) => found.names.extend(names),
                    OtherBinding::Any => found.any = true,
                    OtherBinding::Nothing => {}
                },
            }
        }
        // A macro in a statement's place may expand to items.
        fn visit_stmt_macro(&mut self, m: &'ast syn::StmtMacro) {
            if !binds_nothing(&m.mac) {
                self.0.any = true;
            }
        }
    }
    let mut finder = Finder(BodyBindings {
        names: HashSet::new(),
        imports: HashMap::new(),
        any: false,
    });
    finder.visit_block(body);
    finder.0
}

/// The standard library's macros that expand to an expression, never to
/// an item: written as a statement, they bind no name.
fn binds_nothing(mac: &syn::Macro) -> bool {
    const EXPRESSIONS: [&str; 20] = [
        "assert",
        "assert_eq",
        "assert_ne",
        "debug_assert",
        "debug_assert_eq",
        "debug_assert_ne",
        "dbg",
        "eprint",
        "eprintln",
        "format",
        "matches",
        "panic",
        "print",
        "println",
        "todo",
        "unimplemented",
        "unreachable",
        "vec",
        "write",
        "writeln",
    ];
    EXPRESSIONS.iter().any(|name| mac.path.is_ident(name))
}
