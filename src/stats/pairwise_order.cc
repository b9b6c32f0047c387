#include "stats/pairwise_order.h"

#include <algorithm>
#include <functional>
#include <random>
#include <utility>

namespace cobench::stats {

PairwiseOrder::PairwiseOrder(std::vector<double> rows, std::vector<double> cols, bool walsh)
    : rows_(std::move(rows)), cols_(std::move(cols)), walsh_(walsh) {}

PairwiseOrder PairwiseOrder::differences(std::span<const double> x, std::span<const double> y) {
  std::vector<double> rows(x.begin(), x.end()), cols(y.begin(), y.end());
  std::sort(rows.begin(), rows.end());
  std::sort(cols.begin(), cols.end(), std::greater<>());
  return PairwiseOrder(std::move(rows), std::move(cols), false);
}

PairwiseOrder PairwiseOrder::walsh_averages(std::span<const double> d) {
  std::vector<double> sorted(d.begin(), d.end());
  std::sort(sorted.begin(), sorted.end());
  std::vector<double> cols = sorted;
  return PairwiseOrder(std::move(sorted), std::move(cols), true);
}

// Rounding is monotone, so these stay sorted along rows and columns after
// rounding too, ties included.
double PairwiseOrder::value(size_t row, size_t col) const {
  return walsh_ ? (rows_[row] + cols_[col]) / 2 : rows_[row] - cols_[col];
}

size_t PairwiseOrder::size() const {
  size_t n = rows_.size();
  return walsh_ ? n * (n + 1) / 2 : n * cols_.size();
}

double PairwiseOrder::min() const { return value(0, 0); }

double PairwiseOrder::max() const { return value(rows_.size() - 1, cols_.size() - 1); }

void PairwiseOrder::prefix_ends(double v, bool inclusive, std::vector<size_t>& ends) const {
  ends.resize(rows_.size());
  size_t end = cols_.size();
  for (size_t row = 0; row < rows_.size(); ++row) {
    // Columns are sorted as well: row `row`'s prefix is no longer than the previous one.
    while (end > 0 && (inclusive ? value(row, end - 1) > v : value(row, end - 1) >= v)) --end;
    ends[row] = std::max(end, first_col(row));
  }
}

size_t PairwiseOrder::count_at_most(double v) const {
  std::vector<size_t> ends;
  prefix_ends(v, true, ends);
  size_t count = 0;
  for (size_t row = 0; row < rows_.size(); ++row) count += ends[row] - first_col(row);
  return count;
}

std::optional<double> PairwiseOrder::next_above(double v) const {
  std::vector<size_t> ends;
  prefix_ends(v, true, ends);
  std::optional<double> next;
  for (size_t row = 0; row < rows_.size(); ++row)
    if (ends[row] < cols_.size() && (!next || value(row, ends[row]) < *next)) next = value(row, ends[row]);
  return next;
}

std::optional<double> PairwiseOrder::smallest_where(const std::function<bool(double)>& holds) const {
  // Candidates of row r are its columns [low[r], high[r]); the answer, if not
  // yet found, is always among them, and `found` is the smallest element
  // known to hold. Each round removes the pivot and, on average, at least a
  // quarter of the candidates, whatever the ties.
  std::vector<size_t> low(rows_.size()), high(rows_.size(), cols_.size()), ends;
  for (size_t row = 0; row < rows_.size(); ++row) low[row] = first_col(row);
  // The answer never depends on the pivots; a fixed seed keeps the run time repeatable.
  std::mt19937_64 rng(0x5eed);
  std::optional<double> found;
  for (;;) {
    size_t remaining = 0;
    for (size_t row = 0; row < rows_.size(); ++row) remaining += high[row] - low[row];
    if (remaining == 0) return found;
    size_t pick = std::uniform_int_distribution<size_t>(0, remaining - 1)(rng), row = 0;
    for (; pick >= high[row] - low[row]; ++row) pick -= high[row] - low[row];
    double pivot = value(row, low[row] + pick);
    bool pivot_holds = holds(pivot);
    if (pivot_holds) found = pivot;
    // Holds: the answer is at most the pivot, drop everything >= pivot.
    // Fails: the answer is above it, drop everything <= pivot.
    prefix_ends(pivot, !pivot_holds, ends);
    for (size_t r = 0; r < rows_.size(); ++r) {
      if (pivot_holds)
        high[r] = std::max(low[r], std::min(high[r], ends[r]));
      else
        low[r] = std::min(high[r], std::max(low[r], ends[r]));
    }
  }
}

double PairwiseOrder::kth(size_t k) const {
  return *smallest_where([&](double v) { return count_at_most(v) > k; });
}

double PairwiseOrder::median() const {
  size_t half = size() / 2;
  double upper = kth(half);
  if (size() % 2) return upper;
  return (kth(half - 1) + upper) / 2;
}

double sign_change(const PairwiseOrder& order, const std::function<double(double)>& f) {
  double lowest = order.min(), highest = order.max();
  if (lowest == highest || f(lowest) <= 0) return lowest;
  if (f(highest) >= 0) return highest;
  // Between two consecutive distinct elements f is constant, so its value
  // halfway decides on which side of the step the element lies.
  return *order.smallest_where([&](double u) {
    std::optional<double> next = order.next_above(u);
    return !next || f(u + (*next - u) / 2) < 0;
  });
}

}  // namespace cobench::stats
