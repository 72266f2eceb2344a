fn lstm_objective(
    l: usize,
    c: usize,
    b: usize,
    main_params: &[f64],
    extra_params: &[f64],
    state0: &[f64],
    sequence: &[f64],
) -> f64 {
    let mut state = vec![0.0; 2 * l * b];
    for i in 0..2 * l * b {
        state[i] = state0[i];
    }
    let mut ypred = vec![0.0; b];
    let mut total = 0.0;
    let mut count = 0;
    for t in 0..c - 1 {
        for i in 0..b {
            ypred[i] = sequence[t * b + i] * extra_params[i];
        }
        for layer in 0..l {
            let wp = layer * 8 * b;
            let hp = layer * 2 * b;
            for i in 0..b {
                let input = if layer == 0 { ypred[i] } else { state[hp - 2 * b + i] };
                let forget = sigmoid(
                    input * main_params[wp + i] + main_params[wp + 4 * b + i],
                );
                let ingate = sigmoid(
                    state[hp + i] * main_params[wp + b + i] + main_params[wp + 5 * b + i],
                );
                let outgate = sigmoid(
                    input * main_params[wp + 2 * b + i] + main_params[wp + 6 * b + i],
                );
                let change = (state[hp + i] * main_params[wp + 3 * b + i]
                    + main_params[wp + 7 * b + i])
                    .tanh();
                state[hp + b + i] = state[hp + b + i] * forget + ingate * change;
                state[hp + i] = outgate * state[hp + b + i].tanh();
            }
        }
        let last = (l - 1) * 2 * b;
        for i in 0..b {
            ypred[i] = state[last + i] * extra_params[b + i] + extra_params[2 * b + i];
        }
        let mut sum = 0.0;
        for i in 0..b {
            sum += ypred[i].exp();
        }
        sum += 2.0;
        let lse = sum.ln();
        for i in 0..b {
            total += sequence[(t + 1) * b + i] * (ypred[i] - lse);
        }
        count += b;
    }
    -total / count as f64
}
#[doc(hidden)]
#[allow(non_camel_case_types, dead_code)]
struct lstm_objective {}
#[doc(hidden)]
impl lstm_objective {
    #[doc(hidden)]
    #[allow(non_upper_case_globals)]
    const __PARAMS: &[&str] = &[
        "l",
        "c",
        "b",
        "main_params",
        "extra_params",
        "state0",
        "sequence",
    ];
    #[doc(hidden)]
    #[inline(always)]
    fn __same_callee<F: 'static, V, P>(called: &F, _: &V, _: &P) {
        ::autograd::__private::same_function(
            called,
            ::autograd::__private::type_id_of(&lstm_objective),
        )
    }
    #[doc(hidden)]
    #[inline]
    #[allow(
        unused_variables,
        unused_mut,
        unused_parens,
        unused_assignments,
        clippy::all
    )]
    fn __grad_acc_full<'main_params, 'extra_params, 'state0, 'sequence>(
        l: usize,
        c: usize,
        b: usize,
        main_params: &'main_params [f64],
        extra_params: &'extra_params [f64],
        state0: &'state0 [f64],
        sequence: &'sequence [f64],
        __ad_b_main_params: &mut [f64],
        __ad_b_extra_params: &mut [f64],
        __ad_seed: f64,
    ) -> f64 {
        let _ = lstm_objective;
        use ::autograd::__private::rules as __ad_rules;
        ::autograd::__private::check_buffer(__ad_b_main_params, main_params.len());
        ::autograd::__private::check_buffer(__ad_b_extra_params, extra_params.len());
        let mut __ad_stack4 = ::autograd::__private::Stack::new();
        let mut __ad_cache4 = ::autograd::__private::Cache::new();
        let mut __ad_stack5 = ::autograd::__private::Stack::new();
        let mut __ad_stack6 = ::autograd::__private::Stack::new();
        let mut __ad_cache6 = ::autograd::__private::Cache::new();
        let __ad_v7 = 2 * l;
        let __ad_v8 = __ad_v7 * b;
        let __ad_v9_state = ::autograd::__private::filled(0.0, __ad_v8);
        let __ad_v10 = 2 * l;
        let __ad_v11 = __ad_v10 * b;
        let mut __ad_c0_state = __ad_v9_state;
        for __ad_v13_i in 0..__ad_v11 {
            let __ad_v12_state = __ad_c0_state;
            let __ad_v14 = state0[__ad_v13_i];
            let __ad_v15_state = {
                let mut __ad_a = __ad_v12_state;
                __ad_a[__ad_v13_i] = __ad_v14;
                __ad_a
            };
            __ad_c0_state = __ad_v15_state;
        }
        let __ad_v16_state = __ad_c0_state;
        let __ad_v17_ypred = ::autograd::__private::filled(0.0, b);
        let __ad_v18_total = 0.0;
        let __ad_v19_count = 0;
        let __ad_v20 = c - 1;
        let mut __ad_c1_state = ::autograd::__private::copy(&__ad_v16_state);
        let mut __ad_c1_ypred = ::autograd::__private::copy(&__ad_v17_ypred);
        let mut __ad_c1_total = __ad_v18_total;
        let mut __ad_c1_count = __ad_v19_count;
        let mut __ad_stack1 = ::autograd::__private::Stack::with_capacity(
            ::core::iter::Iterator::size_hint(&(0..__ad_v20)).0,
        );
        for __ad_v25_t in 0..__ad_v20 {
            let __ad_v21_state = __ad_c1_state;
            let __ad_v22_ypred = __ad_c1_ypred;
            let __ad_v23_total = __ad_c1_total;
            let __ad_v24_count = __ad_c1_count;
            let mut __ad_c2_ypred = __ad_v22_ypred;
            for __ad_v30_i in 0..b {
                let __ad_v27_ypred = __ad_c2_ypred;
                let __ad_v31 = __ad_v25_t * b;
                let __ad_v32 = __ad_v31 + __ad_v30_i;
                let __ad_v33 = sequence[__ad_v32];
                let __ad_v34 = extra_params[__ad_v30_i];
                let __ad_v35 = __ad_v33 * __ad_v34;
                let __ad_v36_ypred = {
                    let mut __ad_a = __ad_v27_ypred;
                    __ad_a[__ad_v30_i] = __ad_v35;
                    __ad_a
                };
                __ad_c2_ypred = __ad_v36_ypred;
            }
            let __ad_v37_ypred = __ad_c2_ypred;
            let mut __ad_c3_state = __ad_v21_state;
            for __ad_v42_layer in 0..l {
                let __ad_v38_state = __ad_c3_state;
                let __ad_v43 = __ad_v42_layer * 8;
                let __ad_v44_wp = __ad_v43 * b;
                let __ad_v45 = __ad_v42_layer * 2;
                let __ad_v46_hp = __ad_v45 * b;
                let mut __ad_c4_state = __ad_v38_state;
                __ad_stack4.reserve(::core::iter::Iterator::size_hint(&(0..b)).0);
                __ad_cache4.start(::core::iter::Iterator::size_hint(&(0..b)).0);
                for __ad_v51_i in 0..b {
                    let __ad_v47_state = __ad_c4_state;
                    let __ad_v52 = __ad_v42_layer == 0;
                    let __ad_v58_input = if __ad_v52 {
                        let __ad_v53 = __ad_v37_ypred[__ad_v51_i];
                        __ad_v53
                    } else {
                        let __ad_v54 = 2 * b;
                        let __ad_v55 = __ad_v46_hp - __ad_v54;
                        let __ad_v56 = __ad_v55 + __ad_v51_i;
                        let __ad_v57 = __ad_v47_state[__ad_v56];
                        __ad_v57
                    };
                    let __ad_v59 = __ad_v44_wp + __ad_v51_i;
                    let __ad_v60 = main_params[__ad_v59];
                    let __ad_v61 = __ad_v58_input * __ad_v60;
                    let __ad_v62 = 4 * b;
                    let __ad_v63 = __ad_v44_wp + __ad_v62;
                    let __ad_v64 = __ad_v63 + __ad_v51_i;
                    let __ad_v65 = main_params[__ad_v64];
                    let __ad_v66 = __ad_v61 + __ad_v65;
                    let __ad_v67_forget = sigmoid(__ad_v66);
                    let __ad_v68 = __ad_v46_hp + __ad_v51_i;
                    let __ad_v69 = __ad_v47_state[__ad_v68];
                    let __ad_v70 = __ad_v44_wp + b;
                    let __ad_v71 = __ad_v70 + __ad_v51_i;
                    let __ad_v72 = main_params[__ad_v71];
                    let __ad_v73 = __ad_v69 * __ad_v72;
                    let __ad_v74 = 5 * b;
                    let __ad_v75 = __ad_v44_wp + __ad_v74;
                    let __ad_v76 = __ad_v75 + __ad_v51_i;
                    let __ad_v77 = main_params[__ad_v76];
                    let __ad_v78 = __ad_v73 + __ad_v77;
                    let __ad_v79_ingate = sigmoid(__ad_v78);
                    let __ad_v80 = 2 * b;
                    let __ad_v81 = __ad_v44_wp + __ad_v80;
                    let __ad_v82 = __ad_v81 + __ad_v51_i;
                    let __ad_v83 = main_params[__ad_v82];
                    let __ad_v84 = __ad_v58_input * __ad_v83;
                    let __ad_v85 = 6 * b;
                    let __ad_v86 = __ad_v44_wp + __ad_v85;
                    let __ad_v87 = __ad_v86 + __ad_v51_i;
                    let __ad_v88 = main_params[__ad_v87];
                    let __ad_v89 = __ad_v84 + __ad_v88;
                    let __ad_v90_outgate = sigmoid(__ad_v89);
                    let __ad_v91 = __ad_v46_hp + __ad_v51_i;
                    let __ad_v92 = __ad_v47_state[__ad_v91];
                    let __ad_v93 = 3 * b;
                    let __ad_v94 = __ad_v44_wp + __ad_v93;
                    let __ad_v95 = __ad_v94 + __ad_v51_i;
                    let __ad_v96 = main_params[__ad_v95];
                    let __ad_v97 = __ad_v92 * __ad_v96;
                    let __ad_v98 = 7 * b;
                    let __ad_v99 = __ad_v44_wp + __ad_v98;
                    let __ad_v100 = __ad_v99 + __ad_v51_i;
                    let __ad_v101 = main_params[__ad_v100];
                    let __ad_v102 = __ad_v97 + __ad_v101;
                    let __ad_v103_change = __ad_v102.tanh();
                    let __ad_v104 = __ad_v46_hp + b;
                    let __ad_v105 = __ad_v104 + __ad_v51_i;
                    let __ad_v106 = __ad_v46_hp + b;
                    let __ad_v107 = __ad_v106 + __ad_v51_i;
                    let __ad_v108 = __ad_v47_state[__ad_v107];
                    let __ad_v109 = __ad_v108 * &__ad_v67_forget;
                    let __ad_v110 = &__ad_v79_ingate * __ad_v103_change;
                    let __ad_v111 = ::autograd::__private::operator_operand(&__ad_v109)
                        + ::autograd::__private::operator_operand(&__ad_v110);
                    let __ad_v112_state = {
                        let mut __ad_a = __ad_v47_state;
                        __ad_a[__ad_v105] = __ad_v111;
                        __ad_a
                    };
                    let __ad_v113 = __ad_v46_hp + __ad_v51_i;
                    let __ad_v114 = __ad_v46_hp + b;
                    let __ad_v115 = __ad_v114 + __ad_v51_i;
                    let __ad_v116 = __ad_v112_state[__ad_v115];
                    let __ad_v117 = __ad_v116.tanh();
                    let __ad_v118 = &__ad_v90_outgate * __ad_v117;
                    let __ad_v119_state = {
                        let mut __ad_a = __ad_v112_state;
                        __ad_a[__ad_v113] = __ad_v118;
                        __ad_a
                    };
                    __ad_stack4
                        .push((
                            __ad_v58_input,
                            __ad_v69,
                            __ad_v92,
                            __ad_v108,
                            __ad_v116,
                        ));
                    __ad_cache4.push((__ad_v103_change, __ad_v117));
                    __ad_c4_state = __ad_v119_state;
                }
                let __ad_v120_state = __ad_c4_state;
                __ad_c3_state = __ad_v120_state;
            }
            let __ad_v121_state = __ad_c3_state;
            let __ad_v122 = l - 1;
            let __ad_v123 = __ad_v122 * 2;
            let __ad_v124_last = __ad_v123 * b;
            let mut __ad_c5_ypred = __ad_v37_ypred;
            __ad_stack5.reserve(::core::iter::Iterator::size_hint(&(0..b)).0);
            for __ad_v129_i in 0..b {
                let __ad_v126_ypred = __ad_c5_ypred;
                let __ad_v130 = __ad_v124_last + __ad_v129_i;
                let __ad_v131 = __ad_v121_state[__ad_v130];
                let __ad_v132 = b + __ad_v129_i;
                let __ad_v133 = extra_params[__ad_v132];
                let __ad_v134 = __ad_v131 * __ad_v133;
                let __ad_v135 = 2 * b;
                let __ad_v136 = __ad_v135 + __ad_v129_i;
                let __ad_v137 = extra_params[__ad_v136];
                let __ad_v138 = __ad_v134 + __ad_v137;
                let __ad_v139_ypred = {
                    let mut __ad_a = __ad_v126_ypred;
                    __ad_a[__ad_v129_i] = __ad_v138;
                    __ad_a
                };
                __ad_stack5.push(__ad_v131);
                __ad_c5_ypred = __ad_v139_ypred;
            }
            let __ad_v140_ypred = __ad_c5_ypred;
            let __ad_v141_sum = 0.0;
            let mut __ad_c6_sum = __ad_v141_sum;
            __ad_stack6.reserve(::core::iter::Iterator::size_hint(&(0..b)).0);
            __ad_cache6.start(::core::iter::Iterator::size_hint(&(0..b)).0);
            for __ad_v147_i in 0..b {
                let __ad_v146_sum = __ad_c6_sum;
                let __ad_v148 = __ad_v140_ypred[__ad_v147_i];
                let __ad_v149 = __ad_v148.exp();
                let __ad_v150_sum = __ad_v146_sum + __ad_v149;
                __ad_stack6.push(__ad_v148);
                __ad_cache6.push(__ad_v149);
                __ad_c6_sum = __ad_v150_sum;
            }
            let __ad_v151_sum = __ad_c6_sum;
            let __ad_v152_sum = __ad_v151_sum + 2.0;
            let __ad_v153_lse = __ad_v152_sum.ln();
            let mut __ad_c7_total = __ad_v23_total;
            for __ad_v159_i in 0..b {
                let __ad_v156_total = __ad_c7_total;
                let __ad_v160 = __ad_v25_t + 1;
                let __ad_v161 = __ad_v160 * b;
                let __ad_v162 = __ad_v161 + __ad_v159_i;
                let __ad_v163 = sequence[__ad_v162];
                let __ad_v164 = __ad_v140_ypred[__ad_v159_i];
                let __ad_v165 = __ad_v164 - __ad_v153_lse;
                let __ad_v166 = __ad_v163 * __ad_v165;
                let __ad_v167_total = __ad_v156_total + __ad_v166;
                __ad_c7_total = __ad_v167_total;
            }
            let __ad_v168_total = __ad_c7_total;
            let __ad_v169_count = __ad_v24_count + b;
            __ad_stack1.push(__ad_v151_sum);
            __ad_c1_state = __ad_v121_state;
            __ad_c1_ypred = __ad_v140_ypred;
            __ad_c1_total = __ad_v168_total;
            __ad_c1_count = __ad_v169_count;
        }
        let __ad_v170_state = __ad_c1_state;
        let __ad_v171_ypred = __ad_c1_ypred;
        let __ad_v172_total = __ad_c1_total;
        let __ad_v173_count = __ad_c1_count;
        let __ad_v174 = -__ad_v172_total;
        let __ad_v175 = __ad_v173_count as f64;
        let __ad_v176 = __ad_v174 / __ad_v175;
        let __ad_result = __ad_v176;
        let mut __ad_d_main_params = __ad_b_main_params;
        let mut __ad_d_extra_params = __ad_b_extra_params;
        let __ad_d176 = __ad_seed;
        let __ad_d174 = __ad_rules::div_grad_lhs(__ad_d176, __ad_v175);
        let __ad_d172_total = __ad_rules::neg_grad(__ad_d174);
        let mut __ad_dc1_state = ::autograd::__private::zero_like(&__ad_v16_state);
        let mut __ad_dc1_ypred = ::autograd::__private::zero_like(&__ad_v17_ypred);
        let mut __ad_dc1_total = __ad_d172_total;
        for __ad_v25_t in ::core::iter::Iterator::rev(0..__ad_v20) {
            let __ad_v151_sum = ::autograd::__private::pop(&mut __ad_stack1);
            let __ad_v122 = l - 1;
            let __ad_v123 = __ad_v122 * 2;
            let __ad_v124_last = __ad_v123 * b;
            let __ad_v152_sum = __ad_v151_sum + 2.0;
            let mut __ad_d37_ypred = ::autograd::__private::filled(0.0, b);
            let mut __ad_d151_sum = 0.0;
            let mut __ad_r151_sum = false;
            let mut __ad_d152_sum = 0.0;
            let mut __ad_r152_sum = false;
            let mut __ad_d153_lse = 0.0;
            let mut __ad_r153_lse = false;
            let mut __ad_d121_state = __ad_dc1_state;
            let mut __ad_d140_ypred = __ad_dc1_ypred;
            let __ad_d168_total = __ad_dc1_total;
            let mut __ad_dc7_total = __ad_d168_total;
            for __ad_v159_i in ::core::iter::Iterator::rev(0..b) {
                let __ad_v160 = __ad_v25_t + 1;
                let __ad_v161 = __ad_v160 * b;
                let __ad_v162 = __ad_v161 + __ad_v159_i;
                let __ad_v163 = sequence[__ad_v162];
                let __ad_d167_total = __ad_dc7_total;
                let __ad_d156_total = __ad_rules::add_grad_lhs(__ad_d167_total);
                let __ad_d166 = __ad_rules::add_grad_rhs(__ad_d167_total);
                let __ad_d165 = __ad_rules::mul_grad_rhs(__ad_d166, __ad_v163);
                let __ad_d164 = __ad_rules::sub_grad_lhs(__ad_d165);
                __ad_d153_lse += __ad_rules::sub_grad_rhs(__ad_d165);
                __ad_r153_lse = true;
                __ad_d140_ypred[__ad_v159_i] += __ad_d164;
                __ad_dc7_total = __ad_d156_total;
            }
            let __ad_d23_total = __ad_dc7_total;
            if __ad_r153_lse {
                __ad_d152_sum += __ad_rules::ln_grad(__ad_d153_lse, __ad_v152_sum);
                __ad_r152_sum = true;
            }
            if __ad_r152_sum {
                __ad_d151_sum += __ad_rules::add_grad_lhs(__ad_d152_sum);
                __ad_r151_sum = true;
            }
            let mut __ad_dc6_sum = __ad_d151_sum;
            let mut __ad_rc6_sum = __ad_r151_sum;
            for __ad_v147_i in ::core::iter::Iterator::rev(0..b) {
                let __ad_v148 = ::autograd::__private::pop(&mut __ad_stack6);
                let __ad_v149 = match __ad_cache6.pop() {
                    ::core::option::Option::Some(__ad_v149) => __ad_v149,
                    ::core::option::Option::None => {
                        let __ad_v149 = __ad_v148.exp();
                        __ad_v149
                    }
                };
                let mut __ad_d146_sum = 0.0;
                let mut __ad_r146_sum = false;
                let mut __ad_d148 = 0.0;
                let mut __ad_r148 = false;
                let mut __ad_d149 = 0.0;
                let mut __ad_r149 = false;
                let mut __ad_d150_sum = 0.0;
                let mut __ad_r150_sum = false;
                __ad_d150_sum += __ad_dc6_sum;
                __ad_r150_sum |= __ad_rc6_sum;
                if __ad_r150_sum {
                    __ad_d146_sum += __ad_rules::add_grad_lhs(__ad_d150_sum);
                    __ad_r146_sum = true;
                    __ad_d149 += __ad_rules::add_grad_rhs(__ad_d150_sum);
                    __ad_r149 = true;
                }
                if __ad_r149 {
                    __ad_d148 += __ad_rules::exp_grad(__ad_d149, __ad_v149);
                    __ad_r148 = true;
                }
                if __ad_r148 {
                    __ad_d140_ypred[__ad_v147_i] += __ad_d148;
                }
                __ad_dc6_sum = __ad_d146_sum;
                __ad_rc6_sum = __ad_r146_sum;
            }
            let mut __ad_dc5_ypred = __ad_d140_ypred;
            for __ad_v129_i in ::core::iter::Iterator::rev(0..b) {
                let __ad_v131 = ::autograd::__private::pop(&mut __ad_stack5);
                let __ad_v130 = __ad_v124_last + __ad_v129_i;
                let __ad_v132 = b + __ad_v129_i;
                let __ad_v133 = extra_params[__ad_v132];
                let __ad_v135 = 2 * b;
                let __ad_v136 = __ad_v135 + __ad_v129_i;
                let mut __ad_d139_ypred = __ad_dc5_ypred;
                let __ad_d138 = __ad_d139_ypred[__ad_v129_i];
                __ad_d139_ypred[__ad_v129_i] = 0.0;
                let mut __ad_d126_ypred = __ad_d139_ypred;
                let __ad_d134 = __ad_rules::add_grad_lhs(__ad_d138);
                let __ad_d137 = __ad_rules::add_grad_rhs(__ad_d138);
                __ad_d_extra_params[__ad_v136] += __ad_d137;
                let __ad_d131 = __ad_rules::mul_grad_lhs(__ad_d134, __ad_v133);
                let __ad_d133 = __ad_rules::mul_grad_rhs(__ad_d134, __ad_v131);
                __ad_d_extra_params[__ad_v132] += __ad_d133;
                __ad_d121_state[__ad_v130] += __ad_d131;
                __ad_dc5_ypred = __ad_d126_ypred;
            }
            ::autograd::__private::accumulate(&mut __ad_d37_ypred, __ad_dc5_ypred);
            let mut __ad_dc3_state = __ad_d121_state;
            for __ad_v42_layer in ::core::iter::Iterator::rev(0..l) {
                let __ad_v43 = __ad_v42_layer * 8;
                let __ad_v44_wp = __ad_v43 * b;
                let __ad_v45 = __ad_v42_layer * 2;
                let __ad_v46_hp = __ad_v45 * b;
                let mut __ad_d120_state = __ad_dc3_state;
                let mut __ad_dc4_state = __ad_d120_state;
                for __ad_v51_i in ::core::iter::Iterator::rev(0..b) {
                    let (
                        __ad_v58_input,
                        __ad_v69,
                        __ad_v92,
                        __ad_v108,
                        __ad_v116,
                        __ad_v103_change,
                        __ad_v117,
                        __ad_v52,
                        __ad_v59,
                        __ad_v60,
                        __ad_v61,
                        __ad_v62,
                        __ad_v63,
                        __ad_v64,
                        __ad_v65,
                        __ad_v66,
                        __ad_v67_forget,
                        __ad_pb67,
                        __ad_v68,
                        __ad_v70,
                        __ad_v71,
                        __ad_v72,
                        __ad_v73,
                        __ad_v74,
                        __ad_v75,
                        __ad_v76,
                        __ad_v77,
                        __ad_v78,
                        __ad_v79_ingate,
                        __ad_pb79,
                        __ad_v80,
                        __ad_v81,
                        __ad_v82,
                        __ad_v83,
                        __ad_v84,
                        __ad_v85,
                        __ad_v86,
                        __ad_v87,
                        __ad_v88,
                        __ad_v89,
                        __ad_v90_outgate,
                        __ad_pb90,
                        __ad_v91,
                        __ad_v93,
                        __ad_v94,
                        __ad_v95,
                        __ad_v96,
                        __ad_v98,
                        __ad_v99,
                        __ad_v100,
                        __ad_v104,
                        __ad_v105,
                        __ad_v106,
                        __ad_v107,
                        __ad_v113,
                        __ad_v114,
                        __ad_v115,
                        mut __ad_d58_input,
                        mut __ad_r58_input,
                        mut __ad_d60,
                        mut __ad_r60,
                        mut __ad_d61,
                        mut __ad_r61,
                        mut __ad_d65,
                    );
                    (__ad_v58_input, __ad_v69, __ad_v92, __ad_v108, __ad_v116) = ::autograd::__private::pop(
                        &mut __ad_stack4,
                    );
                    (__ad_v103_change, __ad_v117) = match __ad_cache4.pop() {
                        ::core::option::Option::Some((__ad_v103_change, __ad_v117)) => {
                            (__ad_v103_change, __ad_v117)
                        }
                        ::core::option::Option::None => {
                            let __ad_v93 = 3 * b;
                            let __ad_v94 = __ad_v44_wp + __ad_v93;
                            let __ad_v95 = __ad_v94 + __ad_v51_i;
                            let __ad_v96 = main_params[__ad_v95];
                            let __ad_v97 = __ad_v92 * __ad_v96;
                            let __ad_v98 = 7 * b;
                            let __ad_v99 = __ad_v44_wp + __ad_v98;
                            let __ad_v100 = __ad_v99 + __ad_v51_i;
                            let __ad_v101 = main_params[__ad_v100];
                            let __ad_v102 = __ad_v97 + __ad_v101;
                            let __ad_v103_change = __ad_v102.tanh();
                            let __ad_v117 = __ad_v116.tanh();
                            (__ad_v103_change, __ad_v117)
                        }
                    };
                    __ad_v52 = __ad_v42_layer == 0;
                    __ad_v59 = __ad_v44_wp + __ad_v51_i;
                    __ad_v60 = main_params[__ad_v59];
                    __ad_v61 = __ad_v58_input * __ad_v60;
                    __ad_v62 = 4 * b;
                    __ad_v63 = __ad_v44_wp + __ad_v62;
                    __ad_v64 = __ad_v63 + __ad_v51_i;
                    __ad_v65 = main_params[__ad_v64];
                    __ad_v66 = __ad_v61 + __ad_v65;
                    (__ad_v67_forget, __ad_pb67) = sigmoid::__vjp_full(__ad_v66);
                    sigmoid::__same_callee(&sigmoid, &__ad_v67_forget, &__ad_pb67);
                    __ad_v68 = __ad_v46_hp + __ad_v51_i;
                    __ad_v70 = __ad_v44_wp + b;
                    __ad_v71 = __ad_v70 + __ad_v51_i;
                    __ad_v72 = main_params[__ad_v71];
                    __ad_v73 = __ad_v69 * __ad_v72;
                    __ad_v74 = 5 * b;
                    __ad_v75 = __ad_v44_wp + __ad_v74;
                    __ad_v76 = __ad_v75 + __ad_v51_i;
                    __ad_v77 = main_params[__ad_v76];
                    __ad_v78 = __ad_v73 + __ad_v77;
                    (__ad_v79_ingate, __ad_pb79) = sigmoid::__vjp_full(__ad_v78);
                    sigmoid::__same_callee(&sigmoid, &__ad_v79_ingate, &__ad_pb79);
                    __ad_v80 = 2 * b;
                    __ad_v81 = __ad_v44_wp + __ad_v80;
                    __ad_v82 = __ad_v81 + __ad_v51_i;
                    __ad_v83 = main_params[__ad_v82];
                    __ad_v84 = __ad_v58_input * __ad_v83;
                    __ad_v85 = 6 * b;
                    __ad_v86 = __ad_v44_wp + __ad_v85;
                    __ad_v87 = __ad_v86 + __ad_v51_i;
                    __ad_v88 = main_params[__ad_v87];
                    __ad_v89 = __ad_v84 + __ad_v88;
                    (__ad_v90_outgate, __ad_pb90) = sigmoid::__vjp_full(__ad_v89);
                    sigmoid::__same_callee(&sigmoid, &__ad_v90_outgate, &__ad_pb90);
                    __ad_v91 = __ad_v46_hp + __ad_v51_i;
                    __ad_v93 = 3 * b;
                    __ad_v94 = __ad_v44_wp + __ad_v93;
                    __ad_v95 = __ad_v94 + __ad_v51_i;
                    __ad_v96 = main_params[__ad_v95];
                    __ad_v98 = 7 * b;
                    __ad_v99 = __ad_v44_wp + __ad_v98;
                    __ad_v100 = __ad_v99 + __ad_v51_i;
                    __ad_v104 = __ad_v46_hp + b;
                    __ad_v105 = __ad_v104 + __ad_v51_i;
                    __ad_v106 = __ad_v46_hp + b;
                    __ad_v107 = __ad_v106 + __ad_v51_i;
                    __ad_v113 = __ad_v46_hp + __ad_v51_i;
                    __ad_v114 = __ad_v46_hp + b;
                    __ad_v115 = __ad_v114 + __ad_v51_i;
                    __ad_d58_input = 0.0;
                    __ad_r58_input = false;
                    __ad_d60 = 0.0;
                    __ad_r60 = false;
                    __ad_d61 = 0.0;
                    __ad_r61 = false;
                    __ad_d65 = 0.0;
                    let (
                        mut __ad_r65,
                        mut __ad_d66,
                        mut __ad_r66,
                        mut __ad_d69,
                        mut __ad_r69,
                        mut __ad_d72,
                        mut __ad_r72,
                        mut __ad_d73,
                        mut __ad_r73,
                        mut __ad_d77,
                        mut __ad_r77,
                        mut __ad_d78,
                        mut __ad_r78,
                        mut __ad_d83,
                        mut __ad_r83,
                        mut __ad_d84,
                        mut __ad_r84,
                        mut __ad_d88,
                        mut __ad_r88,
                        mut __ad_d89,
                        mut __ad_r89,
                        mut __ad_d119_state,
                        __ad_d118,
                        mut __ad_d112_state,
                        __ad_d90_outgate,
                        __ad_d117,
                        __ad_d116,
                        __ad_d111,
                        mut __ad_d47_state,
                        __ad_d109,
                        __ad_d110,
                        __ad_d79_ingate,
                        __ad_d103_change,
                        __ad_d108,
                        __ad_d67_forget,
                        __ad_d102,
                        __ad_d97,
                        __ad_d101,
                        __ad_d92,
                        __ad_d96,
                    );
                    __ad_r65 = false;
                    __ad_d66 = 0.0;
                    __ad_r66 = false;
                    __ad_d69 = 0.0;
                    __ad_r69 = false;
                    __ad_d72 = 0.0;
                    __ad_r72 = false;
                    __ad_d73 = 0.0;
                    __ad_r73 = false;
                    __ad_d77 = 0.0;
                    __ad_r77 = false;
                    __ad_d78 = 0.0;
                    __ad_r78 = false;
                    __ad_d83 = 0.0;
                    __ad_r83 = false;
                    __ad_d84 = 0.0;
                    __ad_r84 = false;
                    __ad_d88 = 0.0;
                    __ad_r88 = false;
                    __ad_d89 = 0.0;
                    __ad_r89 = false;
                    __ad_d119_state = __ad_dc4_state;
                    __ad_d118 = __ad_d119_state[__ad_v113];
                    __ad_d119_state[__ad_v113] = 0.0;
                    __ad_d112_state = __ad_d119_state;
                    __ad_d90_outgate = __ad_rules::generic::mul_grad_lhs(
                        &__ad_d118,
                        &__ad_v90_outgate,
                        &__ad_v117,
                    );
                    __ad_d117 = __ad_rules::generic::mul_grad_rhs_owned(
                        __ad_d118,
                        &__ad_v90_outgate,
                        &__ad_v117,
                    );
                    __ad_d116 = __ad_rules::tanh_grad(__ad_d117, __ad_v117);
                    __ad_d112_state[__ad_v115] += __ad_d116;
                    __ad_d111 = __ad_d112_state[__ad_v105];
                    __ad_d112_state[__ad_v105] = 0.0;
                    __ad_d47_state = __ad_d112_state;
                    __ad_d109 = __ad_rules::generic::add_grad_lhs(&__ad_d111);
                    __ad_d110 = __ad_rules::generic::add_grad_rhs_owned(__ad_d111);
                    __ad_d79_ingate = __ad_rules::generic::mul_grad_lhs(
                        &__ad_d110,
                        &__ad_v79_ingate,
                        &__ad_v103_change,
                    );
                    __ad_d103_change = __ad_rules::generic::mul_grad_rhs_owned(
                        __ad_d110,
                        &__ad_v79_ingate,
                        &__ad_v103_change,
                    );
                    __ad_d108 = __ad_rules::generic::mul_grad_lhs(
                        &__ad_d109,
                        &__ad_v108,
                        &__ad_v67_forget,
                    );
                    __ad_d67_forget = __ad_rules::generic::mul_grad_rhs_owned(
                        __ad_d109,
                        &__ad_v108,
                        &__ad_v67_forget,
                    );
                    __ad_d47_state[__ad_v107] += __ad_d108;
                    __ad_d102 = __ad_rules::tanh_grad(
                        __ad_d103_change,
                        __ad_v103_change,
                    );
                    __ad_d97 = __ad_rules::add_grad_lhs(__ad_d102);
                    __ad_d101 = __ad_rules::add_grad_rhs(__ad_d102);
                    __ad_d_main_params[__ad_v100] += __ad_d101;
                    __ad_d92 = __ad_rules::mul_grad_lhs(__ad_d97, __ad_v96);
                    __ad_d96 = __ad_rules::mul_grad_rhs(__ad_d97, __ad_v92);
                    __ad_d_main_params[__ad_v95] += __ad_d96;
                    __ad_d47_state[__ad_v91] += __ad_d92;
                    let ((__ad_pb90_d0,), __ad_reached90) = ::autograd::__private::reached(
                        __ad_pb90(__ad_d90_outgate),
                    );
                    let __ad_pb90_d0 = ::autograd::__private::contribution(
                        (__ad_pb90_d0),
                    );
                    ::autograd::__private::accumulate(&mut __ad_d89, __ad_pb90_d0);
                    __ad_r89 |= __ad_reached90[0];
                    if __ad_r89 {
                        __ad_d84 += __ad_rules::add_grad_lhs(__ad_d89);
                        __ad_r84 = true;
                        __ad_d88 += __ad_rules::add_grad_rhs(__ad_d89);
                        __ad_r88 = true;
                    }
                    if __ad_r88 {
                        __ad_d_main_params[__ad_v87] += __ad_d88;
                    }
                    if __ad_r84 {
                        __ad_d58_input += __ad_rules::mul_grad_lhs(__ad_d84, __ad_v83);
                        __ad_r58_input = true;
                        __ad_d83 += __ad_rules::mul_grad_rhs(__ad_d84, __ad_v58_input);
                        __ad_r83 = true;
                    }
                    if __ad_r83 {
                        __ad_d_main_params[__ad_v82] += __ad_d83;
                    }
                    let ((__ad_pb79_d0,), __ad_reached79) = ::autograd::__private::reached(
                        __ad_pb79(__ad_d79_ingate),
                    );
                    let __ad_pb79_d0 = ::autograd::__private::contribution(
                        (__ad_pb79_d0),
                    );
                    ::autograd::__private::accumulate(&mut __ad_d78, __ad_pb79_d0);
                    __ad_r78 |= __ad_reached79[0];
                    if __ad_r78 {
                        __ad_d73 += __ad_rules::add_grad_lhs(__ad_d78);
                        __ad_r73 = true;
                        __ad_d77 += __ad_rules::add_grad_rhs(__ad_d78);
                        __ad_r77 = true;
                    }
                    if __ad_r77 {
                        __ad_d_main_params[__ad_v76] += __ad_d77;
                    }
                    if __ad_r73 {
                        __ad_d69 += __ad_rules::mul_grad_lhs(__ad_d73, __ad_v72);
                        __ad_r69 = true;
                        __ad_d72 += __ad_rules::mul_grad_rhs(__ad_d73, __ad_v69);
                        __ad_r72 = true;
                    }
                    if __ad_r72 {
                        __ad_d_main_params[__ad_v71] += __ad_d72;
                    }
                    if __ad_r69 {
                        __ad_d47_state[__ad_v68] += __ad_d69;
                    }
                    let ((__ad_pb67_d0,), __ad_reached67) = ::autograd::__private::reached(
                        __ad_pb67(__ad_d67_forget),
                    );
                    let __ad_pb67_d0 = ::autograd::__private::contribution(
                        (__ad_pb67_d0),
                    );
                    ::autograd::__private::accumulate(&mut __ad_d66, __ad_pb67_d0);
                    __ad_r66 |= __ad_reached67[0];
                    if __ad_r66 {
                        __ad_d61 += __ad_rules::add_grad_lhs(__ad_d66);
                        __ad_r61 = true;
                        __ad_d65 += __ad_rules::add_grad_rhs(__ad_d66);
                        __ad_r65 = true;
                    }
                    if __ad_r65 {
                        __ad_d_main_params[__ad_v64] += __ad_d65;
                    }
                    if __ad_r61 {
                        __ad_d58_input += __ad_rules::mul_grad_lhs(__ad_d61, __ad_v60);
                        __ad_r58_input = true;
                        __ad_d60 += __ad_rules::mul_grad_rhs(__ad_d61, __ad_v58_input);
                        __ad_r60 = true;
                    }
                    if __ad_r60 {
                        __ad_d_main_params[__ad_v59] += __ad_d60;
                    }
                    if __ad_v52 {
                        let mut __ad_d53 = 0.0;
                        let mut __ad_r53 = false;
                        __ad_d53 += __ad_d58_input;
                        __ad_r53 |= __ad_r58_input;
                        if __ad_r53 {
                            __ad_d37_ypred[__ad_v51_i] += __ad_d53;
                        }
                    } else {
                        let __ad_v54 = 2 * b;
                        let __ad_v55 = __ad_v46_hp - __ad_v54;
                        let __ad_v56 = __ad_v55 + __ad_v51_i;
                        let mut __ad_d57 = 0.0;
                        let mut __ad_r57 = false;
                        __ad_d57 += __ad_d58_input;
                        __ad_r57 |= __ad_r58_input;
                        if __ad_r57 {
                            __ad_d47_state[__ad_v56] += __ad_d57;
                        }
                    }
                    __ad_dc4_state = __ad_d47_state;
                }
                let mut __ad_d38_state = __ad_dc4_state;
                __ad_dc3_state = __ad_d38_state;
            }
            let mut __ad_d21_state = __ad_dc3_state;
            let mut __ad_dc2_ypred = __ad_d37_ypred;
            for __ad_v30_i in ::core::iter::Iterator::rev(0..b) {
                let __ad_v31 = __ad_v25_t * b;
                let __ad_v32 = __ad_v31 + __ad_v30_i;
                let __ad_v33 = sequence[__ad_v32];
                let mut __ad_d36_ypred = __ad_dc2_ypred;
                let __ad_d35 = __ad_d36_ypred[__ad_v30_i];
                __ad_d36_ypred[__ad_v30_i] = 0.0;
                let mut __ad_d27_ypred = __ad_d36_ypred;
                let __ad_d34 = __ad_rules::mul_grad_rhs(__ad_d35, __ad_v33);
                __ad_d_extra_params[__ad_v30_i] += __ad_d34;
                __ad_dc2_ypred = __ad_d27_ypred;
            }
            let mut __ad_d22_ypred = __ad_dc2_ypred;
            __ad_dc1_state = __ad_d21_state;
            __ad_dc1_ypred = __ad_d22_ypred;
            __ad_dc1_total = __ad_d23_total;
        }
        ::autograd::__private::recycle(__ad_v16_state);
        ::autograd::__private::recycle(__ad_v17_ypred);
        ::autograd::__private::recycle(__ad_v170_state);
        ::autograd::__private::recycle(__ad_v171_ypred);
        ::autograd::__private::recycle(__ad_dc1_state);
        ::autograd::__private::recycle(__ad_dc1_ypred);
        __ad_result
    }
    #[doc(hidden)]
    #[inline]
    fn __vjp_full<'main_params, 'extra_params, 'state0, 'sequence>(
        l: usize,
        c: usize,
        b: usize,
        main_params: &'main_params [f64],
        extra_params: &'extra_params [f64],
        state0: &'state0 [f64],
        sequence: &'sequence [f64],
    ) -> (
        f64,
        impl ::core::ops::FnOnce(
            f64,
        ) -> (
                ::autograd::__private::NoGradient,
                ::autograd::__private::NoGradient,
                ::autograd::__private::NoGradient,
                ::autograd::__private::Vec<f64>,
                ::autograd::__private::Vec<f64>,
                ::autograd::__private::NoGradient,
                ::autograd::__private::NoGradient,
            ) + use<'main_params, 'extra_params, 'state0, 'sequence>,
    ) {
        ::autograd::__private::vjp_by_acc(
            (
                ::autograd::__private::NoGradient,
                ::autograd::__private::NoGradient,
                ::autograd::__private::NoGradient,
                ::autograd::__private::zeros_like_slice(main_params),
                ::autograd::__private::zeros_like_slice(extra_params),
                ::autograd::__private::NoGradient,
                ::autograd::__private::NoGradient,
            ),
            move |__ad_b, __ad_seed| lstm_objective::__grad_acc_full(
                l,
                c,
                b,
                main_params,
                extra_params,
                state0,
                sequence,
                &mut __ad_b.3,
                &mut __ad_b.4,
                __ad_seed,
            ),
        )
    }
}
/** The value of [`lstm_objective`] and its pullback: the pullback takes the adjoint of the result (the seed) and returns the adjoints of the differentiable arguments, in argument order.

 Generated by `#[differentiable]`; the value is bit for bit what `lstm_objective` returns.*/
#[inline]
fn lstm_objective_vjp<'main_params, 'extra_params, 'state0, 'sequence>(
    l: usize,
    c: usize,
    b: usize,
    main_params: &'main_params [f64],
    extra_params: &'extra_params [f64],
    state0: &'state0 [f64],
    sequence: &'sequence [f64],
) -> (
    f64,
    impl ::core::ops::FnOnce(
        f64,
    ) -> (
            ::autograd::__private::Vec<f64>,
            ::autograd::__private::Vec<f64>,
        ) + use<'main_params, 'extra_params, 'state0, 'sequence>,
) {
    let (__ad_value, __ad_pullback) = lstm_objective::__vjp_full(
        l,
        c,
        b,
        main_params,
        extra_params,
        state0,
        sequence,
    );
    ((
        __ad_value,
        move |__ad_seed: f64| {
            let (_, _, _, __ad_d_main_params, __ad_d_extra_params, _, _) = __ad_pullback(
                __ad_seed,
            );
            (__ad_d_main_params, __ad_d_extra_params)
        },
    ))
}
/** The value of [`lstm_objective`] followed by its gradient: one adjoint per differentiable argument, in argument order.

 Generated by `#[differentiable]`: `lstm_objective_vjp` with seed 1.*/
#[inline]
fn lstm_objective_grad<'main_params, 'extra_params, 'state0, 'sequence>(
    l: usize,
    c: usize,
    b: usize,
    main_params: &'main_params [f64],
    extra_params: &'extra_params [f64],
    state0: &'state0 [f64],
    sequence: &'sequence [f64],
) -> (f64, ::autograd::__private::Vec<f64>, ::autograd::__private::Vec<f64>) {
    let (__ad_value, __ad_pullback) = lstm_objective::__vjp_full(
        l,
        c,
        b,
        main_params,
        extra_params,
        state0,
        sequence,
    );
    let (_, _, _, __ad_d_main_params, __ad_d_extra_params, _, _) = __ad_pullback(1.0);
    ((__ad_value, __ad_d_main_params, __ad_d_extra_params))
}
/** The value of [`lstm_objective`], its gradient added into one buffer per differentiable argument (`d_x += ∂lstm_objective/∂x`), in argument order: nothing is allocated for the result, so a loop over data points or an optimizer reuses its buffers.

 Generated by `#[differentiable]`.

 # Panics

 If a slice buffer's length or a matrix buffer's shape is not its argument's.*/
#[inline]
#[allow(clippy::too_many_arguments)]
fn lstm_objective_grad_acc<'main_params, 'extra_params, 'state0, 'sequence>(
    l: usize,
    c: usize,
    b: usize,
    main_params: &'main_params [f64],
    extra_params: &'extra_params [f64],
    state0: &'state0 [f64],
    sequence: &'sequence [f64],
    d_main_params: &mut [f64],
    d_extra_params: &mut [f64],
) -> f64 {
    lstm_objective::__grad_acc_full(
        l,
        c,
        b,
        main_params,
        extra_params,
        state0,
        sequence,
        d_main_params,
        d_extra_params,
        1.0,
    )
}
/** Compares [`lstm_objective_grad`] at this point with central finite differences of [`lstm_objective`], component by component.

 Generated by `#[differentiable]`; see `autograd::GradientCheck` for the step and tolerance policy.*/
#[inline]
fn lstm_objective_check<'main_params, 'extra_params, 'state0, 'sequence>(
    l: usize,
    c: usize,
    b: usize,
    main_params: &'main_params [f64],
    extra_params: &'extra_params [f64],
    state0: &'state0 [f64],
    sequence: &'sequence [f64],
) -> ::autograd::GradientCheck {
    let (__ad_value, __ad_d_main_params, __ad_d_extra_params) = lstm_objective_grad(
        l,
        c,
        b,
        main_params,
        extra_params,
        state0,
        sequence,
    );
    let mut __ad_check = ::autograd::GradientCheck::new(
        ::autograd::__private::to_f64(__ad_value),
    );
    __ad_check
        .slice(
            "main_params",
            main_params,
            &__ad_d_main_params,
            |main_params| lstm_objective(
                l,
                c,
                b,
                main_params,
                extra_params,
                state0,
                sequence,
            ),
        );
    __ad_check
        .slice(
            "extra_params",
            extra_params,
            &__ad_d_extra_params,
            |extra_params| lstm_objective(
                l,
                c,
                b,
                main_params,
                extra_params,
                state0,
                sequence,
            ),
        );
    __ad_check
}
