//! Where code goes: the macro's modules in layers, and a test that reads
//! every module's `crate::`, `super::` and `self::` paths (in `use` items,
//! in code, and in the arguments of macros other than `quote!`) and fails
//! on an edge the layers forbid.
//!
//! The layers are those of `ARCHITECTURE.md` ("The shape"): the driver
//! sequences `front` (the user's tokens: attributes, signature, markers,
//! the unannotated-callee lookup), `lower` (syn → IR), `passes` (IR → IR),
//! `analysis` and `emit` (IR → tokens); all of them stand on `ir` and
//! `table`, and on `base` (error collection, the facade's name), which
//! stands on nothing. Allowed edges, besides those inside a layer:
//!
//! ```text
//! driver   → every layer
//! front    → ir, table, base
//! lower    → front, ir, table, base
//! passes   → ir, table, base
//! analysis → ir, table, base        (a rule's reads and operators are the table's)
//! emit     → front, analysis, ir, table, base
//! ir       → table, base
//! table    → base
//! derive   → front, base            (`#[derive(Tangent)]`, its own entry point)
//! ```
//!
//! Today's violations are the [`ALLOWED`] list: each entry is one edge and
//! why it is there. The list only shrinks: an entry no edge uses any more
//! fails the test until it is deleted, and a new forbidden edge fails it
//! until the code moves (or, rarely, the list grows with a reason).
//!
//! The module graph, measured by this test (a file names another by a
//! path, or declares it as its child module: `lower/mod.rs` calls the
//! methods `lower/calls.rs` adds to the lowerer without naming a path;
//! test modules left out). Before step 0 of `ARCHITECTURE.md`: 56 files,
//! 248 edges, 10 of them forbidden; one cycle of 47 files, which is 11 of
//! the 17 top-level modules (a folder as one): `analysis`, `checkpoint`,
//! `emit/`, `expand`, `fusion`, `hessian`, `hessian_link`, `ir`,
//! `lower/`, `sig`, `structs`. (By paths alone, without the child edges:
//! cycles of 27 and 8 files.)
//!
//! After step 1 (twin names and the `Tangent`-struct predicate in `sig`,
//! `type_text` in `ctxt`, `Checkpoint` in `ir`, the integer-read name in
//! `lower`, `builds_matrices` passed down by the driver): 245 edges, 2
//! forbidden; the largest cycle is 28 files, 4 top-level modules
//! (`expand`, `hessian`, `lower/`, `structs`: the `map` closure's re-entry,
//! the twin and the flattening), and `analysis` with `fusion` form one of
//! 2.
//!
//! After step 2 (a `map` closure lowered as a function nested in its
//! `Op::Map`, its VJP emitted from that IR; `lower` no longer calls
//! `expand`), on a tree grown to 60 files: 270 edges, 1 forbidden; the
//! largest cycle is `lower/`'s own 25 files (`lower/mod.rs` and the
//! construct files that extend its lowerer); among top-level modules,
//! `expand` with `structs` (the flattening, step 4) and `analysis` with
//! `fusion` are cycles of 2, and `hessian` is in none.
//!
//! With the unannotated-call error's words found by the lowering and
//! carried in the IR (the analysis read them from `front`), and the loop
//! fusion a module of `analysis` (whose results it fills): 61 files, 291
//! edges, none forbidden, the list below empty; among top-level modules
//! one cycle is left, `expand` with `structs` (step 4). The emitter's
//! folder, `codegen/` until then, is `emit/` as the layer is named.
//!
//! `cargo test -p autograd-macros layer_tests -- --nocapture` prints the
//! figures of the tree as it stands.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use proc_macro2::{TokenStream, TokenTree};
use syn::visit::Visit;

#[derive(Clone, Copy, PartialEq, Eq, Debug, PartialOrd, Ord)]
enum Layer {
    Driver,
    Front,
    Lower,
    Passes,
    Analysis,
    Emit,
    Ir,
    Table,
    Base,
    Derive,
}

use Layer::*;

/// Each module's layer, by the longest prefix of its path (`""` is the
/// crate root, `lib.rs`).
const LAYERS: &[(&str, Layer)] = &[
    ("", Driver),
    ("expand", Driver),
    // Re-enter the pipeline on rewritten syntax; they go away at steps 3
    // (the twin becomes `passes/retype`) and 4 (struct parameters become
    // IR shapes read by `emit/params`).
    ("structs", Driver),
    ("hessian", Driver),
    ("hessian_link", Driver),
    ("attr", Front),
    ("sig", Front),
    ("checkpoint", Front),
    ("enclosing", Front),
    ("unannotated", Front),
    ("lower", Lower),
    ("analysis", Analysis),
    ("emit", Emit),
    ("ir", Ir),
    ("table", Table),
    ("ctxt", Base),
    ("facade", Base),
    ("tangent_derive", Derive),
];

fn allowed_layers(from: Layer) -> &'static [Layer] {
    match from {
        Driver => &[
            Driver, Front, Lower, Passes, Analysis, Emit, Ir, Table, Base, Derive,
        ],
        Front => &[Front, Ir, Table, Base],
        Lower => &[Lower, Front, Ir, Table, Base],
        Passes => &[Passes, Ir, Table, Base],
        Analysis => &[Analysis, Ir, Table, Base],
        Emit => &[Emit, Front, Analysis, Ir, Table, Base],
        Ir => &[Ir, Table, Base],
        Table => &[Table, Base],
        Base => &[Base],
        Derive => &[Derive, Front, Base],
    }
}

/// Today's forbidden edges, `(from, to)` by module path, each with why it
/// is there. Delete an entry when its edge goes.
#[rustfmt::skip]
const ALLOWED: &[(&str, &str, &str)] = &[
];

/// The largest import cycle today, in files and in top-level modules (a
/// folder, `lower/`, as one); the test fails if one grows.
const LARGEST_FILE_CYCLE: usize = 25;
const LARGEST_MODULE_CYCLE: usize = 2;

fn layer_of(module: &str) -> Layer {
    LAYERS
        .iter()
        .filter(|(prefix, _)| {
            prefix.is_empty()
                || module == *prefix
                || module
                    .strip_prefix(prefix)
                    .is_some_and(|r| r.starts_with("::"))
        })
        .max_by_key(|(prefix, _)| prefix.len())
        .map(|(_, layer)| *layer)
        .unwrap_or_else(|| panic!("module `{module}` has no layer in LAYERS"))
}

/// The crate's modules (`a::b`, `""` for the root) and their files,
/// following `mod` declarations from `lib.rs`, test modules left out.
fn modules(src: &Path) -> BTreeMap<String, PathBuf> {
    let mut found = BTreeMap::new();
    let mut todo = vec![(String::new(), src.join("lib.rs"), src.to_path_buf())];
    while let Some((module, file, dir)) = todo.pop() {
        let parsed = parse(&file);
        for item in &parsed.items {
            let syn::Item::Mod(m) = item else { continue };
            if m.content.is_some() || is_test(&m.attrs) {
                continue;
            }
            let name = m.ident.to_string();
            let child = if module.is_empty() {
                name.clone()
            } else {
                format!("{module}::{name}")
            };
            let (file, child_dir) = if dir.join(format!("{name}.rs")).exists() {
                (dir.join(format!("{name}.rs")), dir.join(&name))
            } else {
                (dir.join(&name).join("mod.rs"), dir.join(&name))
            };
            todo.push((child, file, child_dir));
        }
        found.insert(module, file);
    }
    found
}

fn parse(file: &Path) -> syn::File {
    let text = std::fs::read_to_string(file).unwrap();
    syn::parse_file(&text).unwrap_or_else(|e| panic!("{}: {e:?}", file.display()))
}

fn is_test(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("cfg") && a.parse_args::<syn::Ident>().is_ok_and(|i| i == "test")
    })
}

/// Reads one file's paths and resolves each to the module it names.
struct Edges<'a> {
    module: &'a str,
    modules: &'a BTreeMap<String, PathBuf>,
    to: BTreeSet<String>,
}

impl Edges<'_> {
    fn path(&mut self, segments: &[String]) {
        let Some(first) = segments.first() else {
            return;
        };
        let mut at: Vec<&str> = if self.module.is_empty() {
            Vec::new()
        } else {
            self.module.split("::").collect()
        };
        let mut rest = &segments[1..];
        match first.as_str() {
            "crate" => at.clear(),
            "self" => {}
            "super" => {
                at.pop();
                while rest.first().is_some_and(|s| s == "super") {
                    at.pop();
                    rest = &rest[1..];
                }
            }
            // A child module named from its parent (`names::value` in
            // `emit/mod.rs`).
            _ => rest = segments,
        }
        let anchored = first == "crate" || first == "self" || first == "super";
        let mut target = at.join("::");
        for segment in rest {
            let next = if target.is_empty() {
                segment.clone()
            } else {
                format!("{target}::{segment}")
            };
            if !self.modules.contains_key(&next) {
                break;
            }
            target = next;
        }
        if (anchored || target != at.join("::")) && target != self.module {
            self.to.insert(target);
        }
    }

    fn use_tree(&mut self, prefix: &mut Vec<String>, tree: &syn::UseTree) {
        match tree {
            syn::UseTree::Path(p) => {
                prefix.push(p.ident.to_string());
                self.use_tree(prefix, &p.tree);
                prefix.pop();
            }
            syn::UseTree::Name(n) => self.leaf(prefix, &n.ident),
            syn::UseTree::Rename(r) => self.leaf(prefix, &r.ident),
            syn::UseTree::Glob(_) => self.path(prefix),
            syn::UseTree::Group(g) => g.items.iter().for_each(|t| self.use_tree(prefix, t)),
        }
    }

    fn leaf(&mut self, prefix: &mut Vec<String>, ident: &syn::Ident) {
        if ident != "self" {
            prefix.push(ident.to_string());
        }
        self.path(prefix);
        if ident != "self" {
            prefix.pop();
        }
    }

    /// `crate::a::b` written inside a macro's arguments (`matches!`).
    fn tokens(&mut self, tokens: TokenStream) {
        let trees: Vec<TokenTree> = tokens.into_iter().collect();
        let mut i = 0;
        while i < trees.len() {
            if let TokenTree::Group(g) = &trees[i] {
                self.tokens(g.stream());
            }
            let TokenTree::Ident(first) = &trees[i] else {
                i += 1;
                continue;
            };
            let mut segments = vec![first.to_string()];
            let mut j = i + 1;
            while let (
                Some(TokenTree::Punct(a)),
                Some(TokenTree::Punct(b)),
                Some(TokenTree::Ident(n)),
            ) = (trees.get(j), trees.get(j + 1), trees.get(j + 2))
            {
                if a.as_char() != ':' || b.as_char() != ':' {
                    break;
                }
                segments.push(n.to_string());
                j += 3;
            }
            if segments.len() > 1 && matches!(segments[0].as_str(), "crate" | "super" | "self") {
                self.path(&segments);
            }
            i = j.max(i + 1);
        }
    }
}

impl<'ast> Visit<'ast> for Edges<'_> {
    fn visit_item_use(&mut self, u: &'ast syn::ItemUse) {
        if !is_test(&u.attrs) {
            self.use_tree(&mut Vec::new(), &u.tree);
        }
    }

    fn visit_path(&mut self, p: &'ast syn::Path) {
        let segments: Vec<String> = p.segments.iter().map(|s| s.ident.to_string()).collect();
        if p.leading_colon.is_none() && segments.len() > 1 {
            self.path(&segments);
        }
        syn::visit::visit_path(self, p);
    }

    fn visit_macro(&mut self, m: &'ast syn::Macro) {
        let emitted = [
            "quote",
            "quote_spanned",
            "parse_quote",
            "parse_quote_spanned",
            "format_ident",
        ];
        if !m
            .path
            .segments
            .last()
            .is_some_and(|s| emitted.iter().any(|e| s.ident == e))
        {
            self.tokens(m.tokens.clone());
        }
        syn::visit::visit_macro(self, m);
    }

    fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
        if !is_test(&m.attrs) {
            syn::visit::visit_item_mod(self, m);
        }
    }

    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        if !is_test(&f.attrs) {
            syn::visit::visit_item_fn(self, f);
        }
    }

    fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
        if !is_test(&f.attrs) {
            syn::visit::visit_impl_item_fn(self, f);
        }
    }
}

/// Every module's edges to other modules.
fn graph() -> BTreeMap<String, BTreeSet<String>> {
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src");
    let modules = modules(&src);
    let mut graph = BTreeMap::new();
    for (module, file) in &modules {
        let parsed = parse(file);
        let mut edges = Edges {
            module,
            modules: &modules,
            to: BTreeSet::new(),
        };
        edges.visit_file(&parsed);
        // A parent uses its children: `lower/mod.rs` calls the methods
        // that `lower/calls.rs` adds to the lowerer, naming no path.
        let prefix = if module.is_empty() {
            String::new()
        } else {
            format!("{module}::")
        };
        edges.to.extend(
            modules
                .keys()
                .filter(|m| {
                    m.strip_prefix(&prefix)
                        .is_some_and(|child| !child.is_empty() && !child.contains("::"))
                })
                .cloned(),
        );
        graph.insert(module.clone(), edges.to);
    }
    graph
}

/// The strongly connected sets of more than one module (Tarjan).
fn cycles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct Tarjan<'a> {
        graph: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        found: Vec<Vec<String>>,
    }
    impl<'a> Tarjan<'a> {
        fn visit(&mut self, v: &'a str) {
            let n = self.index.len();
            self.index.insert(v, n);
            self.low.insert(v, n);
            self.stack.push(v);
            for w in &self.graph[v] {
                if !self.index.contains_key(w.as_str()) {
                    self.visit(w);
                    let low = self.low[v].min(self.low[w.as_str()]);
                    self.low.insert(v, low);
                } else if self.stack.contains(&w.as_str()) {
                    let low = self.low[v].min(self.index[w.as_str()]);
                    self.low.insert(v, low);
                }
            }
            if self.low[v] == self.index[v] {
                let mut set = Vec::new();
                while let Some(w) = self.stack.pop() {
                    set.push(w.to_string());
                    if w == v {
                        break;
                    }
                }
                if set.len() > 1 {
                    set.sort();
                    self.found.push(set);
                }
            }
        }
    }
    let mut t = Tarjan {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        found: Vec::new(),
    };
    for v in graph.keys() {
        if !t.index.contains_key(v.as_str()) {
            t.visit(v);
        }
    }
    t.found.sort_by_key(|c| std::cmp::Reverse(c.len()));
    t.found
}

/// The graph of top-level modules, a folder's files as one.
fn top_level(graph: &BTreeMap<String, BTreeSet<String>>) -> BTreeMap<String, BTreeSet<String>> {
    let top = |m: &str| m.split("::").next().unwrap_or_default().to_string();
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (from, tos) in graph {
        let entry = out.entry(top(from)).or_default();
        entry.extend(tos.iter().map(|t| top(t)).filter(|t| *t != top(from)));
    }
    out
}

fn forbidden(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (from, tos) in graph {
        for to in tos {
            if !allowed_layers(layer_of(from)).contains(&layer_of(to)) {
                out.push((from.clone(), to.clone()));
            }
        }
    }
    out
}

fn name(module: &str) -> &str {
    if module.is_empty() { "crate" } else { module }
}

#[test]
fn edges_follow_the_layers() {
    let graph = graph();
    let cycles = cycles(&graph);
    let forbidden = forbidden(&graph);
    let edges: usize = graph.values().map(BTreeSet::len).sum();
    eprintln!(
        "{} modules, {edges} edges, {} forbidden",
        graph.len(),
        forbidden.len()
    );
    for c in &cycles {
        eprintln!("cycle of {}: {}", c.len(), c.join(", "));
    }
    for (from, to) in &forbidden {
        eprintln!(
            "forbidden: {} ({:?}) -> {} ({:?})",
            name(from),
            layer_of(from),
            name(to),
            layer_of(to)
        );
    }

    let new: Vec<String> = forbidden
        .iter()
        .filter(|(from, to)| !ALLOWED.iter().any(|(f, t, _)| f == from && t == to))
        .map(|(from, to)| {
            format!(
                "{} ({:?}) -> {} ({:?})",
                name(from),
                layer_of(from),
                name(to),
                layer_of(to)
            )
        })
        .collect();
    assert!(
        new.is_empty(),
        "these modules name a module of a layer they may not use; move the item \
         down a layer (see CONTRIBUTING.md, \"Where code goes\"):\n{}",
        new.join("\n")
    );
    let stale: Vec<String> = ALLOWED
        .iter()
        .filter(|(f, t, _)| !forbidden.iter().any(|(from, to)| f == from && t == to))
        .map(|(f, t, _)| format!("{f} -> {t}"))
        .collect();
    assert!(
        stale.is_empty(),
        "these allowed edges are gone; delete them from ALLOWED:\n{}",
        stale.join("\n")
    );
    let largest = cycles.first().map_or(0, Vec::len);
    assert!(
        largest <= LARGEST_FILE_CYCLE,
        "an import cycle grew to {largest} files (it was {LARGEST_FILE_CYCLE}): {:?}",
        cycles.first()
    );
    let top = top_level(&graph);
    let top_cycles = self::cycles(&top);
    for c in &top_cycles {
        eprintln!("cycle of {} top-level modules: {}", c.len(), c.join(", "));
    }
    let largest = top_cycles.first().map_or(0, Vec::len);
    assert!(
        largest <= LARGEST_MODULE_CYCLE,
        "an import cycle grew to {largest} top-level modules (it was {LARGEST_MODULE_CYCLE}): {:?}",
        top_cycles.first()
    );
}

#[test]
fn every_module_has_a_layer() {
    for module in graph().keys() {
        layer_of(module);
    }
}
