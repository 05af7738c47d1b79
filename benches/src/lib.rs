//! Benchmarks of mu2 (see docs/benchmarks.md).
