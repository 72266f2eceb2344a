#!/usr/bin/env python3
"""ADBench's GMM objective and its gradient in JAX (CPU, float64, jit),
written as a JAX user writes it: every point against every component in
one einsum. The comparison point of the nalgebra form in benches/adbench/gmm.rs
(`gmm::matrix`), issue 37.

JAX is a benchmark tool here, not a dependency of the crate or of CI:

    pip install jax                      # CPU wheels
    cargo run --release --example adbench_report -- --write-gmm /tmp/gmm
    python3 benches/adbench/gmm_jax.py /tmp/gmm            # every file there
    python3 benches/adbench/gmm_jax.py /tmp/gmm/gmm_d10_K25.txt

The files are in ADBench's format (`read_gmm_instance`); the report prints
each file's objective as the Rust primal computes it, and this script
prints JAX's, so the two can be compared before the times are.
A time is the median of repeated calls (at least 3 and at least half a
second of them) after a compiling warm-up call, with
`block_until_ready`.
"""

import os
import sys
import time

import jax

jax.config.update("jax_enable_x64", True)
jax.config.update("jax_platform_name", "cpu")

import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from jax.scipy.special import logsumexp, multigammaln  # noqa: E402


def read_gmm(path):
    """An ADBench GMM file: d k n, alphas, means, icf, x, gamma m."""
    with open(path) as f:
        tok = f.read().split()
    d, k, n = int(tok[0]), int(tok[1]), int(tok[2])
    pos = 3
    icf_sz = d * (d + 1) // 2

    def take(count):
        nonlocal pos
        out = np.array([float(t) for t in tok[pos:pos + count]])
        pos += count
        return out

    alphas = take(k)
    means = take(d * k).reshape(k, d)
    icf = take(icf_sz * k).reshape(k, icf_sz)
    x = take(d * n).reshape(n, d)
    gamma = float(tok[pos])
    m = int(tok[pos + 1])
    return alphas, means, icf, x, gamma, m


def lower_indices(d):
    """ADBench's order of the strictly lower entries: column by column."""
    rows, cols = [], []
    for i in range(d):
        for j in range(i + 1, d):
            rows.append(j)
            cols.append(i)
    return np.array(rows, dtype=np.int32), np.array(cols, dtype=np.int32)


def make_objective(d, gamma, m):
    rows, cols = lower_indices(d)
    diag = np.arange(d)

    def objective(alphas, means, icf, x):
        n = x.shape[0]
        k = alphas.shape[0]
        qs = icf[:, :d]
        sum_qs = jnp.sum(qs, axis=1)
        ls = jnp.zeros((k, d, d))
        ls = ls.at[:, diag, diag].set(jnp.exp(qs))
        ls = ls.at[:, rows, cols].set(icf[:, d:])
        xc = x[:, None, :] - means[None, :, :]  # n×k×d
        lxc = jnp.einsum("kij,nkj->nki", ls, xc)  # n×k×d
        sqsum = jnp.sum(lxc * lxc, axis=2)  # n×k
        inner = alphas[None, :] + sum_qs[None, :] - 0.5 * sqsum
        slse = jnp.sum(logsumexp(inner, axis=1))
        const = -n * d * 0.5 * jnp.log(2 * jnp.pi)
        nw = d + m + 1
        c = nw * d * (jnp.log(gamma) - 0.5 * jnp.log(2.0)) - multigammaln(0.5 * nw, d)
        frob = jnp.sum(jnp.exp(qs) ** 2) + jnp.sum(icf[:, d:] ** 2)
        prior = 0.5 * gamma * gamma * frob - m * jnp.sum(sum_qs) - k * c
        return const + slse - n * logsumexp(alphas) + prior

    return objective


def median_time(f):
    f()
    times = []
    start = time.perf_counter()
    while len(times) < 3 or (time.perf_counter() - start < 0.5 and len(times) < 10000):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    times.sort()
    return times[len(times) // 2]


def run(path):
    alphas, means, icf, x, gamma, m = read_gmm(path)
    d, k = means.shape[1], means.shape[0]
    objective = make_objective(d, gamma, m)
    args = [jnp.asarray(a) for a in (alphas, means, icf, x)]
    f = jax.jit(objective)
    g = jax.jit(jax.value_and_grad(objective, argnums=(0, 1, 2)))
    value = float(f(*args))
    t_obj = median_time(lambda: f(*args).block_until_ready())
    t_grad = median_time(lambda: jax.block_until_ready(g(*args)))
    print(
        f"| {d} | {k} | {value:.17e} | {t_obj * 1e3:.3f} ms | {t_grad * 1e3:.3f} ms "
        f"| {t_grad / t_obj:.1f} |"
    )


def main(argv):
    if len(argv) != 2:
        print(__doc__)
        return 2
    target = argv[1]
    if os.path.isdir(target):
        def size(name):
            d, k = name[len("gmm_d"):-len(".txt")].split("_K")
            return int(d), int(k)
        names = sorted((f for f in os.listdir(target) if f.startswith("gmm_d")), key=size)
        paths = [os.path.join(target, f) for f in names]
    else:
        paths = [target]
    print(f"JAX {jax.__version__}, {jax.devices()[0].platform}, float64, jit")
    print("| d | K | objective | JAX objective | JAX gradient | gradient ÷ objective |")
    print("|---:|---:|---:|---:|---:|---:|")
    for p in paths:
        run(p)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
