# The two entry points of the README: `make run` (the main job) and `make test`.
BUILD ?= build
JOBS ?= $(shell nproc 2>/dev/null || echo 2)

.PHONY: run test build deps configure bench clean

run: build
	@./$(BUILD)/thmcheck run; status=$$?; \
	if [ $$status -eq 1 ]; then echo "make run: some verdicts differ from the expected ones (marked above); details in reports/latest/summary.json"; fi; \
	exit $$status

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

build: configure
	cmake --build $(BUILD) -j $(JOBS)

configure: deps
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release > $(BUILD).configure.log 2>&1 || { cat $(BUILD).configure.log; exit 1; }

deps:
	@scripts/install-deps

bench: build
	./$(BUILD)/bench/thmcheck_bench

clean:
	rm -rf $(BUILD)
