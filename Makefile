# The two commands of the README, each complete on a fresh machine (Debian/Ubuntu with Swift):
#
#   make run    install what is missing, build, run the nightly job on the bundled fixtures,
#               then show where the snapshot is and look one record up
#   make test   install what is missing, build, run every test (what .ci/run calls)
#
# Also: make bench (every benchmark into Docs/BENCHMARKS.md), make docs (DocC of the reader),
# make tsan (ThreadSanitizer over the reader's concurrent tests and whole nights: Docs/TESTING.md).

SWIFT   ?= swift
TONIGHT := .build/release/tonight
OUT     := .tonight

.PHONY: run test deps build bench docs tsan clean

deps:
	@scripts/install-deps.sh

build: deps
	$(SWIFT) build -c release --product tonight

run: build
	$(TONIGHT) run
	@echo
	@echo "Published snapshots (newest last; * is CURRENT) under $(OUT)/snapshots:"
	@$(TONIGHT) snapshot list --out $(OUT)
	@echo
	@echo "Example lookup: tonight snapshot get explore gsDYBAAAAA --out $(OUT)"
	@$(TONIGHT) snapshot get explore gsDYBAAAAA --out $(OUT)

test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

bench: deps
	$(SWIFT) build -c release --product tonight
	$(SWIFT) build -c release --product tonight-bench
	for b in parse-feed load-tickets geocode snapshot hostile; do \
	  .build/release/tonight-bench $$b --markdown Docs/BENCHMARKS.md || exit 1; done
	.build/release/tonight-bench pipeline --runs 3 --markdown Docs/BENCHMARKS.md
	test -f bench-data/full-uniform/feed.xml || $(TONIGHT) generate --scale full --shape uniform --out bench-data/full-uniform
	.build/release/tonight-bench pipeline --runs 3 --data bench-data/full-uniform --section pipeline-uniform --markdown Docs/BENCHMARKS.md
	.build/release/tonight-bench growth --runs 3 --small bench-data/small --full bench-data/full --markdown Docs/BENCHMARKS.md
	.build/release/tonight-bench growth --same-world --runs 3 --full bench-data/full --markdown Docs/BENCHMARKS.md

tsan: deps
	scripts/tsan.sh

docs:
	$(SWIFT) package --disable-sandbox generate-documentation --target TonightSnapshot

clean:
	rm -rf .build $(OUT)
