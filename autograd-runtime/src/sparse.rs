//! Sparse Jacobians and Hessians by colouring: a [`Coloring`] holds the
//! structural non-zeros of a derivative matrix and a partition of its
//! columns into colours such that one product with the summed seed of a
//! colour (a tangent for a Jacobian, a Hessian-vector product for a
//! Hessian) gives every non-zero of those columns. A matrix with `p`
//! colours costs `p` products instead of one per column.
//!
//! - Jacobians: greedy distance-2 colouring of the columns (no two columns
//!   of one colour share a row), each entry read directly from its
//!   colour's product.
//! - Hessians: greedy star colouring of the adjacency graph (Gebremedhin,
//!   Manne and Pothen, "What color is your Jacobian? Graph coloring for
//!   computing derivatives", SIAM Review 47(4), 2005, Algorithm 4.1): a
//!   distance-1 colouring in which every path on four vertices uses at
//!   least three colours, so that each entry `H[i][j]` is read directly
//!   from the product of `j`'s colour at row `i` or, by symmetry, of
//!   `i`'s colour at row `j`. It takes 3 colours on a tridiagonal
//!   Hessian where the distance-2 colouring takes 3 too, and 2 on an arrow
//!   where the distance-2 colouring takes `n`.
//!
//! Results are [`CscMatrix`] of nalgebra-sparse, in the version that
//! matches autograd's nalgebra (`autograd::nalgebra_sparse`).
//!
//! # Example
//!
//! ```
//! use autograd_runtime::sparse::Coloring;
//!
//! // The tridiagonal Hessian of 5 inputs: three colours.
//! let entries = (0..5).flat_map(|i| [(i, i), (i, (i + 1).min(4))]);
//! let coloring = Coloring::hessian(5, entries);
//! assert_eq!(coloring.colors(), 3);
//! // H = tridiag(−1, 2, −1), the product given as a closure.
//! let h = coloring.evaluate(|seed, out| {
//!     for i in 0..5 {
//!         let left = if i > 0 { seed[i - 1] } else { 0.0 };
//!         let right = if i < 4 { seed[i + 1] } else { 0.0 };
//!         out[i] = 2.0 * seed[i] - left - right;
//!     }
//! });
//! assert_eq!(h.nnz(), 13);
//! assert_eq!(h.get_entry(1, 2).map(|e| e.into_value()), Some(-1.0));
//! ```

use nalgebra_sparse::CscMatrix;
use nalgebra_sparse::pattern::SparsityPattern;

use crate::jacobian::{Flatten, Outputs};

mod tracer;
pub use tracer::{Session, Tracer};

/// No colour yet.
const NONE: usize = usize::MAX;

/// The structural non-zeros of a Jacobian or Hessian and a colouring of
/// its columns: computed once, used for every evaluation at points where
/// the function takes the same branches (see [`Coloring::is_global`]).
#[derive(Clone, Debug)]
pub struct Coloring {
    /// Rows × columns, column-compressed, rows sorted in each column.
    pattern: SparsityPattern,
    /// The colour of each column.
    color: Vec<usize>,
    colors: usize,
    symmetric: bool,
    global: bool,
    /// For each stored entry, in storage order: the colour whose product
    /// holds it and the row of that product to read.
    source: Vec<(usize, usize)>,
    /// `source` inverted, by the product's row: row `r`'s entries are
    /// `by_row[row_start[r]..row_start[r + 1]]`, each (colour, stored
    /// entry), so that a sweep's rows go straight into the matrix.
    row_start: Vec<usize>,
    by_row: Vec<(usize, usize)>,
}

impl Coloring {
    /// The colouring of a Jacobian of `rows × cols` whose structural
    /// non-zeros are `entries` (row, column); repeated entries count once.
    ///
    /// # Panics
    ///
    /// If an entry is out of range.
    pub fn jacobian(
        rows: usize,
        cols: usize,
        entries: impl IntoIterator<Item = (usize, usize)>,
    ) -> Self {
        let pattern = pattern(rows, cols, entries);
        let color = distance2_columns(&pattern, rows);
        let source = pattern_entries(&pattern)
            .map(|(i, j)| (color[j], i))
            .collect();
        Coloring::finish(pattern, color, false, source)
    }

    /// The colouring of a symmetric `n × n` Hessian whose structural
    /// non-zeros are `entries` (row, column): each entry stands for itself
    /// and its mirror image; repeated entries count once.
    ///
    /// # Panics
    ///
    /// If an entry is out of range.
    pub fn hessian(n: usize, entries: impl IntoIterator<Item = (usize, usize)>) -> Self {
        let pattern = pattern(
            n,
            n,
            entries.into_iter().flat_map(|(i, j)| [(i, j), (j, i)]),
        );
        let color = star(&pattern);
        let source = symmetric_sources(&pattern, &color);
        Coloring::finish(pattern, color, true, source)
    }

    /// Every entry of a `rows × cols` Jacobian, one colour per column:
    /// global (it holds at every point).
    pub fn dense_jacobian(rows: usize, cols: usize) -> Self {
        Coloring::jacobian(
            rows,
            cols,
            (0..cols).flat_map(|j| (0..rows).map(move |i| (i, j))),
        )
        .with_global(true)
    }

    /// Every entry of an `n × n` Hessian, one colour per column: global.
    pub fn dense_hessian(n: usize) -> Self {
        Coloring::hessian(n, (0..n).flat_map(|j| (0..n).map(move |i| (i, j)))).with_global(true)
    }

    fn finish(
        pattern: SparsityPattern,
        color: Vec<usize>,
        symmetric: bool,
        source: Vec<(usize, usize)>,
    ) -> Self {
        // An empty column takes colour 0 and needs no product of its own.
        let colors = (0..pattern.major_dim())
            .filter(|&j| !pattern.lane(j).is_empty())
            .map(|j| color[j] + 1)
            .max()
            .unwrap_or(0);
        let (row_start, by_row) = invert(&source, pattern.minor_dim());
        Coloring {
            pattern,
            color,
            colors,
            symmetric,
            global: false,
            source,
            row_start,
            by_row,
        }
    }

    /// The same colouring, said to hold for every branch of the function
    /// (`true`) or only at the point it was detected at (`false`, the
    /// default).
    #[must_use]
    pub fn with_global(mut self, global: bool) -> Self {
        self.global = global;
        self
    }

    /// The number of colours: the number of products (tangents or
    /// Hessian-vector products) one evaluation costs.
    pub fn colors(&self) -> usize {
        self.colors
    }

    /// The number of structural non-zeros (both triangles of a Hessian).
    pub fn nnz(&self) -> usize {
        self.pattern.nnz()
    }

    /// Whether the pattern holds at every point; a local pattern
    /// (`false`) holds at points where the function takes the branches it
    /// took where the pattern was detected. `NAME_hessian_pattern` gives a
    /// global one when the run decided nothing on a value that depends on
    /// an input (no comparison, `max`/`min` pick, `clamp` or integer
    /// conversion of one: the same path everywhere), or when it is dense;
    /// `NAME_jacobian_pattern`'s are local.
    pub fn is_global(&self) -> bool {
        self.global
    }

    /// Whether this is a Hessian's colouring (symmetric recovery).
    pub fn is_symmetric(&self) -> bool {
        self.symmetric
    }

    /// The number of rows of the matrix.
    pub fn nrows(&self) -> usize {
        self.pattern.minor_dim()
    }

    /// The number of columns of the matrix: the flattened inputs.
    pub fn ncols(&self) -> usize {
        self.pattern.major_dim()
    }

    /// The colour of column `j`.
    ///
    /// # Panics
    ///
    /// If `j` is not a column.
    pub fn color_of(&self, j: usize) -> usize {
        self.color[j]
    }

    /// The colour of each column, in column order.
    pub fn column_colors(&self) -> &[usize] {
        &self.color
    }

    /// The stored entries product row `r` holds: (colour, index into the
    /// matrix's values), for every colour.
    #[inline]
    pub(crate) fn row_entries(&self, r: usize) -> &[(usize, usize)] {
        &self.by_row[self.row_start[r]..self.row_start[r + 1]]
    }

    /// The structural non-zeros, column-compressed (columns major).
    pub fn pattern(&self) -> &SparsityPattern {
        &self.pattern
    }

    /// Writes the seed of colour `c` into `seed` (length [`ncols`]): 1 at
    /// the columns of that colour, 0 elsewhere.
    ///
    /// # Panics
    ///
    /// If `seed`'s length is not the number of columns.
    ///
    /// [`ncols`]: Coloring::ncols
    pub fn seed_into(&self, c: usize, seed: &mut [f64]) {
        assert_eq!(
            seed.len(),
            self.ncols(),
            "the seed's length is not the number of columns"
        );
        for (s, &k) in seed.iter_mut().zip(&self.color) {
            *s = if k == c { 1.0 } else { 0.0 };
        }
    }

    /// The seed of colour `c`, see [`Coloring::seed_into`].
    pub fn seed(&self, c: usize) -> Vec<f64> {
        let mut seed = vec![0.0; self.ncols()];
        self.seed_into(c, &mut seed);
        seed
    }

    /// A matrix of this pattern with every stored entry 0.
    pub fn zeros(&self) -> CscMatrix<f64> {
        let values = vec![0.0; self.pattern.nnz()];
        CscMatrix::try_from_pattern_and_values(self.pattern.clone(), values)
            .unwrap_or_else(|_| unreachable!("one value per stored entry"))
    }

    /// The matrix from its compressed products: `compressed` holds one
    /// product per colour, column-major (`nrows` entries each).
    ///
    /// # Panics
    ///
    /// If `compressed`'s length is not `nrows × colors`.
    pub fn recover(&self, compressed: &[f64]) -> CscMatrix<f64> {
        let mut m = self.zeros();
        self.recover_into(compressed, &mut m);
        m
    }

    /// [`Coloring::recover`] into a matrix of this pattern, without
    /// allocating.
    ///
    /// # Panics
    ///
    /// If `compressed`'s length is not `nrows × colors`, or `matrix` has
    /// another pattern.
    pub fn recover_into(&self, compressed: &[f64], matrix: &mut CscMatrix<f64>) {
        assert_eq!(
            compressed.len(),
            self.nrows() * self.colors,
            "one product of nrows entries per colour"
        );
        self.check_pattern(matrix);
        let rows = self.nrows();
        for (v, &(c, i)) in matrix.values_mut().iter_mut().zip(&self.source) {
            *v = compressed[c * rows + i];
        }
    }

    /// The matrix from one product per colour: `product(seed, out)` writes
    /// the product of the derivative with `seed` (length `ncols`) into
    /// `out` (length `nrows`).
    pub fn evaluate(&self, product: impl FnMut(&[f64], &mut [f64])) -> CscMatrix<f64> {
        let mut m = self.zeros();
        self.evaluate_into(&mut m, product);
        m
    }

    /// [`Coloring::evaluate`] into a matrix of this pattern: its stored
    /// values are overwritten, its pattern and storage reused.
    ///
    /// # Panics
    ///
    /// If `matrix` has another pattern.
    pub fn evaluate_into(
        &self,
        matrix: &mut CscMatrix<f64>,
        mut product: impl FnMut(&[f64], &mut [f64]),
    ) {
        self.check_pattern(matrix);
        let mut seed = vec![0.0; self.ncols()];
        let mut out = vec![0.0; self.nrows()];
        let values = matrix.values_mut();
        for c in 0..self.colors {
            self.seed_into(c, &mut seed);
            out.iter_mut().for_each(|o| *o = 0.0);
            product(&seed, &mut out);
            for (v, &(k, i)) in values.iter_mut().zip(&self.source) {
                if k == c {
                    *v = out[i];
                }
            }
        }
    }

    fn check_pattern(&self, matrix: &CscMatrix<f64>) {
        let same = matrix.pattern() == &self.pattern;
        assert!(same, "the matrix's pattern is not the colouring's");
    }
}

/// The Jacobian's pattern at this point from forward sweeps:
/// `sweep(seed)` runs one with the flat input direction `seed` and gives
/// the value and its tangent. One sweep per input, with NaN along that
/// input and 0 elsewhere: every output whose tangent comes out NaN
/// depends on it. NaN survives a product with a partial that happens to
/// be 0 (`0·NaN` is NaN), so a numerical zero is kept as structural; a
/// rule that gives 0 by a convention at a special value (`d(a^b)/db` at
/// `a^b = 0`, the side of `max` not taken) is a branch of the point, as in
/// the tracer's local pattern. Costs what a dense forward Jacobian does,
/// once.
pub fn jacobian_pattern<R: Outputs + Flatten>(
    inputs: usize,
    mut sweep: impl FnMut(&[f64]) -> (R, R),
) -> Coloring {
    let mut seed = vec![0.0; inputs];
    let mut entries = Vec::new();
    let mut rows = None;
    let mut tangent = Vec::new();
    for k in 0..inputs {
        seed[k] = f64::NAN;
        let (value, t) = sweep(&seed);
        seed[k] = 0.0;
        rows = Some(value.count());
        tangent.clear();
        t.flatten_into(&mut tangent);
        entries.extend(
            tangent
                .iter()
                .enumerate()
                .filter(|(_, t)| t.is_nan())
                .map(|(i, _)| (i, k)),
        );
    }
    let rows = rows.unwrap_or_else(|| sweep(&seed).0.count());
    Coloring::jacobian(rows, inputs, entries)
}

/// The value and the Jacobian of the pattern `coloring` holds from one
/// forward sweep per colour (see [`jacobian_pattern`] for `sweep`).
///
/// # Panics
///
/// If `coloring` is not of `inputs` columns and of the value's outputs.
pub fn jacobian_sparse<R: Outputs + Flatten>(
    coloring: &Coloring,
    inputs: usize,
    mut sweep: impl FnMut(&[f64]) -> (R, R),
) -> (R, CscMatrix<f64>) {
    check_columns(coloring, inputs);
    let mut seed = vec![0.0; inputs];
    let mut compressed = Vec::with_capacity(coloring.nrows() * coloring.colors());
    let mut value = None;
    for c in 0..coloring.colors().max(1) {
        if c < coloring.colors() {
            coloring.seed_into(c, &mut seed);
        }
        let (v, t) = sweep(&seed);
        if c < coloring.colors() {
            t.flatten_into(&mut compressed);
        }
        value.get_or_insert(v);
    }
    let value = value.unwrap_or_else(|| unreachable!("one sweep at least"));
    check_rows(coloring, &value);
    let m = coloring.recover(&compressed);
    (value, m)
}

/// `source` grouped by product row (a counting sort): the start of each
/// row's run and the runs of (colour, stored entry).
fn invert(source: &[(usize, usize)], rows: usize) -> (Vec<usize>, Vec<(usize, usize)>) {
    let mut start = vec![0; rows + 1];
    for &(_, r) in source {
        start[r + 1] += 1;
    }
    for r in 0..rows {
        start[r + 1] += start[r];
    }
    let mut next = start.clone();
    let mut by_row = vec![(0, 0); source.len()];
    for (k, &(c, r)) in source.iter().enumerate() {
        by_row[next[r]] = (c, k);
        next[r] += 1;
    }
    (start, by_row)
}

/// [`jacobian_sparse`] into `matrix`, a matrix of the colouring's pattern
/// (from [`Coloring::zeros`] or an earlier evaluation): its values are
/// overwritten.
///
/// # Panics
///
/// If `coloring` is not of `inputs` columns and of the value's outputs,
/// or `matrix` has another pattern.
pub fn jacobian_sparse_into<R: Outputs + Flatten>(
    coloring: &Coloring,
    inputs: usize,
    matrix: &mut CscMatrix<f64>,
    mut sweep: impl FnMut(&[f64]) -> (R, R),
) -> R {
    check_columns(coloring, inputs);
    coloring.check_pattern(matrix);
    let mut seed = vec![0.0; inputs];
    let mut out = Vec::with_capacity(coloring.nrows());
    let mut value = None;
    for c in 0..coloring.colors().max(1) {
        if c < coloring.colors() {
            coloring.seed_into(c, &mut seed);
        }
        let (v, t) = sweep(&seed);
        if c < coloring.colors() {
            out.clear();
            t.flatten_into(&mut out);
            let values = matrix.values_mut();
            for (v, &(k, i)) in values.iter_mut().zip(&coloring.source) {
                if k == c {
                    *v = out.get(i).copied().unwrap_or(f64::NAN);
                }
            }
        }
        value.get_or_insert(v);
    }
    let value = value.unwrap_or_else(|| unreachable!("one sweep at least"));
    check_rows(coloring, &value);
    value
}

/// Checks that `coloring` is of `inputs` columns.
#[track_caller]
pub(crate) fn check_columns(coloring: &Coloring, inputs: usize) {
    assert_eq!(
        coloring.ncols(),
        inputs,
        "the colouring is of {} inputs, the function's arguments have {}",
        coloring.ncols(),
        inputs
    );
}

/// Checks that `coloring` is of `value`'s outputs.
#[track_caller]
pub(crate) fn check_rows<R: Outputs>(coloring: &Coloring, value: &R) {
    assert_eq!(
        coloring.nrows(),
        value.count(),
        "the colouring is of {} outputs, the function has {}",
        coloring.nrows(),
        value.count()
    );
}

/// The column-compressed pattern of `entries`, rows sorted and unique.
fn pattern(
    rows: usize,
    cols: usize,
    entries: impl IntoIterator<Item = (usize, usize)>,
) -> SparsityPattern {
    let mut by_column: Vec<Vec<usize>> = vec![Vec::new(); cols];
    for (i, j) in entries {
        assert!(
            i < rows && j < cols,
            "entry ({i}, {j}) outside a {rows} × {cols} matrix"
        );
        by_column[j].push(i);
    }
    let mut offsets = Vec::with_capacity(cols + 1);
    let mut indices = Vec::new();
    offsets.push(0);
    for mut column in by_column {
        column.sort_unstable();
        column.dedup();
        indices.extend(column);
        offsets.push(indices.len());
    }
    SparsityPattern::try_from_offsets_and_indices(cols, rows, offsets, indices)
        .unwrap_or_else(|_| unreachable!("sorted, unique, in range"))
}

/// The stored entries (row, column), in storage order.
fn pattern_entries(p: &SparsityPattern) -> impl Iterator<Item = (usize, usize)> + '_ {
    (0..p.major_dim()).flat_map(move |j| p.lane(j).iter().map(move |&i| (i, j)))
}

/// Greedy distance-2 colouring of the columns in natural order: a column
/// takes the smallest colour no column sharing a row with it has.
fn distance2_columns(p: &SparsityPattern, rows: usize) -> Vec<usize> {
    // The columns of each row.
    let mut by_row: Vec<Vec<usize>> = vec![Vec::new(); rows];
    for (i, j) in pattern_entries(p) {
        by_row[i].push(j);
    }
    let cols = p.major_dim();
    let mut color = vec![NONE; cols];
    // forbidden[c] == j: colour c is taken by a neighbour of column j.
    let mut forbidden = vec![NONE; cols + 1];
    for j in 0..cols {
        for &i in p.lane(j) {
            for &k in &by_row[i] {
                if color[k] != NONE {
                    forbidden[color[k]] = j;
                }
            }
        }
        color[j] = (0..).find(|&c| forbidden[c] != j).unwrap_or(0);
    }
    color
}

/// Greedy star colouring (Gebremedhin–Manne–Pothen 2005, Algorithm 4.1)
/// of the adjacency graph of a symmetric pattern, in natural order.
fn star(p: &SparsityPattern) -> Vec<usize> {
    let n = p.major_dim();
    let neighbours = |v: usize| p.lane(v).iter().copied().filter(move |&w| w != v);
    let mut color = vec![NONE; n];
    let mut forbidden = vec![NONE; n + 1];
    for v in 0..n {
        for w in neighbours(v) {
            if color[w] != NONE {
                forbidden[color[w]] = v;
            }
        }
        for w in neighbours(v) {
            for x in neighbours(w).filter(|&x| x != v && color[x] != NONE) {
                if color[w] == NONE {
                    // v–w–x with w still open: v must differ from x.
                    forbidden[color[x]] = v;
                } else if neighbours(x).any(|y| y != w && color[y] == color[w]) {
                    // v–w–x–y with y coloured like w: v coloured like x
                    // would make a path on four vertices of two colours.
                    forbidden[color[x]] = v;
                }
            }
        }
        color[v] = (0..).find(|&c| forbidden[c] != v).unwrap_or(0);
    }
    color
}

/// For each stored entry (i, j) of a symmetric pattern: read it at row i
/// of j's colour if no other column of that colour has row i, else at row
/// j of i's colour (a star colouring makes one of the two hold).
fn symmetric_sources(p: &SparsityPattern, color: &[usize]) -> Vec<(usize, usize)> {
    // alone(i, c): row i is non-zero in exactly one column of colour c.
    let alone = |i: usize, c: usize| p.lane(i).iter().filter(|&&k| color[k] == c).count() == 1;
    pattern_entries(p)
        .map(|(i, j)| {
            if alone(i, color[j]) {
                (color[j], i)
            } else {
                assert!(
                    alone(j, color[i]),
                    "the star colouring leaves entry ({i}, {j}) unrecoverable"
                );
                (color[i], j)
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tridiagonal(n: usize) -> Vec<(usize, usize)> {
        (0..n)
            .flat_map(|i| [(i, i), (i, (i + 1).min(n - 1))])
            .collect()
    }

    /// A small deterministic generator (no dependency for random numbers).
    struct Lcg(u64);
    impl Lcg {
        fn next(&mut self) -> u64 {
            self.0 = self
                .0
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            self.0 >> 33
        }
        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }
        fn value(&mut self) -> f64 {
            (self.next() % 2000) as f64 / 100.0 - 10.0
        }
    }

    fn dense_of(m: &CscMatrix<f64>) -> Vec<Vec<f64>> {
        let mut d = vec![vec![0.0; m.ncols()]; m.nrows()];
        for (i, j, &v) in m.triplet_iter() {
            d[i][j] = v;
        }
        d
    }

    #[test]
    fn known_minimum_colours() {
        for n in [1, 2, 3, 10, 101] {
            let diag: Vec<_> = (0..n).map(|i| (i, i)).collect();
            assert_eq!(Coloring::hessian(n, diag.clone()).colors(), 1);
            assert_eq!(Coloring::jacobian(n, n, diag).colors(), 1);
        }
        // A path of three vertices has no path of four: 2 colours.
        assert_eq!(Coloring::hessian(3, tridiagonal(3)).colors(), 2);
        for n in [4, 10, 1000] {
            assert_eq!(Coloring::hessian(n, tridiagonal(n)).colors(), 3, "n = {n}");
            let both = tridiagonal(n)
                .into_iter()
                .flat_map(|(i, j)| [(i, j), (j, i)]);
            assert_eq!(Coloring::jacobian(n, n, both).colors(), 3);
        }
        // Arrow: the first row and column full, and the diagonal. The
        // star colouring takes 2 (the hub, the rest); a Jacobian whose
        // first column is full takes 2, one whose first row is full n.
        let n = 50;
        let arrow: Vec<_> = (0..n).flat_map(|i| [(i, i), (0, i)]).collect();
        assert_eq!(Coloring::hessian(n, arrow.clone()).colors(), 2);
        assert_eq!(
            Coloring::jacobian(n, n, arrow.iter().map(|&(i, j)| (j, i))).colors(),
            2
        );
        assert_eq!(Coloring::jacobian(n, n, arrow).colors(), n);
        // Banded with half-bandwidth 2: 5 colours.
        let band: Vec<_> = (0..n)
            .flat_map(|i| (i.saturating_sub(2)..(i + 3).min(n)).map(move |j| (i, j)))
            .collect();
        assert_eq!(Coloring::jacobian(n, n, band).colors(), 5);
        assert_eq!(Coloring::dense_hessian(7).colors(), 7);
        assert_eq!(Coloring::dense_jacobian(3, 7).colors(), 7);
    }

    #[test]
    fn counts_and_flags() {
        let c = Coloring::hessian(4, tridiagonal(4));
        assert_eq!(c.nnz(), 10);
        assert!(!c.is_global());
        assert!(c.with_global(true).is_global());
        assert!(Coloring::dense_hessian(3).is_global());
        assert!(Coloring::dense_jacobian(2, 3).is_global());
        let empty = Coloring::jacobian(3, 2, []);
        assert_eq!((empty.colors(), empty.nnz()), (0, 0));
        assert_eq!(empty.evaluate(|_, _| unreachable!()).nnz(), 0);
    }

    /// Every colouring on random structures: no two columns of a colour
    /// share a row (Jacobian), and the recovered matrix equals the dense
    /// product's entries exactly (both use the same sums of exact
    /// products of integers-over-100, so equality is exact).
    #[test]
    fn recovery_equals_dense_on_random_structures() {
        let mut rng = Lcg(7);
        for case in 0..300 {
            let rows = 1 + rng.below(30);
            let cols = 1 + rng.below(30);
            let count = rng.below(rows * cols / 3 + 2);
            let mut dense = vec![vec![0.0; cols]; rows];
            for _ in 0..count {
                dense[rng.below(rows)][rng.below(cols)] = rng.value();
            }
            let entries: Vec<_> = (0..rows)
                .flat_map(|i| (0..cols).map(move |j| (i, j)))
                .filter(|&(i, j)| dense[i][j] != 0.0)
                .collect();
            let c = Coloring::jacobian(rows, cols, entries.clone());
            for j in 0..cols {
                for k in 0..j {
                    if c.color_of(j) == c.color_of(k) {
                        assert!((0..rows).all(|i| dense[i][j] == 0.0 || dense[i][k] == 0.0));
                    }
                }
            }
            let m = c.evaluate(|seed, out| {
                for i in 0..rows {
                    out[i] = (0..cols).map(|j| dense[i][j] * seed[j]).sum();
                }
            });
            assert_eq!(dense_of(&m), dense, "Jacobian case {case}");
            assert_eq!(m.nnz(), entries.len());

            // A symmetric matrix on the same draw.
            let n = rows;
            let mut sym = vec![vec![0.0; n]; n];
            for _ in 0..count {
                let (i, j, v) = (rng.below(n), rng.below(n), rng.value());
                sym[i][j] = v;
                sym[j][i] = v;
            }
            let entries: Vec<_> = (0..n)
                .flat_map(|i| (0..n).map(move |j| (i, j)))
                .filter(|&(i, j)| sym[i][j] != 0.0 && i <= j)
                .collect();
            let c = Coloring::hessian(n, entries);
            for (v, row) in sym.iter().enumerate() {
                for (w, &e) in row.iter().enumerate() {
                    if v != w && e != 0.0 {
                        assert_ne!(c.color_of(v), c.color_of(w), "distance-1, case {case}");
                    }
                }
            }
            let product = |seed: &[f64], out: &mut [f64]| {
                for i in 0..n {
                    out[i] = (0..n).map(|j| sym[i][j] * seed[j]).sum();
                }
            };
            let m = c.evaluate(product);
            assert_eq!(dense_of(&m), sym, "Hessian case {case}");
            // The same through the compressed products and into a reused
            // matrix.
            let mut compressed = vec![0.0; n * c.colors()];
            for k in 0..c.colors() {
                product(&c.seed(k), &mut compressed[k * n..(k + 1) * n]);
            }
            let mut reused = c.zeros();
            c.recover_into(&compressed, &mut reused);
            assert_eq!(reused, m);
            let mut again = m.clone();
            c.evaluate_into(&mut again, product);
            assert_eq!(again, m);
        }
    }

    #[test]
    #[should_panic(expected = "the matrix's pattern is not the colouring's")]
    fn another_pattern_is_refused() {
        let c = Coloring::hessian(3, tridiagonal(3));
        let mut m = Coloring::dense_hessian(3).zeros();
        c.evaluate_into(&mut m, |_, _| {});
    }
}
