// libFuzzer target: the affinity parser (both halves and one pass must agree).
// The body is `AffinityFuzzTarget` (Fuzz/targets), which the ordinary build
// compiles and FuzzTargetsTests runs on its seeds.
// Build and run: scripts/fuzz.sh affinity SECONDS
import TonightFuzzSupport
import TonightFuzzTargets

FuzzSupport.run(AffinityFuzzTarget.self)
