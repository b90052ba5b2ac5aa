// Great-circle distances live with the reader library (TonightSnapshot), which services
// use for `nearby`; the pipeline measures with the same function.
@_exported import enum TonightSnapshot.GeoDistance
