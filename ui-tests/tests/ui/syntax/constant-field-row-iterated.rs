use autograd::differentiable;

pub struct Book {
    pub flows: Vec<Vec<f64>>,
}

// A field is read in place (`book.flows[b][k]`, `book.flows[b].iter()`),
// but an element of an iterated field is read by value: a row of it cannot
// be indexed in turn. The message says how to name the field's type.
#[differentiable]
fn first_flows(rate: f64, #[constant] book: &Book) -> f64 {
    let mut pv = 0.0;
    for row in book.flows.iter() {
        pv += row[0] * (-rate).exp();
    }
    pv
}

fn main() {
    let _ = first_flows(0.1, &Book { flows: vec![vec![1.0]] });
}
