use autograd::differentiable;
macro_rules! mk {
    ($n:ident, $x:ident) => {
        #[differentiable]
        pub fn $n($x: f64) -> f64 {
            let x = 2.0;
            $x * x
        }
    };
}
mk!(h, x);
#[test]
fn t() {
    println!("{} {:?}", h(0.7), h_grad(0.7));
}
