//! Where a function with `#[differentiable]` on itself alone stands: at
//! module level, or inside an `impl` block. An attribute on an associated
//! function is given the function's tokens and nothing around them, and
//! `fn plain(a: f64, x: f64) -> f64` reads the same in both places, but
//! what may be generated next to it differs: a free function's generated
//! items include a type and its `impl`, which an `impl` block cannot hold,
//! and a trait impl holds only the trait's items.
//!
//! So the macro reads the source file the function's name comes from
//! (rustc says which) and looks for the functions of that name with the
//! attribute: where every one of them stands in the same kind of place,
//! that is the answer; anything less certain (two kinds, a name a macro
//! wrote, no file) is [`Enclosing::Unknown`], and the function expands as
//! a free function, as it always has.

use std::collections::HashMap;

use syn::visit::Visit;

/// The place a function with its own `#[differentiable]` stands in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Enclosing {
    /// At module level, or in a function's body.
    Free,
    /// In an inherent `impl` block without the attribute.
    Inherent,
    /// In a trait impl without the attribute: `impl Loss for Model`, as
    /// written.
    TraitImpl { header: String },
    /// Not certain.
    Unknown,
}

/// Each name of a function with its own attribute in a file, and the one
/// kind of place all of them stand in (`Unknown` for two kinds). The
/// file is read once (`unannotated::enclosing`).
pub fn places(file: &syn::File) -> HashMap<String, Enclosing> {
    let mut places = Places {
        found: HashMap::new(),
        inside: Vec::new(),
    };
    places.visit_file(file);
    places.found
}

fn is_differentiable(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path()
            .segments
            .last()
            .is_some_and(|s| s.ident == "differentiable")
    })
}

struct Places {
    found: HashMap<String, Enclosing>,
    /// The `impl` blocks around the item being read, innermost last:
    /// `None` for one with the attribute (its own expansion reads its
    /// functions), else the place its functions stand in.
    inside: Vec<Option<Enclosing>>,
}

impl Places {
    fn found(&mut self, name: String, place: Enclosing) {
        self.found
            .entry(name)
            .and_modify(|p| {
                if *p != place {
                    *p = Enclosing::Unknown;
                }
            })
            .or_insert(place);
    }
}

impl<'ast> Visit<'ast> for Places {
    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        if is_differentiable(&f.attrs) {
            self.found(f.sig.ident.to_string(), Enclosing::Free);
        }
        // A function's body is a place of its own: an `impl` there is
        // read as one.
        let inside = std::mem::take(&mut self.inside);
        syn::visit::visit_item_fn(self, f);
        self.inside = inside;
    }

    fn visit_item_impl(&mut self, imp: &'ast syn::ItemImpl) {
        let place = (!is_differentiable(&imp.attrs)).then(|| match &imp.trait_ {
            None => Enclosing::Inherent,
            Some((path, _)) => {
                let (generics, self_ty) = (&imp.generics, &imp.self_ty);
                let header = quote::quote!(impl #generics #path for #self_ty)
                    .to_string()
                    .replace(" < ", "<")
                    .replace("< ", "<")
                    .replace(" >", ">")
                    .replace(" :: ", "::")
                    .replace(" ,", ",")
                    .replace(" : ", ": ");
                Enclosing::TraitImpl { header }
            }
        });
        self.inside.push(place);
        syn::visit::visit_item_impl(self, imp);
        self.inside.pop();
    }

    fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
        if is_differentiable(&f.attrs)
            && let Some(Some(place)) = self.inside.last()
        {
            self.found(f.sig.ident.to_string(), place.clone());
        }
        let inside = std::mem::take(&mut self.inside);
        syn::visit::visit_impl_item_fn(self, f);
        self.inside = inside;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of_text(text: &str, name: &str) -> Enclosing {
        let file = syn::parse_file(text).unwrap();
        places(&file).remove(name).unwrap_or(Enclosing::Unknown)
    }

    #[test]
    fn the_place_of_each_kind() {
        let text = "
            #[differentiable] fn free(x: f64) -> f64 { x }
            impl Model {
                #[autograd::differentiable(hessian)] pub fn assoc(x: f64) -> f64 { x }
            }
            impl Loss for Model {
                #[differentiable] fn value(&self, x: f64) -> f64 { x }
            }
            impl<T: Float> Loss for Wrapper<T> {
                #[differentiable] fn generic(&self, x: f64) -> f64 { x }
            }
            #[differentiable] impl Other { fn marked(x: f64) -> f64 { x } }
            fn outer() { #[differentiable] fn inner(x: f64) -> f64 { x } }
        ";
        assert_eq!(of_text(text, "free"), Enclosing::Free);
        assert_eq!(of_text(text, "assoc"), Enclosing::Inherent);
        assert_eq!(
            of_text(text, "value"),
            Enclosing::TraitImpl {
                header: "impl Loss for Model".into()
            }
        );
        assert_eq!(
            of_text(text, "generic"),
            Enclosing::TraitImpl {
                header: "impl<T: Float> Loss for Wrapper<T>".into()
            }
        );
        assert_eq!(of_text(text, "marked"), Enclosing::Unknown);
        assert_eq!(of_text(text, "inner"), Enclosing::Free);
    }

    #[test]
    fn two_kinds_of_place_are_not_certain() {
        let text = "
            #[differentiable] fn f(x: f64) -> f64 { x }
            impl Model { #[differentiable] fn f(x: f64) -> f64 { x } }
            mod m { #[differentiable] fn g(x: f64) -> f64 { x } }
            impl Model { #[differentiable] fn g(x: f64) -> f64 { x } }
        ";
        assert_eq!(of_text(text, "f"), Enclosing::Unknown);
        assert_eq!(of_text(text, "g"), Enclosing::Unknown);
    }
}
