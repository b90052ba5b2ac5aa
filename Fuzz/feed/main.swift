// libFuzzer target: the feed parser (plain, gzip or zstd by magic bytes) on arbitrary bytes.
// The body is `FeedFuzzTarget` (Fuzz/targets), which the ordinary build
// compiles and FuzzTargetsTests runs on its seeds.
// Build and run: scripts/fuzz.sh feed SECONDS
import TonightFuzzSupport
import TonightFuzzTargets

FuzzSupport.run(FeedFuzzTarget.self)
