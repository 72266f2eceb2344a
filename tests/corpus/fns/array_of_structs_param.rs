use autograd::differentiable;

#[derive(Clone, Copy)]
pub struct Flow {
    pub t: f64,
    pub amount: f64,
}

/// Present value of cash flows held as a slice of plain structs, the
/// curve as a slice.
#[differentiable]
pub fn array_of_structs_param(zero: &[f64], #[constant] flows: &[Flow]) -> f64 {
    let mut pv = 0.0;
    for f in flows {
        let i = (f.t as usize).min(zero.len() - 1);
        pv += f.amount * (-zero[i] * f.t).exp();
    }
    pv
}

pub fn check() -> Result<(), String> {
    let flows = [Flow { t: 0.5, amount: 2.0 }, Flow { t: 1.0, amount: 2.0 }, Flow { t: 2.0, amount: 102.0 }];
    let zero = vec![0.02, 0.025, 0.03];
    let (v, g) = array_of_structs_param_grad(&zero, &flows);
    crate::support::same_value("flows", v, array_of_structs_param(&zero, &flows))?;
    let want = crate::support::fd_grad(|q| array_of_structs_param(q, &flows), &zero);
    crate::support::close("flows", &g, &want, 1e-6)?;
    Ok(())
}
