fn gmm_objective(
    d: usize,
    k: usize,
    n: usize,
    alphas: &[f64],
    means: &[f64],
    icf: &[f64],
    x: &[f64],
    gamma: f64,
    m: usize,
    wishart_c: f64,
) -> f64 {
    let constant = -((n * d) as f64) * 0.5 * (2.0 * std::f64::consts::PI).ln();
    let icf_sz = d * (d + 1) / 2;
    let mut qdiags = vec![0.0; d * k];
    let mut sum_qs = vec![0.0; k];
    for ik in 0..k {
        for id in 0..d {
            let q = icf[ik * icf_sz + id];
            sum_qs[ik] += q;
            qdiags[ik * d + id] = q.exp();
        }
    }
    let mut xcentered = vec![0.0; d];
    let mut qxcentered = vec![0.0; d];
    let mut main_term = vec![0.0; k];
    let mut slse = 0.0;
    for ix in 0..n {
        for ik in 0..k {
            for id in 0..d {
                xcentered[id] = x[ix * d + id] - means[ik * d + id];
            }
            for id in 0..d {
                qxcentered[id] = qdiags[ik * d + id] * xcentered[id];
            }
            let mut li = ik * icf_sz + d;
            for i in 0..d {
                for j in i + 1..d {
                    qxcentered[j] += icf[li] * xcentered[i];
                    li += 1;
                }
            }
            let mut sqnorm = 0.0;
            for id in 0..d {
                sqnorm += qxcentered[id] * qxcentered[id];
            }
            main_term[ik] = alphas[ik] + sum_qs[ik] - 0.5 * sqnorm;
        }
        slse += logsumexp(&main_term);
    }
    let lse_alphas = logsumexp(alphas);
    let err = constant + slse - n as f64 * lse_alphas;
    err + log_wishart_prior(d, k, gamma, m, wishart_c, &sum_qs, &qdiags, icf)
}
#[doc(hidden)]
#[allow(non_camel_case_types, dead_code)]
struct gmm_objective {}
#[doc(hidden)]
impl gmm_objective {
    #[doc(hidden)]
    #[allow(non_upper_case_globals)]
    const __PARAMS: &[&str] = &[
        "d",
        "k",
        "n",
        "alphas",
        "means",
        "icf",
        "x",
        "gamma",
        "m",
        "wishart_c",
    ];
    #[doc(hidden)]
    #[inline(always)]
    fn __same_callee<F: 'static, V, P>(called: &F, _: &V, _: &P) {
        ::autograd::__private::same_function(
            called,
            ::autograd::__private::type_id_of(&gmm_objective),
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
    fn __grad_acc_full<'alphas, 'means, 'icf, 'x>(
        d: usize,
        k: usize,
        n: usize,
        alphas: &'alphas [f64],
        means: &'means [f64],
        icf: &'icf [f64],
        x: &'x [f64],
        gamma: f64,
        m: usize,
        wishart_c: f64,
        __ad_b_alphas: &mut [f64],
        __ad_b_means: &mut [f64],
        __ad_b_icf: &mut [f64],
        __ad_seed: f64,
    ) -> f64 {
        let _ = gmm_objective;
        use ::autograd::__private::rules as __ad_rules;
        ::autograd::__private::check_buffer(__ad_b_alphas, alphas.len());
        ::autograd::__private::check_buffer(__ad_b_means, means.len());
        ::autograd::__private::check_buffer(__ad_b_icf, icf.len());
        let (
            mut __ad_cache1,
            __ad_v10,
            __ad_v11,
            __ad_v12,
            __ad_v13,
            __ad_v14_constant,
            __ad_v15,
            __ad_v16,
            __ad_v17_icf_sz,
            __ad_v18,
            __ad_v19_qdiags,
            __ad_v20_sum_qs,
            mut __ad_c0_qdiags,
            mut __ad_c0_sum_qs,
            __ad_v39_qdiags,
            __ad_v40_sum_qs,
            __ad_v41_xcentered,
            __ad_v42_qxcentered,
            __ad_v43_main_term,
            __ad_v44_slse,
            mut __ad_c2_xcentered,
            mut __ad_c2_qxcentered,
            mut __ad_c2_main_term,
            mut __ad_c2_slse,
            mut __ad_rows2,
            __ad_v144_xcentered,
            __ad_v145_qxcentered,
            __ad_v146_main_term,
            __ad_v147_slse,
            __ad_v148_lse_alphas,
            __ad_pb148,
            __ad_v149,
            __ad_v150,
            __ad_v151,
            __ad_v152_err,
            __ad_v153,
            __ad_v154,
            __ad_result,
            mut __ad_stack6,
            mut __ad_d_alphas,
            mut __ad_d_means,
            mut __ad_d_icf,
            mut __ad_d39_qdiags,
            mut __ad_d40_sum_qs,
            __ad_d154,
            __ad_d152_err,
            __ad_d153,
            __ad_callee_value,
            __ad_pb153,
            __ad_d149,
            __ad_d151,
            __ad_d148_lse_alphas,
            __ad_d147_slse,
            mut __ad_dc2_xcentered,
            mut __ad_dc2_qxcentered,
            mut __ad_dc2_main_term,
            mut __ad_dc2_slse,
            mut __ad_spare3_xcentered,
            mut __ad_spare3_qxcentered,
            mut __ad_dc0_qdiags,
            mut __ad_dc0_sum_qs,
        );
        __ad_cache1 = ::autograd::__private::Cache::new();
        __ad_v10 = n * d;
        __ad_v11 = __ad_v10 as f64;
        __ad_v12 = -__ad_v11;
        __ad_v13 = __ad_v12 * 0.5;
        __ad_v14_constant = __ad_v13 * (2.0 * std::f64::consts::PI).ln();
        __ad_v15 = d + 1;
        __ad_v16 = d * __ad_v15;
        __ad_v17_icf_sz = __ad_v16 / 2;
        __ad_v18 = d * k;
        __ad_v19_qdiags = ::autograd::__private::filled(0.0, __ad_v18);
        __ad_v20_sum_qs = ::autograd::__private::filled(0.0, k);
        __ad_c0_qdiags = __ad_v19_qdiags;
        __ad_c0_sum_qs = __ad_v20_sum_qs;
        for __ad_v23_ik in 0..k {
            let __ad_v21_qdiags = __ad_c0_qdiags;
            let __ad_v22_sum_qs = __ad_c0_sum_qs;
            let mut __ad_c1_qdiags = __ad_v21_qdiags;
            let mut __ad_c1_sum_qs = __ad_v22_sum_qs;
            __ad_cache1.start(::core::iter::Iterator::size_hint(&(0..d)).0);
            for __ad_v26_id in 0..d {
                let __ad_v24_qdiags = __ad_c1_qdiags;
                let __ad_v25_sum_qs = __ad_c1_sum_qs;
                let __ad_v27 = __ad_v23_ik * __ad_v17_icf_sz;
                let __ad_v28 = __ad_v27 + __ad_v26_id;
                let __ad_v29_q = icf[__ad_v28];
                let __ad_v30 = __ad_v25_sum_qs[__ad_v23_ik];
                let __ad_v31 = __ad_v30 + __ad_v29_q;
                let __ad_v32_sum_qs = {
                    let mut __ad_a = __ad_v25_sum_qs;
                    __ad_a[__ad_v23_ik] = __ad_v31;
                    __ad_a
                };
                let __ad_v33 = __ad_v23_ik * d;
                let __ad_v34 = __ad_v33 + __ad_v26_id;
                let __ad_v35 = __ad_v29_q.exp();
                let __ad_v36_qdiags = {
                    let mut __ad_a = __ad_v24_qdiags;
                    __ad_a[__ad_v34] = __ad_v35;
                    __ad_a
                };
                __ad_cache1.push(__ad_v35);
                __ad_c1_qdiags = __ad_v36_qdiags;
                __ad_c1_sum_qs = __ad_v32_sum_qs;
            }
            let __ad_v37_qdiags = __ad_c1_qdiags;
            let __ad_v38_sum_qs = __ad_c1_sum_qs;
            __ad_c0_qdiags = __ad_v37_qdiags;
            __ad_c0_sum_qs = __ad_v38_sum_qs;
        }
        __ad_v39_qdiags = __ad_c0_qdiags;
        __ad_v40_sum_qs = __ad_c0_sum_qs;
        __ad_v41_xcentered = ::autograd::__private::filled(0.0, d);
        __ad_v42_qxcentered = ::autograd::__private::filled(0.0, d);
        __ad_v43_main_term = ::autograd::__private::filled(0.0, k);
        __ad_v44_slse = 0.0;
        __ad_c2_xcentered = ::autograd::__private::copy(&__ad_v41_xcentered);
        __ad_c2_qxcentered = ::autograd::__private::copy(&__ad_v42_qxcentered);
        __ad_c2_main_term = ::autograd::__private::copy(&__ad_v43_main_term);
        __ad_c2_slse = __ad_v44_slse;
        __ad_rows2 = ::autograd::__private::Rows::new();
        __ad_rows2.reserve(::core::iter::Iterator::size_hint(&(0..n)).0);
        for __ad_v51_ix in 0..n {
            let __ad_v47_xcentered = __ad_c2_xcentered;
            let __ad_v48_qxcentered = __ad_c2_qxcentered;
            let __ad_v49_main_term = __ad_c2_main_term;
            let __ad_v50_slse = __ad_c2_slse;
            let mut __ad_c3_xcentered = __ad_v47_xcentered;
            let mut __ad_c3_qxcentered = __ad_v48_qxcentered;
            let mut __ad_c3_main_term = __ad_v49_main_term;
            for __ad_v58_ik in 0..k {
                let __ad_v54_xcentered = __ad_c3_xcentered;
                let __ad_v55_qxcentered = __ad_c3_qxcentered;
                let __ad_v56_main_term = __ad_c3_main_term;
                let mut __ad_c4_xcentered = __ad_v54_xcentered;
                for __ad_v65_id in 0..d {
                    let __ad_v61_xcentered = __ad_c4_xcentered;
                    let __ad_v66 = __ad_v51_ix * d;
                    let __ad_v67 = __ad_v66 + __ad_v65_id;
                    let __ad_v68 = x[__ad_v67];
                    let __ad_v69 = __ad_v58_ik * d;
                    let __ad_v70 = __ad_v69 + __ad_v65_id;
                    let __ad_v71 = means[__ad_v70];
                    let __ad_v72 = __ad_v68 - __ad_v71;
                    let __ad_v73_xcentered = {
                        let mut __ad_a = __ad_v61_xcentered;
                        __ad_a[__ad_v65_id] = __ad_v72;
                        __ad_a
                    };
                    __ad_c4_xcentered = __ad_v73_xcentered;
                }
                let __ad_v74_xcentered = __ad_c4_xcentered;
                let mut __ad_c5_qxcentered = __ad_v55_qxcentered;
                for __ad_v81_id in 0..d {
                    let __ad_v78_qxcentered = __ad_c5_qxcentered;
                    let __ad_v82 = __ad_v58_ik * d;
                    let __ad_v83 = __ad_v82 + __ad_v81_id;
                    let __ad_v84 = __ad_v39_qdiags[__ad_v83];
                    let __ad_v85 = __ad_v74_xcentered[__ad_v81_id];
                    let __ad_v86 = __ad_v84 * __ad_v85;
                    let __ad_v87_qxcentered = {
                        let mut __ad_a = __ad_v78_qxcentered;
                        __ad_a[__ad_v81_id] = __ad_v86;
                        __ad_a
                    };
                    __ad_c5_qxcentered = __ad_v87_qxcentered;
                }
                let __ad_v88_qxcentered = __ad_c5_qxcentered;
                let __ad_v89 = __ad_v58_ik * __ad_v17_icf_sz;
                let __ad_v90_li = __ad_v89 + d;
                let mut __ad_c6_qxcentered = __ad_v88_qxcentered;
                let mut __ad_c6_li = __ad_v90_li;
                for __ad_v98_i in 0..d {
                    let __ad_v94_qxcentered = __ad_c6_qxcentered;
                    let __ad_v97_li = __ad_c6_li;
                    let __ad_v99 = __ad_v98_i + 1;
                    let mut __ad_c7_qxcentered = __ad_v94_qxcentered;
                    let mut __ad_c7_li = __ad_v97_li;
                    for __ad_v107_j in __ad_v99..d {
                        let __ad_v103_qxcentered = __ad_c7_qxcentered;
                        let __ad_v106_li = __ad_c7_li;
                        let __ad_v108 = icf[__ad_v106_li];
                        let __ad_v109 = __ad_v74_xcentered[__ad_v98_i];
                        let __ad_v110 = __ad_v108 * __ad_v109;
                        let __ad_v111 = __ad_v103_qxcentered[__ad_v107_j];
                        let __ad_v112 = __ad_v111 + __ad_v110;
                        let __ad_v113_qxcentered = {
                            let mut __ad_a = __ad_v103_qxcentered;
                            __ad_a[__ad_v107_j] = __ad_v112;
                            __ad_a
                        };
                        let __ad_v114_li = __ad_v106_li + 1;
                        __ad_c7_qxcentered = __ad_v113_qxcentered;
                        __ad_c7_li = __ad_v114_li;
                    }
                    let __ad_v115_qxcentered = __ad_c7_qxcentered;
                    let __ad_v116_li = __ad_c7_li;
                    __ad_c6_qxcentered = __ad_v115_qxcentered;
                    __ad_c6_li = __ad_v116_li;
                }
                let __ad_v117_qxcentered = __ad_c6_qxcentered;
                let __ad_v118_li = __ad_c6_li;
                let __ad_v119_sqnorm = 0.0;
                let mut __ad_c8_sqnorm = __ad_v119_sqnorm;
                for __ad_v128_id in 0..d {
                    let __ad_v127_sqnorm = __ad_c8_sqnorm;
                    let __ad_v129 = __ad_v117_qxcentered[__ad_v128_id];
                    let __ad_v130 = __ad_v129 * __ad_v129;
                    let __ad_v131_sqnorm = __ad_v127_sqnorm + __ad_v130;
                    __ad_c8_sqnorm = __ad_v131_sqnorm;
                }
                let __ad_v132_sqnorm = __ad_c8_sqnorm;
                let __ad_v133 = alphas[__ad_v58_ik];
                let __ad_v134 = __ad_v40_sum_qs[__ad_v58_ik];
                let __ad_v135 = __ad_v133 + __ad_v134;
                let __ad_v136 = 0.5 * __ad_v132_sqnorm;
                let __ad_v137 = __ad_v135 - __ad_v136;
                let __ad_v138_main_term = {
                    let mut __ad_a = __ad_v56_main_term;
                    __ad_a[__ad_v58_ik] = __ad_v137;
                    __ad_a
                };
                __ad_c3_xcentered = __ad_v74_xcentered;
                __ad_c3_qxcentered = __ad_v117_qxcentered;
                __ad_c3_main_term = __ad_v138_main_term;
            }
            let __ad_v139_xcentered = __ad_c3_xcentered;
            let __ad_v140_qxcentered = __ad_c3_qxcentered;
            let __ad_v141_main_term = __ad_c3_main_term;
            let __ad_v142 = logsumexp(&__ad_v141_main_term);
            let __ad_v143_slse = __ad_v50_slse + &__ad_v142;
            __ad_rows2.push(&__ad_v141_main_term);
            __ad_c2_xcentered = __ad_v139_xcentered;
            __ad_c2_qxcentered = __ad_v140_qxcentered;
            __ad_c2_main_term = __ad_v141_main_term;
            __ad_c2_slse = __ad_v143_slse;
        }
        __ad_v144_xcentered = __ad_c2_xcentered;
        __ad_v145_qxcentered = __ad_c2_qxcentered;
        __ad_v146_main_term = __ad_c2_main_term;
        __ad_v147_slse = __ad_c2_slse;
        (__ad_v148_lse_alphas, __ad_pb148) = logsumexp::__vjp_full(alphas);
        logsumexp::__same_callee(&logsumexp, &__ad_v148_lse_alphas, &__ad_pb148);
        __ad_v149 = __ad_v14_constant + __ad_v147_slse;
        __ad_v150 = n as f64;
        __ad_v151 = __ad_v150 * &__ad_v148_lse_alphas;
        __ad_v152_err = __ad_v149 - &__ad_v151;
        __ad_v153 = log_wishart_prior(
            d,
            k,
            gamma,
            m,
            wishart_c,
            &__ad_v40_sum_qs,
            &__ad_v39_qdiags,
            icf,
        );
        __ad_v154 = ::autograd::__private::operator_operand(&__ad_v152_err)
            + ::autograd::__private::operator_operand(&__ad_v153);
        __ad_result = __ad_v154;
        __ad_stack6 = ::autograd::__private::Stack::new();
        __ad_d_alphas = __ad_b_alphas;
        __ad_d_means = __ad_b_means;
        __ad_d_icf = __ad_b_icf;
        __ad_d39_qdiags = ::autograd::__private::filled(0.0, __ad_v18);
        __ad_d40_sum_qs = ::autograd::__private::filled(0.0, k);
        __ad_d154 = __ad_seed;
        __ad_d152_err = __ad_rules::generic::add_grad_lhs(&__ad_d154);
        __ad_d153 = __ad_rules::generic::add_grad_rhs_owned(__ad_d154);
        (__ad_callee_value, __ad_pb153) = log_wishart_prior::__vjp_full(
            d,
            k,
            gamma,
            m,
            wishart_c,
            &__ad_v40_sum_qs,
            &__ad_v39_qdiags,
            icf,
        );
        log_wishart_prior::__same_callee(
            &log_wishart_prior,
            &__ad_callee_value,
            &__ad_pb153,
        );
        let (_, _, _, _, _, __ad_pb153_d5, __ad_pb153_d6, __ad_pb153_d7) = ::autograd::__private::adjoints(
            __ad_pb153(__ad_d153),
        );
        let __ad_pb153_d5 = ::autograd::__private::contribution((__ad_pb153_d5));
        ::autograd::__private::accumulate(&mut __ad_d40_sum_qs, __ad_pb153_d5);
        let __ad_pb153_d6 = ::autograd::__private::contribution((__ad_pb153_d6));
        ::autograd::__private::accumulate(&mut __ad_d39_qdiags, __ad_pb153_d6);
        let __ad_pb153_d7 = ::autograd::__private::contribution((__ad_pb153_d7));
        ::autograd::__private::accumulate(&mut __ad_d_icf, __ad_pb153_d7);
        __ad_d149 = __ad_rules::generic::sub_grad_lhs(&__ad_d152_err);
        __ad_d151 = __ad_rules::generic::sub_grad_rhs_owned(__ad_d152_err);
        __ad_d148_lse_alphas = __ad_rules::generic::mul_grad_rhs_owned(
            __ad_d151,
            &__ad_v150,
            &__ad_v148_lse_alphas,
        );
        __ad_d147_slse = __ad_rules::add_grad_rhs(__ad_d149);
        let (__ad_pb148_d0,) = ::autograd::__private::adjoints(
            __ad_pb148(__ad_d148_lse_alphas),
        );
        let __ad_pb148_d0 = ::autograd::__private::contribution((__ad_pb148_d0));
        ::autograd::__private::accumulate(&mut __ad_d_alphas, __ad_pb148_d0);
        __ad_dc2_xcentered = ::autograd::__private::zero_like(&__ad_v41_xcentered);
        __ad_dc2_qxcentered = ::autograd::__private::zero_like(&__ad_v42_qxcentered);
        __ad_dc2_main_term = ::autograd::__private::zero_like(&__ad_v43_main_term);
        __ad_dc2_slse = __ad_d147_slse;
        __ad_spare3_xcentered = ::core::option::Option::None;
        __ad_spare3_qxcentered = ::core::option::Option::None;
        for __ad_v51_ix in ::core::iter::Iterator::rev(0..n) {
            let __ad_v141_main_term = __ad_rows2.pop();
            let mut __ad_d139_xcentered = __ad_dc2_xcentered;
            let mut __ad_d140_qxcentered = __ad_dc2_qxcentered;
            let mut __ad_d141_main_term = __ad_dc2_main_term;
            let __ad_d143_slse = __ad_dc2_slse;
            let __ad_d50_slse = __ad_rules::generic::add_grad_lhs(&__ad_d143_slse);
            let __ad_d142 = __ad_rules::generic::add_grad_rhs_owned(__ad_d143_slse);
            let (__ad_callee_value, __ad_pb142) = logsumexp::__vjp_full(
                &__ad_v141_main_term,
            );
            logsumexp::__same_callee(&logsumexp, &__ad_callee_value, &__ad_pb142);
            let (__ad_pb142_d0,) = ::autograd::__private::adjoints(
                __ad_pb142(__ad_d142),
            );
            let __ad_pb142_d0 = ::autograd::__private::contribution((__ad_pb142_d0));
            ::autograd::__private::accumulate(&mut __ad_d141_main_term, __ad_pb142_d0);
            let mut __ad_dc3_xcentered = __ad_d139_xcentered;
            let mut __ad_dc3_qxcentered = __ad_d140_qxcentered;
            let mut __ad_dc3_main_term = __ad_d141_main_term;
            for __ad_v58_ik in ::core::iter::Iterator::rev(0..k) {
                let __ad_v54_xcentered = ::autograd::__private::spare_or_copy(
                    &mut __ad_spare3_xcentered,
                    &__ad_v41_xcentered,
                );
                let __ad_v55_qxcentered = ::autograd::__private::spare_or_copy(
                    &mut __ad_spare3_qxcentered,
                    &__ad_v42_qxcentered,
                );
                let mut __ad_c4_xcentered = __ad_v54_xcentered;
                for __ad_v65_id in 0..d {
                    let __ad_v61_xcentered = __ad_c4_xcentered;
                    let __ad_v66 = __ad_v51_ix * d;
                    let __ad_v67 = __ad_v66 + __ad_v65_id;
                    let __ad_v68 = x[__ad_v67];
                    let __ad_v69 = __ad_v58_ik * d;
                    let __ad_v70 = __ad_v69 + __ad_v65_id;
                    let __ad_v71 = means[__ad_v70];
                    let __ad_v72 = __ad_v68 - __ad_v71;
                    let __ad_v73_xcentered = {
                        let mut __ad_a = __ad_v61_xcentered;
                        __ad_a[__ad_v65_id] = __ad_v72;
                        __ad_a
                    };
                    __ad_c4_xcentered = __ad_v73_xcentered;
                }
                let __ad_v74_xcentered = __ad_c4_xcentered;
                let mut __ad_c5_qxcentered = __ad_v55_qxcentered;
                for __ad_v81_id in 0..d {
                    let __ad_v78_qxcentered = __ad_c5_qxcentered;
                    let __ad_v82 = __ad_v58_ik * d;
                    let __ad_v83 = __ad_v82 + __ad_v81_id;
                    let __ad_v84 = __ad_v39_qdiags[__ad_v83];
                    let __ad_v85 = __ad_v74_xcentered[__ad_v81_id];
                    let __ad_v86 = __ad_v84 * __ad_v85;
                    let __ad_v87_qxcentered = {
                        let mut __ad_a = __ad_v78_qxcentered;
                        __ad_a[__ad_v81_id] = __ad_v86;
                        __ad_a
                    };
                    __ad_c5_qxcentered = __ad_v87_qxcentered;
                }
                let __ad_v88_qxcentered = __ad_c5_qxcentered;
                let __ad_v89 = __ad_v58_ik * __ad_v17_icf_sz;
                let __ad_v90_li = __ad_v89 + d;
                let mut __ad_c6_qxcentered = __ad_v88_qxcentered;
                let mut __ad_c6_li = __ad_v90_li;
                __ad_stack6.reserve(::core::iter::Iterator::size_hint(&(0..d)).0);
                for __ad_v98_i in 0..d {
                    let __ad_v94_qxcentered = __ad_c6_qxcentered;
                    let __ad_v97_li = __ad_c6_li;
                    __ad_stack6.push(__ad_v97_li);
                    let __ad_v99 = __ad_v98_i + 1;
                    let mut __ad_c7_qxcentered = __ad_v94_qxcentered;
                    let mut __ad_c7_li = __ad_v97_li;
                    for __ad_v107_j in __ad_v99..d {
                        let __ad_v103_qxcentered = __ad_c7_qxcentered;
                        let __ad_v106_li = __ad_c7_li;
                        let __ad_v108 = icf[__ad_v106_li];
                        let __ad_v109 = __ad_v74_xcentered[__ad_v98_i];
                        let __ad_v110 = __ad_v108 * __ad_v109;
                        let __ad_v111 = __ad_v103_qxcentered[__ad_v107_j];
                        let __ad_v112 = __ad_v111 + __ad_v110;
                        let __ad_v113_qxcentered = {
                            let mut __ad_a = __ad_v103_qxcentered;
                            __ad_a[__ad_v107_j] = __ad_v112;
                            __ad_a
                        };
                        let __ad_v114_li = __ad_v106_li + 1;
                        __ad_c7_qxcentered = __ad_v113_qxcentered;
                        __ad_c7_li = __ad_v114_li;
                    }
                    let __ad_v115_qxcentered = __ad_c7_qxcentered;
                    let __ad_v116_li = __ad_c7_li;
                    __ad_c6_qxcentered = __ad_v115_qxcentered;
                    __ad_c6_li = __ad_v116_li;
                }
                let __ad_v117_qxcentered = __ad_c6_qxcentered;
                let __ad_v118_li = __ad_c6_li;
                let mut __ad_d74_xcentered = __ad_dc3_xcentered;
                let mut __ad_d117_qxcentered = __ad_dc3_qxcentered;
                let mut __ad_d138_main_term = __ad_dc3_main_term;
                let __ad_d137 = __ad_d138_main_term[__ad_v58_ik];
                __ad_d138_main_term[__ad_v58_ik] = 0.0;
                let mut __ad_d56_main_term = __ad_d138_main_term;
                let __ad_d135 = __ad_rules::sub_grad_lhs(__ad_d137);
                let __ad_d136 = __ad_rules::sub_grad_rhs(__ad_d137);
                let __ad_d132_sqnorm = __ad_rules::mul_grad_rhs(__ad_d136, 0.5);
                let __ad_d133 = __ad_rules::add_grad_lhs(__ad_d135);
                let __ad_d134 = __ad_rules::add_grad_rhs(__ad_d135);
                __ad_d40_sum_qs[__ad_v58_ik] += __ad_d134;
                __ad_d_alphas[__ad_v58_ik] += __ad_d133;
                let mut __ad_dc8_sqnorm = __ad_d132_sqnorm;
                for __ad_v128_id in ::core::iter::Iterator::rev(0..d) {
                    let __ad_v129 = __ad_v117_qxcentered[__ad_v128_id];
                    let __ad_d131_sqnorm = __ad_dc8_sqnorm;
                    let __ad_d127_sqnorm = __ad_rules::add_grad_lhs(__ad_d131_sqnorm);
                    let __ad_d130 = __ad_rules::add_grad_rhs(__ad_d131_sqnorm);
                    let mut __ad_d129 = __ad_rules::mul_grad_lhs(__ad_d130, __ad_v129);
                    __ad_d129 += __ad_rules::mul_grad_rhs(__ad_d130, __ad_v129);
                    __ad_d117_qxcentered[__ad_v128_id] += __ad_d129;
                    __ad_dc8_sqnorm = __ad_d127_sqnorm;
                }
                let mut __ad_dc6_qxcentered = __ad_d117_qxcentered;
                for __ad_v98_i in ::core::iter::Iterator::rev(0..d) {
                    let __ad_v97_li = ::autograd::__private::pop(&mut __ad_stack6);
                    let __ad_v99 = __ad_v98_i + 1;
                    let mut __ad_d115_qxcentered = __ad_dc6_qxcentered;
                    let mut __ad_dc7_qxcentered = __ad_d115_qxcentered;
                    let mut __ad_dw7___ad_v74_xcentered_at98 = 0.0;
                    for __ad_v107_j in ::core::iter::Iterator::rev(__ad_v99..d) {
                        let __ad_v106_li = ::autograd::__private::induction(
                            __ad_v97_li,
                            1,
                            __ad_v107_j - __ad_v99,
                        );
                        let __ad_v108 = icf[__ad_v106_li];
                        let __ad_v109 = __ad_v74_xcentered[__ad_v98_i];
                        let mut __ad_d113_qxcentered = __ad_dc7_qxcentered;
                        let __ad_d112 = __ad_d113_qxcentered[__ad_v107_j];
                        __ad_d113_qxcentered[__ad_v107_j] = 0.0;
                        let mut __ad_d103_qxcentered = __ad_d113_qxcentered;
                        let __ad_d111 = __ad_rules::add_grad_lhs(__ad_d112);
                        let __ad_d110 = __ad_rules::add_grad_rhs(__ad_d112);
                        __ad_d103_qxcentered[__ad_v107_j] += __ad_d111;
                        let __ad_d108 = __ad_rules::mul_grad_lhs(__ad_d110, __ad_v109);
                        let __ad_d109 = __ad_rules::mul_grad_rhs(__ad_d110, __ad_v108);
                        __ad_dw7___ad_v74_xcentered_at98 += __ad_d109;
                        __ad_d_icf[__ad_v106_li] += __ad_d108;
                        __ad_dc7_qxcentered = __ad_d103_qxcentered;
                    }
                    if !(__ad_v99..d).is_empty() {
                        __ad_d74_xcentered[__ad_v98_i]
                            += __ad_dw7___ad_v74_xcentered_at98;
                    }
                    let mut __ad_d94_qxcentered = __ad_dc7_qxcentered;
                    __ad_dc6_qxcentered = __ad_d94_qxcentered;
                }
                let mut __ad_d88_qxcentered = __ad_dc6_qxcentered;
                let mut __ad_dc5_qxcentered = __ad_d88_qxcentered;
                for __ad_v81_id in ::core::iter::Iterator::rev(0..d) {
                    let __ad_v82 = __ad_v58_ik * d;
                    let __ad_v83 = __ad_v82 + __ad_v81_id;
                    let __ad_v84 = __ad_v39_qdiags[__ad_v83];
                    let __ad_v85 = __ad_v74_xcentered[__ad_v81_id];
                    let mut __ad_d87_qxcentered = __ad_dc5_qxcentered;
                    let __ad_d86 = __ad_d87_qxcentered[__ad_v81_id];
                    __ad_d87_qxcentered[__ad_v81_id] = 0.0;
                    let mut __ad_d78_qxcentered = __ad_d87_qxcentered;
                    let __ad_d84 = __ad_rules::mul_grad_lhs(__ad_d86, __ad_v85);
                    let __ad_d85 = __ad_rules::mul_grad_rhs(__ad_d86, __ad_v84);
                    __ad_d74_xcentered[__ad_v81_id] += __ad_d85;
                    __ad_d39_qdiags[__ad_v83] += __ad_d84;
                    __ad_dc5_qxcentered = __ad_d78_qxcentered;
                }
                let mut __ad_d55_qxcentered = __ad_dc5_qxcentered;
                let mut __ad_dc4_xcentered = __ad_d74_xcentered;
                for __ad_v65_id in ::core::iter::Iterator::rev(0..d) {
                    let __ad_v69 = __ad_v58_ik * d;
                    let __ad_v70 = __ad_v69 + __ad_v65_id;
                    let mut __ad_d73_xcentered = __ad_dc4_xcentered;
                    let __ad_d72 = __ad_d73_xcentered[__ad_v65_id];
                    __ad_d73_xcentered[__ad_v65_id] = 0.0;
                    let mut __ad_d61_xcentered = __ad_d73_xcentered;
                    let __ad_d71 = __ad_rules::sub_grad_rhs(__ad_d72);
                    __ad_d_means[__ad_v70] += __ad_d71;
                    __ad_dc4_xcentered = __ad_d61_xcentered;
                }
                let mut __ad_d54_xcentered = __ad_dc4_xcentered;
                __ad_dc3_xcentered = __ad_d54_xcentered;
                __ad_dc3_qxcentered = __ad_d55_qxcentered;
                __ad_dc3_main_term = __ad_d56_main_term;
                __ad_spare3_xcentered = ::core::option::Option::Some(__ad_v74_xcentered);
                __ad_spare3_qxcentered = ::core::option::Option::Some(
                    __ad_v117_qxcentered,
                );
            }
            let mut __ad_d47_xcentered = __ad_dc3_xcentered;
            let mut __ad_d48_qxcentered = __ad_dc3_qxcentered;
            let mut __ad_d49_main_term = __ad_dc3_main_term;
            __ad_dc2_xcentered = __ad_d47_xcentered;
            __ad_dc2_qxcentered = __ad_d48_qxcentered;
            __ad_dc2_main_term = __ad_d49_main_term;
            __ad_dc2_slse = __ad_d50_slse;
            __ad_rows2.give_back(__ad_v141_main_term);
        }
        __ad_dc0_qdiags = __ad_d39_qdiags;
        __ad_dc0_sum_qs = __ad_d40_sum_qs;
        for __ad_v23_ik in ::core::iter::Iterator::rev(0..k) {
            let mut __ad_d37_qdiags = __ad_dc0_qdiags;
            let mut __ad_d38_sum_qs = __ad_dc0_sum_qs;
            let mut __ad_dc1_qdiags = __ad_d37_qdiags;
            let mut __ad_dc1_sum_qs = __ad_d38_sum_qs;
            for __ad_v26_id in ::core::iter::Iterator::rev(0..d) {
                let __ad_v35 = match __ad_cache1.pop() {
                    ::core::option::Option::Some(__ad_v35) => __ad_v35,
                    ::core::option::Option::None => {
                        let __ad_v27 = __ad_v23_ik * __ad_v17_icf_sz;
                        let __ad_v28 = __ad_v27 + __ad_v26_id;
                        let __ad_v29_q = icf[__ad_v28];
                        let __ad_v35 = __ad_v29_q.exp();
                        __ad_v35
                    }
                };
                let __ad_v27 = __ad_v23_ik * __ad_v17_icf_sz;
                let __ad_v28 = __ad_v27 + __ad_v26_id;
                let __ad_v33 = __ad_v23_ik * d;
                let __ad_v34 = __ad_v33 + __ad_v26_id;
                let mut __ad_d36_qdiags = __ad_dc1_qdiags;
                let mut __ad_d32_sum_qs = __ad_dc1_sum_qs;
                let __ad_d35 = __ad_d36_qdiags[__ad_v34];
                __ad_d36_qdiags[__ad_v34] = 0.0;
                let mut __ad_d24_qdiags = __ad_d36_qdiags;
                let mut __ad_d29_q = __ad_rules::exp_grad(__ad_d35, __ad_v35);
                let __ad_d31 = __ad_d32_sum_qs[__ad_v23_ik];
                __ad_d32_sum_qs[__ad_v23_ik] = 0.0;
                let mut __ad_d25_sum_qs = __ad_d32_sum_qs;
                let __ad_d30 = __ad_rules::add_grad_lhs(__ad_d31);
                __ad_d29_q += __ad_rules::add_grad_rhs(__ad_d31);
                __ad_d25_sum_qs[__ad_v23_ik] += __ad_d30;
                __ad_d_icf[__ad_v28] += __ad_d29_q;
                __ad_dc1_qdiags = __ad_d24_qdiags;
                __ad_dc1_sum_qs = __ad_d25_sum_qs;
            }
            let mut __ad_d21_qdiags = __ad_dc1_qdiags;
            let mut __ad_d22_sum_qs = __ad_dc1_sum_qs;
            __ad_dc0_qdiags = __ad_d21_qdiags;
            __ad_dc0_sum_qs = __ad_d22_sum_qs;
        }
        ::autograd::__private::recycle(__ad_v39_qdiags);
        ::autograd::__private::recycle(__ad_v40_sum_qs);
        ::autograd::__private::recycle(__ad_v41_xcentered);
        ::autograd::__private::recycle(__ad_v42_qxcentered);
        ::autograd::__private::recycle(__ad_v43_main_term);
        ::autograd::__private::recycle(__ad_v144_xcentered);
        ::autograd::__private::recycle(__ad_v145_qxcentered);
        ::autograd::__private::recycle(__ad_v146_main_term);
        ::autograd::__private::recycle(__ad_dc0_qdiags);
        ::autograd::__private::recycle(__ad_dc0_sum_qs);
        ::autograd::__private::recycle(__ad_dc2_xcentered);
        ::autograd::__private::recycle(__ad_dc2_qxcentered);
        ::autograd::__private::recycle(__ad_dc2_main_term);
        ::autograd::__private::recycle(__ad_spare3_xcentered);
        ::autograd::__private::recycle(__ad_spare3_qxcentered);
        __ad_result
    }
    #[doc(hidden)]
    #[inline]
    fn __vjp_full<'alphas, 'means, 'icf, 'x>(
        d: usize,
        k: usize,
        n: usize,
        alphas: &'alphas [f64],
        means: &'means [f64],
        icf: &'icf [f64],
        x: &'x [f64],
        gamma: f64,
        m: usize,
        wishart_c: f64,
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
                ::autograd::__private::Vec<f64>,
                ::autograd::__private::NoGradient,
                ::autograd::__private::NoGradient,
                ::autograd::__private::NoGradient,
                ::autograd::__private::NoGradient,
            ) + use<'alphas, 'means, 'icf, 'x>,
    ) {
        ::autograd::__private::vjp_by_acc(
            (
                ::autograd::__private::NoGradient,
                ::autograd::__private::NoGradient,
                ::autograd::__private::NoGradient,
                ::autograd::__private::zeros_like_slice(alphas),
                ::autograd::__private::zeros_like_slice(means),
                ::autograd::__private::zeros_like_slice(icf),
                ::autograd::__private::NoGradient,
                ::autograd::__private::NoGradient,
                ::autograd::__private::NoGradient,
                ::autograd::__private::NoGradient,
            ),
            move |__ad_b, __ad_seed| gmm_objective::__grad_acc_full(
                d,
                k,
                n,
                alphas,
                means,
                icf,
                x,
                gamma,
                m,
                wishart_c,
                &mut __ad_b.3,
                &mut __ad_b.4,
                &mut __ad_b.5,
                __ad_seed,
            ),
        )
    }
}
/** The value of [`gmm_objective`] and its pullback: the pullback takes the adjoint of the result (the seed) and returns the adjoints of the differentiable arguments, in argument order.

 Generated by `#[differentiable]`; the value is bit for bit what `gmm_objective` returns.*/
#[inline]
#[allow(clippy::too_many_arguments)]
fn gmm_objective_vjp<'alphas, 'means, 'icf, 'x>(
    d: usize,
    k: usize,
    n: usize,
    alphas: &'alphas [f64],
    means: &'means [f64],
    icf: &'icf [f64],
    x: &'x [f64],
    gamma: f64,
    m: usize,
    wishart_c: f64,
) -> (
    f64,
    impl ::core::ops::FnOnce(
        f64,
    ) -> (
            ::autograd::__private::Vec<f64>,
            ::autograd::__private::Vec<f64>,
            ::autograd::__private::Vec<f64>,
        ) + use<'alphas, 'means, 'icf, 'x>,
) {
    let (__ad_value, __ad_pullback) = gmm_objective::__vjp_full(
        d,
        k,
        n,
        alphas,
        means,
        icf,
        x,
        gamma,
        m,
        wishart_c,
    );
    ((
        __ad_value,
        move |__ad_seed: f64| {
            let (_, _, _, __ad_d_alphas, __ad_d_means, __ad_d_icf, _, _, _, _) = __ad_pullback(
                __ad_seed,
            );
            (__ad_d_alphas, __ad_d_means, __ad_d_icf)
        },
    ))
}
/** The value of [`gmm_objective`] followed by its gradient: one adjoint per differentiable argument, in argument order.

 Generated by `#[differentiable]`: `gmm_objective_vjp` with seed 1.*/
#[inline]
#[allow(clippy::too_many_arguments)]
fn gmm_objective_grad<'alphas, 'means, 'icf, 'x>(
    d: usize,
    k: usize,
    n: usize,
    alphas: &'alphas [f64],
    means: &'means [f64],
    icf: &'icf [f64],
    x: &'x [f64],
    gamma: f64,
    m: usize,
    wishart_c: f64,
) -> (
    f64,
    ::autograd::__private::Vec<f64>,
    ::autograd::__private::Vec<f64>,
    ::autograd::__private::Vec<f64>,
) {
    let (__ad_value, __ad_pullback) = gmm_objective::__vjp_full(
        d,
        k,
        n,
        alphas,
        means,
        icf,
        x,
        gamma,
        m,
        wishart_c,
    );
    let (_, _, _, __ad_d_alphas, __ad_d_means, __ad_d_icf, _, _, _, _) = __ad_pullback(
        1.0,
    );
    ((__ad_value, __ad_d_alphas, __ad_d_means, __ad_d_icf))
}
/** The value of [`gmm_objective`], its gradient added into one buffer per differentiable argument (`d_x += ∂gmm_objective/∂x`), in argument order: nothing is allocated for the result, so a loop over data points or an optimizer reuses its buffers.

 Generated by `#[differentiable]`.

 # Panics

 If a slice buffer's length or a matrix buffer's shape is not its argument's.*/
#[inline]
#[allow(clippy::too_many_arguments)]
fn gmm_objective_grad_acc<'alphas, 'means, 'icf, 'x>(
    d: usize,
    k: usize,
    n: usize,
    alphas: &'alphas [f64],
    means: &'means [f64],
    icf: &'icf [f64],
    x: &'x [f64],
    gamma: f64,
    m: usize,
    wishart_c: f64,
    d_alphas: &mut [f64],
    d_means: &mut [f64],
    d_icf: &mut [f64],
) -> f64 {
    gmm_objective::__grad_acc_full(
        d,
        k,
        n,
        alphas,
        means,
        icf,
        x,
        gamma,
        m,
        wishart_c,
        d_alphas,
        d_means,
        d_icf,
        1.0,
    )
}
/** Compares [`gmm_objective_grad`] at this point with central finite differences of [`gmm_objective`], component by component.

 Generated by `#[differentiable]`; see `autograd::GradientCheck` for the step and tolerance policy.*/
#[inline]
#[allow(clippy::too_many_arguments)]
fn gmm_objective_check<'alphas, 'means, 'icf, 'x>(
    d: usize,
    k: usize,
    n: usize,
    alphas: &'alphas [f64],
    means: &'means [f64],
    icf: &'icf [f64],
    x: &'x [f64],
    gamma: f64,
    m: usize,
    wishart_c: f64,
) -> ::autograd::GradientCheck {
    let (__ad_value, __ad_d_alphas, __ad_d_means, __ad_d_icf) = gmm_objective_grad(
        d,
        k,
        n,
        alphas,
        means,
        icf,
        x,
        gamma,
        m,
        wishart_c,
    );
    let mut __ad_check = ::autograd::GradientCheck::new(
        ::autograd::__private::to_f64(__ad_value),
    );
    __ad_check
        .slice(
            "alphas",
            alphas,
            &__ad_d_alphas,
            |alphas| gmm_objective(d, k, n, alphas, means, icf, x, gamma, m, wishart_c),
        );
    __ad_check
        .slice(
            "means",
            means,
            &__ad_d_means,
            |means| gmm_objective(d, k, n, alphas, means, icf, x, gamma, m, wishart_c),
        );
    __ad_check
        .slice(
            "icf",
            icf,
            &__ad_d_icf,
            |icf| gmm_objective(d, k, n, alphas, means, icf, x, gamma, m, wishart_c),
        );
    __ad_check
}
