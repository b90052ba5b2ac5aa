// libFuzzer target: the config loader (YAML through Yams, then every key's rule).
// The body is `ConfigFuzzTarget` (Fuzz/targets), which the ordinary build
// compiles and FuzzTargetsTests runs on its seeds.
// Build and run: scripts/fuzz.sh config SECONDS
import TonightFuzzSupport
import TonightFuzzTargets

FuzzSupport.run(ConfigFuzzTarget.self)
