// libFuzzer target: the RFC 4180 reader through the Tickets Tonight loader.
// The body is `CSVFuzzTarget` (Fuzz/targets), which the ordinary build
// compiles and FuzzTargetsTests runs on its seeds.
// Build and run: scripts/fuzz.sh csv SECONDS
import TonightFuzzSupport
import TonightFuzzTargets

FuzzSupport.run(CSVFuzzTarget.self)
