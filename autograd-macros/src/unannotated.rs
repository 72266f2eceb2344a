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
//! and neither the module nor the caller's body binds the name otherwise,
//! the call can only be to that function, and the macro says to annotate
//! it. Everything less certain (an import, a glob, another file, a `cfg`, a
//! macro) is left to rustc: a false answer here would reject valid code.

use std::path::PathBuf;

use syn::visit::Visit;

/// Whether the function a call names (`helper`, `self::helper`,
/// `helpers::square` of an inline `mod helpers`), called from the function
/// `caller`, is a plain function written without the attribute.
pub fn is_plain_function(caller: &str, path: &syn::Path) -> bool {
    if !proc_macro::is_available() || path.leading_colon.is_some() {
        return false;
    }
    let mut segments: Vec<&syn::Ident> = path.segments.iter().map(|s| &s.ident).collect();
    if segments.len() > 1 && segments[0] == "self" {
        segments.remove(0);
    }
    let Some((callee, modules)) = segments.split_last() else {
        return false;
    };
    let Some(source) = callee.span().unwrap().local_file() else {
        return false;
    };
    let Some(file) = parsed(source) else {
        return false;
    };
    let mut found = Vec::new();
    modules_declaring(&file.items, caller, &mut found);
    // The caller's name in two modules of the file: which one this is, the
    // file alone does not tell.
    let [(items, caller_fns)] = found.as_slice() else {
        return false;
    };
    let first = modules.first().copied().unwrap_or(*callee).to_string();
    if caller_fns.iter().any(|f| body_binds(f, &first)) {
        return false;
    }
    let mut items: &[syn::Item] = items;
    for module in modules {
        let Some(inner) = inline_module(items, &module.to_string()) else {
            return false;
        };
        items = inner;
    }
    declared_plainly(items, &callee.to_string())
}

/// The items of the inline module `name` declared in `items`, if nothing
/// else there has its name.
fn inline_module<'a>(items: &'a [syn::Item], name: &str) -> Option<&'a [syn::Item]> {
    let mut bound = items.iter().filter(|item| binds_otherwise(item, name));
    match (bound.next(), bound.next()) {
        (Some(syn::Item::Mod(m)), None) if m.attrs.iter().all(is_inert) => {
            m.content.as_ref().map(|(_, inner)| inner.as_slice())
        }
        _ => None,
    }
}

/// The item lists (with the caller's functions in each) of the modules
/// that declare a function named `caller`, free or in an `impl` block.
fn modules_declaring<'a>(
    items: &'a [syn::Item],
    caller: &str,
    found: &mut Vec<(&'a [syn::Item], Vec<&'a syn::Block>)>,
) {
    let mut here = Vec::new();
    for item in items {
        match item {
            syn::Item::Fn(f) if f.sig.ident == caller => here.push(&*f.block),
            syn::Item::Impl(imp) => here.extend(imp.items.iter().filter_map(|i| match i {
                syn::ImplItem::Fn(f) if f.sig.ident == caller => Some(&f.block),
                _ => None,
            })),
            syn::Item::Mod(m) => {
                if let Some((_, inner)) = &m.content {
                    modules_declaring(inner, caller, found);
                }
            }
            _ => {}
        }
    }
    if !here.is_empty() {
        found.push((items, here));
    }
}

/// Whether a module declares `name` once, as a function without the
/// attribute, `cfg` or an attribute macro, and nothing else by that name.
fn declared_plainly(items: &[syn::Item], name: &str) -> bool {
    let mut functions = items.iter().filter_map(|item| match item {
        syn::Item::Fn(f) if f.sig.ident == name => Some(f),
        _ => None,
    });
    let (Some(function), None) = (functions.next(), functions.next()) else {
        return false;
    };
    function.attrs.iter().all(is_inert) && !items.iter().any(|item| binds_otherwise(item, name))
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

/// Whether an item other than a function binds `name`: a module, type,
/// constant or import of that name would take the call or its hidden items.
fn binds_otherwise(item: &syn::Item, name: &str) -> bool {
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
        syn::Item::Use(u) => return use_binds(&u.tree, name),
        syn::Item::ForeignMod(_) | syn::Item::Verbatim(_) => return true,
        _ => return false,
    };
    ident == name
}

/// Whether a `use` tree imports `name` explicitly (a glob never shadows
/// an item of the module, so it is no matter).
fn use_binds(tree: &syn::UseTree, name: &str) -> bool {
    match tree {
        syn::UseTree::Path(p) => use_binds(&p.tree, name),
        syn::UseTree::Name(n) => n.ident == name,
        syn::UseTree::Rename(r) => r.rename == name,
        syn::UseTree::Glob(_) => false,
        syn::UseTree::Group(g) => g.items.iter().any(|t| use_binds(t, name)),
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

/// Whether the caller's body declares an item of `name` or imports one
/// (even by a glob: in a block it is the nearer scope).
fn body_binds(body: &syn::Block, name: &str) -> bool {
    struct Finder<'n> {
        name: &'n str,
        found: bool,
    }
    impl<'ast> Visit<'ast> for Finder<'_> {
        fn visit_item(&mut self, item: &'ast syn::Item) {
            self.found |= match item {
                syn::Item::Fn(f) => f.sig.ident == self.name,
                syn::Item::Use(u) => use_binds(&u.tree, self.name) || has_glob(&u.tree),
                other => binds_otherwise(other, self.name),
            };
        }
    }
    let mut finder = Finder { name, found: false };
    finder.visit_block(body);
    finder.found
}

/// The file parsed anew at each call: a tree parsed in an earlier
/// expansion holds that expansion's spans, which are gone.
fn parsed(path: PathBuf) -> Option<syn::File> {
    let text = std::fs::read_to_string(path).ok()?;
    syn::parse_file(&text).ok()
}
