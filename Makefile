# The two entry points of the README: `make run` (the main job) and `make test`.
BUILD ?= build
SANITIZE_BUILD ?= build-asan
FUZZ_BUILD ?= build-fuzz
FAULTS_BUILD ?= build-faults
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
# Ninja (scripts/install-deps installs it) for a new build directory; one configured before keeps its generator
# (CMake refuses to switch it).
generator = $(if $(wildcard $(1)/CMakeCache.txt),,-G Ninja)
# Seconds each libFuzzer target runs for in `make fuzz`.
FUZZ_SECONDS ?= 60
# The tests run again under the sanitizers: the unit tests (the sanitizer build's test binary holds only those,
# tests/CMakeLists.txt), the command line, bad input and the corpus. The claims' statistical tests and the long CLI runs
# stay in the optimised build; of the shard tests, the negative controls from 3 shards and the refusals run here, the
# whole catalogue from 7 shards only there. The byte-for-byte comparisons of a report across jobs, GEMM kernels and libm
# variants (same_report_any_*: 56 s of the sanitizer half's 457 s of test CPU) run a claim again and again in code the
# other tests here already instrument; they stay in the optimised build, threads under the sanitizers in
# faults_small_matrix and stability_same_output_any_jobs.
SANITIZE_SKIP ?= ^(claim|source|slurm|calibration)\.|experiment|browser|stability_lists|report_whole|same_seed|same_report_any|explore_interval_many|shard_reference_claims|shard_merge_claims

.PHONY: run test build deps configure bench clean sanitize-test fuzz faults catalogue

run: build
	@./$(BUILD)/thmcheck run; status=$$?; \
	if [ $$status -eq 1 ]; then echo "make run: some verdicts differ from the expected ones (marked above); details in reports/latest/summary.json"; fi; \
	exit $$status

# The optimised suite, then the fast, command-line, bad-input and corpus tests again under the sanitizers.
test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)
	@$(MAKE) --no-print-directory sanitize-test

build: configure
	cmake --build $(BUILD) -j $(JOBS)

configure: deps
	@cmake -S . -B $(BUILD) $(call generator,$(BUILD)) -DCMAKE_BUILD_TYPE=Release > $(BUILD).configure.log 2>&1 || { cat $(BUILD).configure.log; exit 1; }

deps:
	@scripts/install-deps

# ASan + UBSan + bounds checks, built with clang (-O1, line tables); any report fails the test that caused it.
sanitize-test: deps
	@CXX=clang++ cmake -S . -B $(SANITIZE_BUILD) $(call generator,$(SANITIZE_BUILD)) -DCMAKE_BUILD_TYPE=Release -DTHM_SANITIZE=ON > $(SANITIZE_BUILD).configure.log 2>&1 || { cat $(SANITIZE_BUILD).configure.log; exit 1; }
	cmake --build $(SANITIZE_BUILD) -j $(JOBS) --target thmcheck thmcheck_tests
	cd $(SANITIZE_BUILD) && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	  ctest --output-on-failure -j $(JOBS) -E '$(SANITIZE_SKIP)'

# libFuzzer (clang) on the counterexample loader + evaluation, the CSV reader and the text-corpus reader, FUZZ_SECONDS each; what it
# finds is in $(FUZZ_BUILD)/findings/<target>/ (copy a crash to tests/corpus/bad/ to replay it in make test).
fuzz:
	@scripts/install-deps
	@CXX=clang++ cmake -S . -B $(FUZZ_BUILD) $(call generator,$(FUZZ_BUILD)) -DCMAKE_BUILD_TYPE=Release -DTHM_FUZZ=ON -DBUILD_TESTING=OFF > $(FUZZ_BUILD).configure.log 2>&1 || { cat $(FUZZ_BUILD).configure.log; exit 1; }
	cmake --build $(FUZZ_BUILD) -j $(JOBS) --target fuzz_counterexample fuzz_series_csv fuzz_labelled_text
	@mkdir -p $(FUZZ_BUILD)/corpus/cx $(FUZZ_BUILD)/corpus/csv $(FUZZ_BUILD)/findings/fuzz_counterexample $(FUZZ_BUILD)/findings/fuzz_series_csv \
	  $(FUZZ_BUILD)/corpus/text $(FUZZ_BUILD)/findings/fuzz_labelled_text
	@cp tests/corpus/*/*.json tests/data/*.json $(FUZZ_BUILD)/corpus/cx/ 2>/dev/null || true
	@cp tests/data/*.csv $(FUZZ_BUILD)/corpus/csv/
	@cp tests/data/*.tsv $(FUZZ_BUILD)/corpus/text/
	cd $(FUZZ_BUILD) && ./tests/fuzz/fuzz_counterexample -max_total_time=$(FUZZ_SECONDS) -max_len=65536 -timeout=20 -rss_limit_mb=4096 \
	  -artifact_prefix=findings/fuzz_counterexample/ corpus/cx
	cd $(FUZZ_BUILD) && ./tests/fuzz/fuzz_series_csv -max_total_time=$(FUZZ_SECONDS) -max_len=65536 -timeout=20 \
	  -artifact_prefix=findings/fuzz_series_csv/ corpus/csv
	cd $(FUZZ_BUILD) && ./tests/fuzz/fuzz_labelled_text -max_total_time=$(FUZZ_SECONDS) -max_len=65536 -timeout=20 \
	  -artifact_prefix=findings/fuzz_labelled_text/ corpus/text

# The fault matrix (docs/guide/fault-matrix.md, "Fault matrix"): an optimised build with the fault points of numerics/fault.hpp compiled in,
# then every fault against every claim; the matrix is printed and written to $(FAULTS_BUILD)/faults.json.
faults: deps
	@cmake -S . -B $(FAULTS_BUILD) $(call generator,$(FAULTS_BUILD)) -DCMAKE_BUILD_TYPE=Release -DTHM_FAULTS=ON > $(FAULTS_BUILD).configure.log 2>&1 || { cat $(FAULTS_BUILD).configure.log; exit 1; }
	cmake --build $(FAULTS_BUILD) -j $(JOBS) --target thmcheck
	./$(FAULTS_BUILD)/thmcheck faults --out $(FAULTS_BUILD)/faults.json

# docs/catalogue.md (the claims, power, experiments and faults tables) from the registries and the committed docs/faults.json
# and docs/power.json.
catalogue: build
	cmake -DCMD=./$(BUILD)/thmcheck -DPAGE=docs/catalogue.md -DMATRIX=docs/faults.json -DPOWER=docs/power.json -DUPDATE=ON -P tests/cli/catalogue_current.cmake

bench: build
	cmake --build $(BUILD) -j $(JOBS) --target thmcheck_bench
	./$(BUILD)/bench/thmcheck_bench

clean:
	rm -rf $(BUILD) $(SANITIZE_BUILD) $(FUZZ_BUILD) $(FAULTS_BUILD)
