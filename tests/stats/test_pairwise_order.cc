// PairwiseOrder against the brute force it replaces: materialise every
// pairwise value, sort, and compare bit for bit, on many random inputs with
// heavy ties, negative values and lopsided sizes.
#include "stats/pairwise_order.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "stats/stats.h"

using namespace cobench::stats;
using Values = std::vector<double>;

namespace {

/// Values drawn from few distinct levels when `levels` > 0 (heavy ties),
/// otherwise continuous.
Values draw(std::mt19937& rng, size_t n, int levels) {
  std::normal_distribution<double> normal(0, 1);
  std::uniform_int_distribution<int> level(-levels, levels);
  Values out(n);
  for (auto& v : out) v = levels > 0 ? 0.25 * level(rng) : normal(rng);
  return out;
}

Values all_differences(const Values& x, const Values& y) {
  Values out;
  for (double xi : x)
    for (double yj : y) out.push_back(xi - yj);
  std::sort(out.begin(), out.end());
  return out;
}

Values all_walsh_averages(const Values& d) {
  Values out;
  for (size_t i = 0; i < d.size(); ++i)
    for (size_t j = i; j < d.size(); ++j) out.push_back((d[i] + d[j]) / 2);
  std::sort(out.begin(), out.end());
  return out;
}

/// Every query of `order` against the sorted list `sorted` of its elements.
void expect_same_order(const PairwiseOrder& order, const Values& sorted, std::mt19937& rng) {
  ASSERT_EQ(order.size(), sorted.size());
  EXPECT_EQ(order.min(), sorted.front());
  EXPECT_EQ(order.max(), sorted.back());
  EXPECT_EQ(order.median(), median(sorted));
  // Every rank on small inputs, a sample of them on large ones.
  size_t step = std::max<size_t>(1, sorted.size() / 200);
  for (size_t k = rng() % step; k < sorted.size(); k += step) ASSERT_EQ(order.kth(k), sorted[k]) << k;
  // Probes at elements, between them and outside them.
  Values probes = {sorted.front() - 1, sorted.back() + 1};
  for (int i = 0; i < 40; ++i) {
    size_t k = rng() % sorted.size();
    probes.push_back(sorted[k]);
    if (k + 1 < sorted.size()) probes.push_back(sorted[k] + (sorted[k + 1] - sorted[k]) / 2);
  }
  for (double v : probes) {
    auto above = std::upper_bound(sorted.begin(), sorted.end(), v);
    ASSERT_EQ(order.count_at_most(v), static_cast<size_t>(above - sorted.begin())) << v;
    ASSERT_EQ(order.next_above(v).has_value(), above != sorted.end()) << v;
    if (above != sorted.end()) {
      ASSERT_EQ(*order.next_above(v), *above) << v;
    }
    // smallest_where with a threshold predicate: the first element >= v.
    auto first = std::lower_bound(sorted.begin(), sorted.end(), v);
    auto found = order.smallest_where([&](double u) { return u >= v; });
    ASSERT_EQ(found.has_value(), first != sorted.end()) << v;
    if (first != sorted.end()) {
      ASSERT_EQ(*found, *first) << v;
    }
  }
}

/// The search sign_change replaces: a bisection over the distinct sorted
/// values, as rank_sum_normal did it before (it assumes f is monotone).
double sign_change_by_bisection(const Values& sorted, const std::function<double(double)>& f) {
  Values distinct = sorted;
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  if (distinct.size() == 1 || f(distinct.front()) <= 0) return distinct.front();
  if (f(distinct.back()) >= 0) return distinct.back();
  size_t lo = 0, hi = distinct.size() - 1;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (f(distinct[mid] + (distinct[mid + 1] - distinct[mid]) / 2) < 0)
      hi = mid;
    else
      lo = mid + 1;
  }
  return distinct[lo];
}

}  // namespace

TEST(PairwiseOrder, DifferencesMatchSortingAllOfThem) {
  std::mt19937 rng(1);
  for (int round = 0; round < 300; ++round) {
    SCOPED_TRACE(round);
    int levels = round % 3 == 0 ? 0 : round % 3 == 1 ? 2 : 20;  // continuous, very heavy ties, some ties
    size_t m = 1 + rng() % (round % 10 == 0 ? 200 : 25), n = 1 + rng() % (round % 7 == 0 ? 150 : 25);
    Values x = draw(rng, m, levels), y = draw(rng, n, levels);
    expect_same_order(PairwiseOrder::differences(x, y), all_differences(x, y), rng);
  }
}

TEST(PairwiseOrder, WalshAveragesMatchSortingAllOfThem) {
  std::mt19937 rng(2);
  for (int round = 0; round < 300; ++round) {
    SCOPED_TRACE(round);
    int levels = round % 3 == 0 ? 0 : round % 3 == 1 ? 2 : 20;
    Values d = draw(rng, 1 + rng() % (round % 10 == 0 ? 300 : 30), levels);
    expect_same_order(PairwiseOrder::walsh_averages(d), all_walsh_averages(d), rng);
  }
}

TEST(PairwiseOrder, AllEqualAndSingleElements) {
  std::mt19937 rng(3);
  Values same(7, 1.5), one = {2.0};
  expect_same_order(PairwiseOrder::differences(same, same), all_differences(same, same), rng);
  expect_same_order(PairwiseOrder::differences(one, one), all_differences(one, one), rng);
  expect_same_order(PairwiseOrder::walsh_averages(same), all_walsh_averages(same), rng);
  expect_same_order(PairwiseOrder::walsh_averages(one), all_walsh_averages(one), rng);
  EXPECT_EQ(PairwiseOrder::walsh_averages(one).next_above(2.0), std::nullopt);
}

TEST(PairwiseOrder, ElementsAreComputedLikeTheMaterialisedList) {
  // 0.1 - 0.3 is not -0.2 in binary: the element must be the rounded
  // difference itself, not a value reconstructed another way.
  Values x = {0.1}, y = {0.3};
  EXPECT_EQ(PairwiseOrder::differences(x, y).kth(0), 0.1 - 0.3);
  Values d = {0.1, 0.7};
  EXPECT_EQ(PairwiseOrder::walsh_averages(d).kth(1), (0.1 + 0.7) / 2);
}

TEST(PairwiseOrder, PredicateHoldingNowhereFindsNothing) {
  Values x = {1, 2, 3}, y = {0.5};
  EXPECT_EQ(PairwiseOrder::differences(x, y).smallest_where([](double) { return false; }), std::nullopt);
  EXPECT_EQ(PairwiseOrder::differences(x, y).smallest_where([](double) { return true; }), 0.5);
}

TEST(SignChange, AgreesWithBisectionOverDistinctValues) {
  std::mt19937 rng(4);
  for (int round = 0; round < 300; ++round) {
    SCOPED_TRACE(round);
    int levels = round % 3 == 0 ? 0 : round % 3 == 1 ? 2 : 20;
    Values x = draw(rng, 1 + rng() % 20, levels), y = draw(rng, 1 + rng() % 20, levels);
    bool walsh = round % 2;
    PairwiseOrder order = walsh ? PairwiseOrder::walsh_averages(x) : PairwiseOrder::differences(x, y);
    Values sorted = walsh ? all_walsh_averages(x) : all_differences(x, y);
    // Decreasing step functions of d with steps at the elements, like z(d) - zq,
    // with the root anywhere from below the smallest to above the largest element.
    double target = std::uniform_real_distribution<double>(-0.2, 1.2)(rng) * static_cast<double>(sorted.size());
    auto f = [&](double d) {
      return target - static_cast<double>(std::upper_bound(sorted.begin(), sorted.end(), d) - sorted.begin());
    };
    ASSERT_EQ(sign_change(order, f), sign_change_by_bisection(sorted, f)) << target;
  }
}
