# Entry points for a fresh Debian 12 machine: `make demo`, `make test`, `make package`.
BUILD_DIR ?= build
FUZZ_BUILD_DIR ?= build-fuzz
PACKAGE_BUILD_DIR ?= build-package
FUZZ_SECONDS ?= 60
JOBS ?= $(shell nproc)
CTEST_ARGS ?=

# Debian packages cobench needs to build and run (also what CI templates
# install); `make demo` installs only these. Then what its tests add:
# golang-go and chromium serve the labelled Go-runner and browser tests,
# ccache the shared compile cache's, mmdebstrap the package's install into a
# fresh Debian 12 chroot (and the container test's Debian base), podman and
# runc the container test's image build from ci/Dockerfile, rsync
# gitlab-ci-local's CI-client tests, libbenchmark-tools (Google Benchmark's
# compare.py) and python3-scipy (its U-test) the by-hand comparison's
# (bench/by_hand_comparison.py). r-base-core is only for
# scripts/gen_wilcox_reference.sh and is not installed here.
BUILD_PACKAGES := build-essential cmake ninja-build git pkg-config ca-certificates \
  nlohmann-json3-dev libcli11-dev libfmt-dev libtomlplusplus-dev libcpp-httplib-dev \
  libbenchmark-dev libpugixml-dev valgrind
TEST_PACKAGES := libgtest-dev libgmock-dev zlib1g-dev catch2 \
  golang-go chromium python3 python3-yaml ccache mmdebstrap podman runc rsync \
  libbenchmark-tools python3-scipy
# `make package`: CPack's DEB generator reads the shared libraries' dependencies
# with dpkg-shlibdeps (dpkg-dev, in build-essential), which needs `file`; the
# man page is made from `cobench --help` by help2man.
PACKAGE_PACKAGES := file help2man
# The fuzz targets (fuzz/): clang 14 and its compiler-rt, which holds libFuzzer
# and the sanitizer runtimes.
FUZZ_PACKAGES := clang libclang-rt-14-dev
DEB_PACKAGES := $(BUILD_PACKAGES) $(TEST_PACKAGES) $(PACKAGE_PACKAGES) $(FUZZ_PACKAGES)

SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: deps deps-build install-packages ci-clients build build-cobench fuzz-build fuzz test test-fast demo package clean

deps:
	@$(MAKE) --no-print-directory install-packages PACKAGES="$(DEB_PACKAGES)"

# Only what building and running cobench needs (CI templates use this).
deps-build:
	@$(MAKE) --no-print-directory install-packages PACKAGES="$(BUILD_PACKAGES)"

install-packages:
	@missing=""; for p in $(PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing; \
	else echo "deps: all Debian packages present"; fi

# The CI clients the `ci_client` tests run (tests/ci/test_ci_clients.cc):
# gitlab-ci-local and action-validator at pinned versions from the npm
# registry, into ~/.cache/cobench/ci-clients (scripts/install_ci_clients.sh;
# nothing is fetched when they are there). npm from Debian only when there is
# none: a Node.js from elsewhere brings its own.
ci-clients: deps
	@command -v npm >/dev/null 2>&1 || $(MAKE) --no-print-directory install-packages PACKAGES="npm"
	sh scripts/install_ci_clients.sh

# Everything: cobench, its tests and perf benchmarks.
build: deps
	cmake -S . -B $(BUILD_DIR) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBUILD_TESTING=ON \
	  -DCOBENCH_BUILD_BENCH=ON -DCOBENCH_FUZZ_BUILD_DIR=$(abspath $(FUZZ_BUILD_DIR))
	cmake --build $(BUILD_DIR) -j $(JOBS)

# Only the cobench binary and the allocation preload library it runs with:
# what `make demo` needs, from the build packages alone (no GoogleTest), in the
# QuickBuild configuration (-O1 -g1, see CMakeLists.txt).
build-cobench: deps-build
	cmake -S . -B $(BUILD_DIR) -G Ninja -DCMAKE_BUILD_TYPE=QuickBuild -DBUILD_TESTING=OFF \
	  -DCOBENCH_BUILD_BENCH=OFF
	cmake --build $(BUILD_DIR) -j $(JOBS) --target cobench cobench_alloc_preload

# The fuzz targets in their own clang build (only the parsers' stages).
fuzz-build: deps
	cmake -S . -B $(FUZZ_BUILD_DIR) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DCMAKE_CXX_COMPILER=clang++ -DCOBENCH_FUZZ=ON
	cmake --build $(FUZZ_BUILD_DIR) -j $(JOBS)

# Each fuzz target for FUZZ_SECONDS, one after another, from the committed seeds
# plus what earlier runs found ($(FUZZ_BUILD_DIR)/fuzz-work/NAME/corpus). A
# crash stops it and leaves the input beside that corpus.
fuzz: fuzz-build
	@for fuzzer in $(abspath $(FUZZ_BUILD_DIR))/fuzz/fuzz_*; do \
	  name=$${fuzzer##*/fuzz_}; echo "== $$name: $(FUZZ_SECONDS) s"; \
	  cmake -DFUZZER=$$fuzzer -DSEEDS=$(CURDIR)/fuzz/corpus/$$name \
	    -DWORK=$(abspath $(FUZZ_BUILD_DIR))/fuzz-work/$$name -DSECONDS=$(FUZZ_SECONDS) \
	    -P fuzz/run_fuzzer.cmake || exit 1; \
	done

# The whole suite, with a short smoke run of every fuzz target (label fuzz),
# the CI clients' runs of the templates and the container image's build.
test: build fuzz-build ci-clients
	cd $(BUILD_DIR) && ctest --output-on-failure -j $(JOBS) --timeout 900 $(CTEST_ARGS)

# Unit tests only: skips the labelled end-to-end, package and container tests.
test-fast: build
	cd $(BUILD_DIR) && ctest --output-on-failure -j $(JOBS) -LE 'e2e|package|container' $(CTEST_ARGS)

demo: build-cobench
	$(BUILD_DIR)/cobench demo

# The Debian package (CPack): $(PACKAGE_BUILD_DIR)/cobench_<version>_<arch>.deb,
# built in a folder of its own without tests, in Release.
package:
	@$(MAKE) --no-print-directory install-packages PACKAGES="$(BUILD_PACKAGES) $(PACKAGE_PACKAGES)"
	cmake -S . -B $(PACKAGE_BUILD_DIR) -G Ninja -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF \
	  -DCOBENCH_BUILD_BENCH=OFF
	cmake --build $(PACKAGE_BUILD_DIR) -j $(JOBS) --target package

clean:
	rm -rf $(BUILD_DIR) $(FUZZ_BUILD_DIR) $(PACKAGE_BUILD_DIR)
