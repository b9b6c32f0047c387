#pragma once
// Order statistics of all pairwise differences x_i - y_j (the two-sample
// Hodges-Lehmann estimate and Mann-Whitney interval) or of all Walsh averages
// (d_i + d_j) / 2, i <= j (the paired ones), without storing them: both form
// a matrix whose rows and columns are sorted once the inputs are, so an
// element's rank is counted in O(m + n) by walking one staircase through it
// (Johnson & Mizoguchi 1978, Monahan 1984). 20,000 samples per side are 4e8
// differences: sorting them took 6.3 GB; this takes O(m + n) memory.
#include <cstddef>
#include <functional>
#include <optional>
#include <span>
#include <vector>

namespace cobench::stats {

/// The implicit sorted multiset of pairwise values; every element is computed
/// by the same expression a materialised list would use, so results are bit
/// for bit those of sorting that list.
class PairwiseOrder {
 public:
  /// Every x_i - y_j: m*n elements.
  static PairwiseOrder differences(std::span<const double> x, std::span<const double> y);
  /// Every (d_i + d_j) / 2 with i <= j: n(n+1)/2 elements.
  static PairwiseOrder walsh_averages(std::span<const double> d);

  size_t size() const;  ///< number of elements, duplicates counted
  double min() const;   ///< smallest element; size() > 0
  double max() const;   ///< largest element; size() > 0
  /// The k-th smallest element, k = 0 .. size()-1, like sorted[k].
  double kth(size_t k) const;
  /// Exactly as stats::median of the materialised elements.
  double median() const;
  size_t count_at_most(double v) const;          ///< elements <= v
  std::optional<double> next_above(double v) const;  ///< smallest element > v, if any
  /// The smallest element v with holds(v), for a predicate that is false below
  /// some element and true from it on: a random pivot among the remaining
  /// candidates, then drop the side that cannot hold the answer. Expected
  /// O(log size()) calls of `holds` and O((m + n) log size()) other work.
  std::optional<double> smallest_where(const std::function<bool(double)>& holds) const;

 private:
  PairwiseOrder(std::vector<double> rows, std::vector<double> cols, bool walsh);
  double value(size_t row, size_t col) const;
  size_t first_col(size_t row) const { return walsh_ ? row : 0; }
  /// Per row, the end of its prefix of elements <= v (inclusive) or < v, as a
  /// column index: one staircase walk, because row r+1 is row r shifted up.
  void prefix_ends(double v, bool inclusive, std::vector<size_t>& ends) const;

  std::vector<double> rows_;  // x ascending, or d ascending
  std::vector<double> cols_;  // y descending (rows then ascend), or d ascending
  bool walsh_;                // upper triangle (col >= row) of (r + c) / 2
};

/// Where a non-increasing step function f, which moves only at elements of
/// `order`, changes sign over [min, max]: what R's uniroot(f, c(min, max),
/// tol = 1e-4) approximates, found exactly. The ends come first, as R checks
/// them (f(min) <= 0 gives min, f(max) >= 0 gives max); otherwise the element
/// u at which f, probed halfway to the next larger element, turns negative.
double sign_change(const PairwiseOrder& order, const std::function<double(double)>& f);

}  // namespace cobench::stats
