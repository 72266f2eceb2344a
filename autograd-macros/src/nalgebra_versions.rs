//! Two nalgebras in one build: the user's crate depends on one version and
//! autograd is built with another, so the user's `DMatrix` is not the type
//! autograd's rules are written for. Left alone, rustc reports each place
//! the generated code meets the two (eight errors for one product, the
//! first about a rule missing for `Matrix`).
//!
//! Where that is certain, the macro says so once, at the signature's first
//! matrix type, and generates stand-ins: certain when the user's
//! `Cargo.lock` shows the package depending on a nalgebra autograd's
//! runtime does not, the signature names a matrix type by a path not
//! through autograd (`DMatrix`, `nalgebra::DMatrix`), and no source file
//! of the package names a nalgebra re-exported by a crate
//! (`autograd::nalgebra`, `other::nalgebra`), through which the type could
//! be autograd's after all. Anything less certain stays silent.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use proc_macro2::{Span, TokenStream, TokenTree};

/// The runtime's package: the one whose nalgebra the rules are for.
const RUNTIME: &str = "autograd-runtime";

/// Two nalgebras: the user's version and autograd's.
#[derive(Clone)]
struct Versions {
    user: String,
    autograd: String,
}

/// The error for a function whose signature names a matrix type of a
/// nalgebra that is not autograd's, at that type: `None` where it is not
/// certain (see the module's docs).
pub fn mismatch(sig: &syn::Signature) -> Option<(Span, String)> {
    let span = first_matrix_span(sig)?;
    let Versions { user, autograd } = two_versions()?;
    let minor = |v: &str| v.splitn(3, '.').take(2).collect::<Vec<_>>().join(".");
    let (user, autograd) = (minor(&user), minor(&autograd));
    let feature = format!("nalgebra_v{}", user.replace('.', "_"));
    let supported = ["0.33", "0.34", "0.35"].contains(&user.as_str());
    let with_yours = if supported {
        format!(
            "; or build autograd with yours: `autograd = {{ version = \"0.1\", default-features = false, features = [\"{feature}\"] }}`"
        )
    } else {
        String::new()
    };
    Some((
        span,
        format!(
            "this matrix type is nalgebra {user}'s (your Cargo.toml's), and autograd is built with nalgebra {autograd}: the two types do not mix. Use one nalgebra: `nalgebra = \"{autograd}\"` in your Cargo.toml{with_yours}; or write autograd's, `autograd::nalgebra::DMatrix`"
        ),
    ))
}

/// The two nalgebras of the crate being compiled, where certain.
fn two_versions() -> Option<Versions> {
    // Read once a lock (a long-lived macro server sees it change).
    type Key = (PathBuf, Option<std::time::SystemTime>);
    static SEEN: Mutex<Option<HashMap<Key, Option<Versions>>>> = Mutex::new(None);
    let dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR")?);
    let name = std::env::var("CARGO_PKG_NAME").ok()?;
    let version = std::env::var("CARGO_PKG_VERSION").ok()?;
    let lock = find_lock(&dir)?;
    let modified = std::fs::metadata(&lock).and_then(|m| m.modified()).ok();
    let key = (dir, modified);
    let mut seen = SEEN.lock().unwrap_or_else(|e| e.into_inner());
    let seen = seen.get_or_insert_with(HashMap::new);
    if let Some(known) = seen.get(&key) {
        return known.clone();
    }
    let found = std::fs::read_to_string(&lock)
        .ok()
        .and_then(|text| versions_in(&text, &name, &version))
        .filter(|_| !names_a_reexported_nalgebra(&key.0));
    seen.insert(key, found.clone());
    found
}

/// Whether a Rust source file of the package (outside `target`) names a
/// nalgebra through another crate's path, `x::nalgebra`.
fn names_a_reexported_nalgebra(dir: &Path) -> bool {
    fn visit(dir: &Path, depth: usize) -> bool {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return false;
        };
        entries.flatten().any(|e| {
            let path = e.path();
            let name = e.file_name();
            if path.is_dir() {
                depth < 8
                    && name != "target"
                    && !name.to_string_lossy().starts_with('.')
                    && visit(&path, depth + 1)
            } else {
                path.extension().is_some_and(|x| x == "rs")
                    && std::fs::read_to_string(&path).is_ok_and(|text| reexported_in(&text))
            }
        })
    }
    visit(dir, 0)
}

/// `x::nalgebra` in `text`: `::nalgebra` after an identifier.
fn reexported_in(text: &str) -> bool {
    text.match_indices("::nalgebra").any(|(at, _)| {
        text[..at]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || c == '_')
    })
}

/// The `Cargo.lock` of the workspace holding `dir`.
fn find_lock(dir: &Path) -> Option<PathBuf> {
    dir.ancestors()
        .map(|d| d.join("Cargo.lock"))
        .find(|p| p.is_file())
}

/// In the lock `text`, the nalgebra package `name` `version` depends on
/// and the one `autograd-runtime` does, where they differ. A lock names a
/// dependency `nalgebra 0.35.0` only where it holds several nalgebras; a
/// bare `nalgebra` means one, and then there are not two.
fn versions_in(text: &str, name: &str, version: &str) -> Option<Versions> {
    let packages = packages(text);
    let nalgebras = |p: &Package| -> Vec<String> {
        p.dependencies
            .iter()
            .filter_map(|d| d.strip_prefix("nalgebra "))
            .map(|v| v.split(' ').next().unwrap_or(v).to_string())
            .collect()
    };
    let user = packages
        .iter()
        .find(|p| p.name == name && p.version == version)?;
    let runtime: Vec<String> = packages
        .iter()
        .filter(|p| p.name == RUNTIME)
        .flat_map(nalgebras)
        .collect();
    // A runtime with several nalgebras (a workspace resolving every
    // feature): which is built is not known here.
    let [autograd] = runtime.as_slice() else {
        return None;
    };
    let user = nalgebras(user).into_iter().find(|v| v != autograd)?;
    Some(Versions {
        user,
        autograd: autograd.clone(),
    })
}

struct Package {
    name: String,
    version: String,
    dependencies: Vec<String>,
}

/// The `[[package]]` entries of a lock file: name, version, dependencies.
fn packages(text: &str) -> Vec<Package> {
    let mut out: Vec<Package> = Vec::new();
    let mut in_dependencies = false;
    for line in text.lines().map(str::trim) {
        let quoted = |s: &str| s.trim().trim_end_matches(',').trim_matches('"').to_string();
        if line == "[[package]]" {
            out.push(Package {
                name: String::new(),
                version: String::new(),
                dependencies: Vec::new(),
            });
            in_dependencies = false;
        } else if let Some(package) = out.last_mut() {
            if in_dependencies {
                if line.starts_with(']') {
                    in_dependencies = false;
                } else {
                    package.dependencies.push(quoted(line));
                }
            } else if let Some(v) = line.strip_prefix("name = ") {
                package.name = quoted(v);
            } else if let Some(v) = line.strip_prefix("version = ") {
                package.version = quoted(v);
            } else if let Some(v) = line.strip_prefix("dependencies = [") {
                // `dependencies = [ "a", "b" ]` on one line, or the list below.
                let items = v.trim_end_matches(']');
                package
                    .dependencies
                    .extend(items.split(',').map(quoted).filter(|d| !d.is_empty()));
                in_dependencies = !v.ends_with(']');
            }
        }
    }
    out
}

/// Names of nalgebra's matrix types as users import them. Not the generic
/// `Matrix`/`Vector`, which a crate may well define itself: a type of the
/// user's projected here would be an error of ours.
fn is_nalgebra_matrix(name: &str) -> bool {
    const NAMES: &[&str] = &[
        "DMatrix",
        "DVector",
        "RowDVector",
        "SMatrix",
        "SVector",
        "RowSVector",
        "OMatrix",
        "OVector",
    ];
    if NAMES.contains(&name) {
        return true;
    }
    // Vector3, RowVector4, Matrix3, Matrix2x3.
    let digits = ["RowVector", "Vector", "Matrix"]
        .iter()
        .find_map(|p| name.strip_prefix(p));
    match digits.map(str::as_bytes) {
        Some([d]) => (b'1'..=b'6').contains(d),
        Some([r, b'x', c]) => (b'1'..=b'6').contains(r) && (b'1'..=b'6').contains(c),
        _ => false,
    }
}

/// The first nalgebra matrix type the signature names by a path not
/// through autograd: where the one error is reported.
fn first_matrix_span(sig: &syn::Signature) -> Option<Span> {
    fn first(tokens: TokenStream) -> Option<Span> {
        let tokens: Vec<TokenTree> = tokens.into_iter().collect();
        let is_path_separator = |k: usize| {
            matches!(&tokens.get(k), Some(TokenTree::Punct(p)) if p.as_char() == ':' && p.spacing() == proc_macro2::Spacing::Joint)
                && matches!(&tokens.get(k + 1), Some(TokenTree::Punct(p)) if p.as_char() == ':')
        };
        // `x::nalgebra::` before the current path segment (`autograd::`,
        // `ag::`): a nalgebra reached through a crate, possibly autograd's.
        let mut through_a_crate = false;
        for (k, t) in tokens.iter().enumerate() {
            match t {
                TokenTree::Ident(i) => {
                    let name = i.to_string();
                    if is_nalgebra_matrix(&name) && !through_a_crate {
                        return Some(i.span());
                    }
                    let after_segment = k >= 3
                        && is_path_separator(k - 2)
                        && matches!(tokens[k - 3], TokenTree::Ident(_));
                    if name == "nalgebra" && after_segment {
                        through_a_crate = true;
                    }
                }
                TokenTree::Punct(p)
                    if p.as_char() == ':'
                        && (is_path_separator(k) || k > 0 && is_path_separator(k - 1)) => {}
                TokenTree::Group(g) => {
                    if let Some(span) = first(g.stream()) {
                        return Some(span);
                    }
                    through_a_crate = false;
                }
                _ => through_a_crate = false,
            }
        }
        None
    }
    let mut tokens = TokenStream::new();
    quote::ToTokens::to_tokens(&sig.inputs, &mut tokens);
    quote::ToTokens::to_tokens(&sig.output, &mut tokens);
    first(tokens)
}

#[cfg(test)]
mod tests {
    use super::*;

    const LOCK: &str = r#"
version = 4

[[package]]
name = "autograd-runtime"
version = "0.1.0"
dependencies = [
 "libm",
 "nalgebra 0.34.2",
 "num-traits",
]

[[package]]
name = "nalgebra"
version = "0.34.2"

[[package]]
name = "nalgebra"
version = "0.35.0"

[[package]]
name = "user"
version = "0.0.0"
dependencies = [
 "autograd",
 "nalgebra 0.35.0",
]

[[package]]
name = "same"
version = "0.0.0"
dependencies = [
 "autograd",
 "nalgebra 0.34.2",
]
"#;

    #[test]
    fn a_lock_with_two_nalgebras_is_read() {
        let two = versions_in(LOCK, "user", "0.0.0").expect("two nalgebras");
        assert_eq!(
            (two.user.as_str(), two.autograd.as_str()),
            ("0.35.0", "0.34.2")
        );
        assert!(versions_in(LOCK, "same", "0.0.0").is_none());
        assert!(versions_in(LOCK, "user", "9.9.9").is_none());
        assert!(versions_in(LOCK, "absent", "0.0.0").is_none());
        // One nalgebra in the lock: its dependents name it bare.
        let one = LOCK
            .replace("nalgebra 0.35.0", "nalgebra")
            .replace("nalgebra 0.34.2", "nalgebra");
        assert!(versions_in(&one, "user", "0.0.0").is_none());
        // A runtime resolved with several nalgebras: not known which.
        let several = LOCK.replace(" \"num-traits\",", " \"nalgebra 0.35.0\",");
        assert!(versions_in(&several, "user", "0.0.0").is_none());
    }

    #[test]
    fn a_nalgebra_through_a_crate_is_seen_in_source() {
        assert!(reexported_in("use autograd::nalgebra::DMatrix;"));
        assert!(reexported_in("fn f(m: &ag::nalgebra::DMatrix<f64>) {}"));
        assert!(!reexported_in(
            "use nalgebra::DMatrix;\nuse ::nalgebra::DVector;"
        ));
    }

    #[test]
    fn the_signature_names_a_matrix_not_through_autograd() {
        let span = |s: &str| first_matrix_span(&syn::parse_str::<syn::ItemFn>(s).unwrap().sig);
        assert!(span("fn f(w: &DMatrix<f64>) -> f64 { 0.0 }").is_some());
        assert!(span("fn f(x: f64, w: nalgebra::Vector3<f64>) -> f64 { 0.0 }").is_some());
        assert!(span("fn f(x: f64) -> DVector<f64> { x }").is_some());
        assert!(span("fn f(w: &autograd::nalgebra::DMatrix<f64>) -> f64 { 0.0 }").is_none());
        assert!(span("fn f(w: &Matrix<f64>, x: &[f64]) -> f64 { 0.0 }").is_none());
    }

    #[test]
    fn names_of_nalgebra_matrices() {
        for name in [
            "DMatrix",
            "Vector3",
            "RowVector2",
            "Matrix2x3",
            "Matrix6",
            "SVector",
        ] {
            assert!(is_nalgebra_matrix(name), "{name}");
        }
        for name in [
            "Matrix", "Vector", "Matrix7", "Matrix2x", "Vectors", "Point3",
        ] {
            assert!(!is_nalgebra_matrix(name), "{name}");
        }
    }
}
