// libFuzzer target: the snapshot reader's parsers.
// The body is `SnapshotFuzzTarget` (Fuzz/targets), which the ordinary build
// compiles and FuzzTargetsTests runs on its seeds.
// Build and run: scripts/fuzz.sh snapshot SECONDS
import TonightFuzzSupport
import TonightFuzzTargets

FuzzSupport.run(SnapshotFuzzTarget.self)
