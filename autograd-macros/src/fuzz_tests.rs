//! The macro never panics: mutated and random token streams go through the
//! whole pipeline, and every outcome is either code or a compile error.

use proc_macro2::{TokenStream, TokenTree};

use crate::expand::expand;

const SEEDS: &[&str] = &[
    "fn w(x: f64, y: f64) -> f64 { let z = x * y; z + x }",
    "fn f(x: &[f64], #[constant] c: &[f64], n: usize) -> f64 {
        let mut s = 0.0;
        for i in 0..n { if x[i] > c[i] { s += x[i].exp(); } else { s -= c[i] * x[i]; } }
        while s > 10.0 { s = s * 0.5; }
        s
    }",
    "fn g(m: &DMatrix<f64>, v: DVector<f64>) -> f64 {
        let h = (m * v).map(|e| e.tanh());
        h.sum() + m.transpose().max()
    }",
    "fn h(a: f32) -> f32 { let b = if a < 0.0 { -a } else { a.sqrt() }; autograd::stop_gradient(b) * a.powi(2) }",
    "fn k(x: f64) -> Result<f64, E> { solve(|t| t - x) }",
    "fn r#type(r#in: f64, r#loop: &[f64]) -> f64 { let r#let = r#in * r#loop[0]; r#let }",
];

/// A small deterministic generator (xorshift), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

fn flatten(ts: TokenStream, out: &mut Vec<TokenTree>) {
    for tt in ts {
        out.push(tt);
    }
}

/// Deletes, duplicates or swaps top-level tokens, recursing into groups.
fn mutate(ts: TokenStream, rng: &mut Rng, depth: u32) -> TokenStream {
    let mut tokens = Vec::new();
    flatten(ts, &mut tokens);
    let n = tokens.len();
    if n > 0 {
        match rng.below(4) {
            0 => {
                tokens.remove(rng.below(n));
            }
            1 => {
                let t = tokens[rng.below(n)].clone();
                tokens.insert(rng.below(n), t);
            }
            2 => {
                let (a, b) = (rng.below(n), rng.below(n));
                tokens.swap(a, b);
            }
            _ => {}
        }
    }
    tokens
        .into_iter()
        .map(|tt| match tt {
            TokenTree::Group(g) if depth < 6 && rng.below(3) == 0 => {
                let inner = mutate(g.stream(), rng, depth + 1);
                TokenTree::Group(proc_macro2::Group::new(g.delimiter(), inner))
            }
            tt => tt,
        })
        .collect()
}

#[test]
fn mutated_programs_never_panic() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let attrs: Vec<TokenStream> = [
        "",
        "implicit = residual",
        "backward = rule",
        "implicit",
        "foo = bar",
        "implicit = a, backward = b",
    ]
    .iter()
    .map(|a| a.parse().unwrap())
    .collect();
    for round in 0..3000 {
        let seed: TokenStream = SEEDS[round % SEEDS.len()].parse().unwrap();
        let mut ts = seed;
        for _ in 0..1 + rng.below(4) {
            ts = mutate(ts, &mut rng, 0);
        }
        let attr = attrs[rng.below(attrs.len())].clone();
        let input = ts.to_string();
        let result = std::panic::catch_unwind(|| expand(attr, ts));
        assert!(result.is_ok(), "the macro panicked on: {input}");
    }
}

#[test]
fn random_tokens_never_panic() {
    let vocabulary: Vec<&str> = vec![
        "fn", "f", "(", ")", "{", "}", "x", ":", "f64", "->", "let", "mut", "=", ";", "+", "*",
        "if", "else", "for", "in", "0", "..", "while", "<", "1.0", "return", "&", "[", "]", ",",
        "exp", ".", "|", "match", "loop", "break", "'a", "#", "!", "?", "self", "async",
    ];
    let mut rng = Rng(42);
    for _ in 0..3000 {
        let len = rng.below(40);
        let text: Vec<&str> = (0..len)
            .map(|_| vocabulary[rng.below(vocabulary.len())])
            .collect();
        // Only well-bracketed sequences are token streams at all.
        let Ok(ts) = text.join(" ").parse::<TokenStream>() else {
            continue;
        };
        let input = ts.to_string();
        let result = std::panic::catch_unwind(|| expand(TokenStream::new(), ts));
        assert!(result.is_ok(), "the macro panicked on: {input}");
    }
}
