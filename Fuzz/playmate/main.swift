// libFuzzer target: the Playmate exports through their loader, ranking and records.
// The body is `PlaymateFuzzTarget` (Fuzz/targets), which the ordinary build
// compiles and FuzzTargetsTests runs on its seeds.
// Build and run: scripts/fuzz.sh playmate SECONDS
import TonightFuzzSupport
import TonightFuzzTargets

FuzzSupport.run(PlaymateFuzzTarget.self)
